#!/bin/bash
# Session 8, run 7 (the session's last): the final tree checked: memcheck of the step (F1
# variant 8 is new in it), all 20 shapes of the serial / cmp test, mega = serial bytes, and
# the step benchmark if time is left. Run: timeout 320 bash scripts/device-s8g.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_or_exit
echo "build $((SECONDS - t0)) s"
{
sanitize memcheck 90 step build/tests/gpu/test_serial --sanitize
gpu_tests 120 test_serial test_mega_prefix
echo "t=$((SECONDS - t0)) s"
[ $((SECONDS - t0)) -lt 260 ] && timeout 50 build/megartp bench glm5-prefix --modes serial,cmp,mega > "$O/bench.md" 2>&1 &&
    grep -E "^\| " "$O/bench.md"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
