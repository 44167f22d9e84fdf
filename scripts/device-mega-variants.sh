#!/bin/bash
# One device run comparing megakernel build variants (src/cuda/mega.cu's experiment macros):
# the default, a dynamic shared-memory cap (more L1), ops as called functions, both. For each:
# the quick byte-equality test, the step benchmark (mega only) and a trace of the step.
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
make -j16 all > "$O/build.log" 2>&1 || { echo "BUILD FAILED"; grep -E "error" "$O/build.log" | head -30; exit 1; }
declare -A FLAGS=([cap]="-DMRT_MEGA_SMEM_CAP=184320" [call]="-DMRT_MEGA_CALL_OPS=1"
                  [both]="-DMRT_MEGA_SMEM_CAP=184320 -DMRT_MEGA_CALL_OPS=1")
for v in cap call both; do
    rm -rf build-$v; cp -a build build-$v; rm -f build-$v/src/cuda/mega.o
    make -j5 BUILD=build-$v EXTRA_NVCCFLAGS="${FLAGS[$v]}" build-$v/megartp build-$v/tests/gpu/test_mega_prefix \
        > "$O/build-$v.log" 2>&1 &
done
wait
echo "builds $((SECONDS - t0)) s"
{
for v in "" -cap -call -both; do
    b=build$v
    [ -x $b/megartp ] || { echo "$b: no binary"; continue; }
    timeout 60 $b/tests/gpu/test_mega_prefix --quick > "$O/test$v.log" 2>&1; echo "$b test_mega_prefix --quick rc=$? $(tail -1 "$O/test$v.log")"
    timeout 60 $b/megartp bench glm5-prefix --modes mega --reps 60 > "$O/bench$v.md" 2>&1
    echo "$b: $(grep -E 'step, mega' "$O/bench$v.md" | tr -s ' ')"
    timeout 60 $b/megartp trace glm5-prefix --backend mega -o "$O/trace$v.json" > "$O/trace$v.txt" 2>&1
    sed -n 2p "$O/trace$v.txt"
done
} 2>&1 | tee "$O/summary.txt"
