#!/bin/bash
# The next session's first device run (written 2026-11-30, end of session 16). Session 16 ended
# at mega 86.4-86.7 us (M=16 KV=8192, roundrobin), serial 72.8-73.6, cmp 50.8-51.5
# (bench/RESULTS.md "Session 16"), after removing the GEMM store's redundant event wait.
# Here: (1) the baseline A B; (2) the two instruction slots (-DMRT_MEGA_TWO_SLOTS: the next
# instructions' words and operand row arrive by bulk copy while the current one runs), 0.6 us
# slower in session 11 when instructions were 2-4 us longer, with its byte test; (3) early
# claims (-DMRT_MEGA_EARLY_CLAIM, prepared in session 16, default PTX identical): each
# finalization group claims its first job, and an INDEX_Q group loads that job's row inputs,
# while its member waits for the reduce group (every member waits, unbounded, where no worker
# holds two tasks of the op; else the bounded wait as now): B0's and D1's finalizations are
# ~8 us each on the critical path, ~4.7 of it one job (run 5's probe); (4) where a
# GEMM consumer's K block goes: every GEMM's k-loop takes ~0.4 us a K block whether its
# weights were resident or not (session 16 run 7's probe), so Nsight Compute's per-instruction
# stalls of D1 and of D0 alone in the megakernel (`--ops`: a GEMM's time does not depend on its
# data), summarized by scripts/sass_stalls.py (the top instructions and the samples after each
# QGMMA, i.e. the k-loop).
# Run: timeout 570 bash scripts/device-next.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant 2s -DMRT_MEGA_TWO_SLOTS "megartp build-2s/tests/gpu/test_mega_prefix" &
build_variant ec -DMRT_MEGA_EARLY_CLAIM "megartp build-ec/tests/gpu/test_mega_prefix build-ec/tests/gpu/test_mega" &
build_or_exit build/megartp
wait
echo "builds $((SECONDS - t0)) s"
{
for r in 1 2; do
    timeout 60 build/megartp bench glm5-prefix --modes serial,cmp,mega > "$O/base-$r.md" 2>&1
    echo "baseline $r rc=$? $(grep -E 'step, ' "$O/base-$r.md" | tr -s ' ' | cut -c1-70 | tr '\n' ' ')"
done
ab_bench mega build build-2s build-ec
cp_bench build build-2s build-ec
build_tests 150 test_mega_prefix ec 2s
build_tests 60 test_mega ec
mega_traces 300 build build-2s build-ec
mkdir -p "$O/sass" && (cd "$O/sass" && cuobjdump -xelf all "$OLDPWD/build/src/cuda/mega.o" > /dev/null 2>&1; \
    nvdisasm -g -c *.cubin > mega.sass 2> nvdisasm.err; echo "sass rc=$? $(wc -l < mega.sass) lines")
for op in D1 D0; do
    [ $((SECONDS - t0)) -gt 420 ] && break
    timeout 120 ncu --kernel-name regex:mrt_mega_kernel --launch-skip 10 --launch-count 1 \
        --section SourceCounters --section WarpStateStats -o "$O/$op" \
        build/megartp bench glm5-prefix --modes mega --reps 10 --ops $op > "$O/ncu-$op.log" 2>&1
    echo "ncu $op rc=$? $(grep -E '==PROF==|==ERROR==' "$O/ncu-$op.log" | tail -2 | tr '\n' ' ')"
    ncu --import "$O/$op.ncu-rep" --page source --csv --print-source sass > "$O/src-$op.csv" 2> "$O/src-$op.err"
    python3 scripts/sass_stalls.py "$O/src-$op.csv" 30
    gzip "$O/src-$op.csv"; rm -f "$O/$op.ncu-rep"
done
awk '/\.text\./{on = index($0, "mrt_mega_gemm_tileILi0ELi16") > 0} on' "$O/sass/mega.sass" | gzip > "$O/sass/tile16.sass.gz"
rm -f "$O"/sass/*.cubin "$O/sass/mega.sass"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
