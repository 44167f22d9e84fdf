#!/bin/bash
# Session 11, run 7 (the session's last ~290 s of device time): two instruction slots
# (-DMRT_MEGA_TWO_SLOTS, mega.cu: words two instructions ahead, operand rows one ahead, by
# bulk copies with an "arrived" mbarrier each) checked (mega = serial bytes at 8 shapes, both
# policies, 1000 replays; the NoOp plan and the watchdog) and timed against the default.
# Logs go to $OUT as they are written, in case the lease ends first.
# Run: timeout 230 bash scripts/device-s11g.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant ts -DMRT_MEGA_TWO_SLOTS "megartp build-ts/tests/gpu/test_mega_prefix build-ts/tests/gpu/test_mega" &
build_or_exit build/megartp
wait
echo "builds $((SECONDS - t0)) s" | tee -a "${OUT:-$O}/progress.txt"
build_tests 70 test_mega_prefix ts 2>&1 | tee -a "${OUT:-$O}/progress.txt"
for r in 1 2; do
    for b in build build-ts; do
        timeout 30 $b/megartp bench glm5-prefix --modes mega --reps 100 > "$O/bench-$b-$r.md" 2>&1
        echo "$b round $r rc=$? $(grep -E 'step, mega' "$O/bench-$b-$r.md" | tr -s ' ' | cut -c1-100)" | tee -a "${OUT:-$O}/progress.txt"
    done
done
build_tests 40 test_mega ts 2>&1 | tee -a "${OUT:-$O}/progress.txt"
grep NoOp "$O/test_mega-ts.log" | tee -a "${OUT:-$O}/progress.txt"
echo "t=$((SECONDS - t0)) s" | tee -a "${OUT:-$O}/progress.txt"
