#!/bin/bash
# Session 4, run 6: the GEMM k-loop without divisions (stage ring), the megakernel's GEMM tile
# as a function of its own (noinline, default) vs inlined (-DMRT_MEGA_GEMM_INLINE, a switch of
# commit 432f4ae, removed once measured: run this script on that commit to repeat it): step
# figures of both, GPU tests of the GEMMs and executors, SASS local-memory counts, and the
# megakernel under the critical-path policy.
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant inl -DMRT_MEGA_GEMM_INLINE megartp &
build_or_exit
wait
echo "builds $((SECONDS - t0)) s"
{
timeout 100 build/tests/gpu/test_mega_prefix > "$O/test_mega_prefix.log" 2>&1; echo "test_mega_prefix rc=$? $(tail -1 "$O/test_mega_prefix.log")"
for t in test_gemm_fp8 test_gemm_bf16 test_serial; do
    timeout 100 build/tests/gpu/$t --quick > "$O/$t.log" 2>&1; echo "$t --quick rc=$? $(tail -1 "$O/$t.log")"
done
for b in build build-inl build; do
    timeout 60 $b/megartp bench glm5-prefix --modes serial,cmp,mega > "$O/bench-$b.md" 2>&1
    echo "bench $b rc=$?: $(grep -E 'step, (serial|cmp|mega)|same-bytes' "$O/bench-$b.md" | awk -F'|' '{printf "%s %s; ", $2, $4}')"
done
grep -E "^\| " "$O/bench-build.md"
timeout 60 build/megartp bench glm5-prefix --modes mega --policy critical-path > "$O/bench-cp.md" 2>&1
echo "mega critical-path rc=$?: $(grep -E 'step, mega' "$O/bench-cp.md" | awk -F'|' '{print $4}')"
timeout 30 build/megartp trace glm5-prefix --backend mega -o "$O/trace-mega.json" > "$O/trace-mega.txt" 2>&1
sed -n 4,14p "$O/trace-mega.txt"
cuobjdump -sass build/src/cuda/mega.o > "$O/mega.sass" 2>/dev/null
echo "LDL/STL in mega.o: $(grep -cE 'LDL|STL' "$O/mega.sass") of $(grep -cE '^ +/\*[0-9a-f]+\*/' "$O/mega.sass") instructions"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
