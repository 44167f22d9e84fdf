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
for t in test_index_ops test_serial test_mega_prefix test_mega test_barrier_pattern; do
    timeout 300 build/tests/gpu/$t > "$O/$t.log" 2>&1; echo "$t rc=$? $(tail -1 "$O/$t.log") t=$((SECONDS - t0))"
    grep FAIL "$O/$t.log" | head -5
done
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
    timeout 60 compute-sanitizer --tool racecheck build/tests/gpu/test_barrier_pattern > "$O/racecheck-pattern.log" 2>&1
    echo "racecheck barrier pattern rc=$? $(grep -E 'RACECHECK SUMMARY' "$O/racecheck-pattern.log" | tail -1) $(tail -1 "$O/racecheck-pattern.log")"
    grep -E "^========= Error" -A1 "$O/racecheck-pattern.log" | cut -c1-160 | head -8
    timeout 60 compute-sanitizer --tool racecheck build/tests/gpu/test_index_ops --tiny > "$O/racecheck-index.log" 2>&1
    echo "racecheck index_ops --tiny rc=$? $(grep -E 'RACECHECK SUMMARY' "$O/racecheck-index.log" | tail -1) $(tail -1 "$O/racecheck-index.log")"
fi
if [ $((SECONDS - t0)) -lt 460 ]; then
    timeout 90 compute-sanitizer --tool memcheck build/tests/gpu/test_serial --sanitize > "$O/memcheck-serial.log" 2>&1
    echo "memcheck serial+cmp rc=$? $(grep -E 'ERROR SUMMARY' "$O/memcheck-serial.log" | tail -1)"
fi
for s in "64 2 65536" "128 2 65536"; do
    set -- $s
    [ $((SECONDS - t0)) -gt 520 ] && break
    timeout 60 build/megartp bench glm5-prefix --m $1 --batch $2 --kv $3 --modes serial,mega --reps 20 > "$O/sweep-$1-$3.md" 2>&1
    echo "sweep M=$1 KV=$3 rc=$? $(grep -E 'F1|step, |same-bytes' "$O/sweep-$1-$3.md" | tr -s ' ' | cut -c1-90 | tr '\n' ' ')"
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
