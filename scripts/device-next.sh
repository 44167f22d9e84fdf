#!/bin/bash
# The next session's first device run (written 2026-11-29, end of session 5). Everything up to
# 4852767 ran on the H200, but the final F1 (one-CTA row from bitmaps, cc82354 + 4852767) was
# checked only by test_index_ops --quick, test_serial --quick and test_mega_prefix. Later
# commits are compile-checked only: E1 / F1 kernels wait with griddepcontrol.wait and cmp
# launches them with PDL; cmp uses PDL also for ops with producers on other streams (D1, E1)
# — if test_serial's cmp checks fail or the capture is refused, revert that commit first;
# test_serial now runs all 20 shapes (M=64 KV=65536 and M=128 KV=8192 / 65536 added);
# test_barrier_pattern is new (run under racecheck here); the placement cost model has per-kind
# fixed costs (critical-path placement measured here); the megakernel prefetches the next GEMM
# tile's weights into L2 (compared here with a build without it, -DMRT_MEGA_NO_PREFETCH_NEXT).
# This run: the full F1 suite with its timings, the serial step at all 20 shapes against the
# CPU executor (with cmp byte-identical, 1000 cmp replays, the slow-producer check), mega =
# serial, the step; then, time allowing, memcheck of a small serial + cmp step, racecheck of
# the barrier pattern and of the F1 / E1 kernels, and the KV = 65536 sweep rows that still
# show the five-pass F1 (bench/RESULTS.md, session 5). A second run can take
# scripts/device-racecheck-step.sh (racecheck of the step, one kernel family at a time).
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant noprefetch -DMRT_MEGA_NO_PREFETCH_NEXT megartp &
build_or_exit
wait
echo "builds $((SECONDS - t0)) s"
{
gpu_tests 300 test_index_ops test_serial test_mega_prefix test_mega test_barrier_pattern
echo "tests done t=$((SECONDS - t0)) s"
grep -E "TIME F1" "$O/test_index_ops.log" | cut -c1-150
timeout 60 build/megartp bench glm5-prefix --modes serial,cmp,mega > "$O/bench.md" 2>&1; echo "bench rc=$?"
grep -E "^\| " "$O/bench.md"
# the megakernel with / without the next GEMM tile's L2 weight prefetch, alternated
for r in 1 2; do
    for b in build build-noprefetch; do
        timeout 40 $b/megartp bench glm5-prefix --modes mega > "$O/bench-mega-$b-$r.md" 2>&1
        echo "mega $b round $r rc=$? $(grep -E 'step, mega' "$O/bench-mega-$b-$r.md" | tr -s ' ' | cut -c1-100)"
    done
done
# critical-path placement under the per-kind cost model (estimate 114 us vs roundrobin 131)
timeout 60 build/megartp bench glm5-prefix --modes mega --policy critical-path > "$O/bench-cp.md" 2>&1
echo "bench mega critical-path rc=$? $(grep -E 'step, mega|same-bytes' "$O/bench-cp.md" | tr -s ' ' | cut -c1-100 | tr '\n' ' ')"
if [ $((SECONDS - t0)) -lt 400 ]; then
    sanitize racecheck 60 pattern build/tests/gpu/test_barrier_pattern
    sanitize racecheck 60 index build/tests/gpu/test_index_ops --tiny
fi
[ $((SECONDS - t0)) -lt 460 ] && sanitize memcheck 90 serial-cmp build/tests/gpu/test_serial --sanitize
sweep 20 520 "64 2 65536" "128 2 65536"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
