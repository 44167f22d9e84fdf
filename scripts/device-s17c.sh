#!/bin/bash
# Session 17 run 3 (2026-11-30): the instruction slots as the default (built in session 11 as
# -DMRT_MEGA_TWO_SLOTS; the previous path is now -DMRT_MEGA_ONE_SLOT, build-1s). Run 1 saw
# the slots 3.6 us faster but two of its four bench processes hung; run 2 (new watchdog
# records, 1 s spin limit) ran ten without a hang. Here: a soak that is also the A B (eight
# rounds, alternated), M = 64 / 128, critical-path, then [E]'s evidence on the new default
# (test_mega: NoOp cost and watchdog; test_mega_prefix; the sanitizers on the reduced-size
# step), traces of both, and the 12-shape sweep under both policies.
# Run: timeout 570 bash scripts/device-s17c.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
mega_builds 1s -DMRT_MEGA_ONE_SLOT
{
for r in 1 2 3 4 5 6 7 8; do
    for b in build build-1s; do
        timeout 40 $b/megartp bench glm5-prefix --modes mega > "$O/ab-$b-$r.md" 2>&1
        rc=$?
        echo "$b $r rc=$rc $(grep -E 'step, mega' "$O/ab-$b-$r.md" | tr -s ' ' | cut -c1-100)"
        [ $rc != 0 ] && grep -v "GEMM tile" "$O/ab-$b-$r.md" | head -12 | cut -c1-400
    done
done
for m in 64 128; do
    for b in build build-1s; do
        timeout 40 $b/megartp bench glm5-prefix --m $m --batch 2 --kv 8192 --modes mega > "$O/m$m-$b.md" 2>&1
        echo "M=$m $b rc=$? $(grep -E 'step, mega' "$O/m$m-$b.md" | tr -s ' ' | cut -c1-100)"
    done
done
cp_bench build build-1s
gpu_tests 60 test_mega
grep NoOp "$O/test_mega.log"
gpu_tests 150 test_mega_prefix
mega_tiny_sanitize 60 build-san new
mega_traces 300 build build-1s
e_sweep 420 530
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
