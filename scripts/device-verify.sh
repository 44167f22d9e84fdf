#!/bin/bash
# A short device run: mega = serial byte for byte (all shapes), the step benchmark of the three
# executors, serial against the CPU executor on one small step, a trace of the mega step.
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_or_exit build/megartp build/tests/gpu/test_mega_prefix build/tests/gpu/test_serial
echo "build $((SECONDS - t0)) s"
{
timeout 100 build/tests/gpu/test_mega_prefix > "$O/test_mega_prefix.log" 2>&1
echo "test_mega_prefix rc=$? $(tail -1 "$O/test_mega_prefix.log")"; grep -E "FAIL|differs" "$O/test_mega_prefix.log" | head -8
timeout 50 build/megartp bench glm5-prefix --modes serial,cmp,mega > "$O/bench.md" 2>&1; echo "bench rc=$?"
grep -E "^\| " "$O/bench.md"
timeout 30 build/tests/gpu/test_serial --quick > "$O/test_serial.log" 2>&1; echo "test_serial --quick rc=$? $(tail -1 "$O/test_serial.log")"
timeout 20 build/megartp trace glm5-prefix --backend mega -o "$O/trace-mega.json" > "$O/trace-mega.txt" 2>&1
echo "trace mega rc=$?"; sed -n 2,15p "$O/trace-mega.txt"
} 2>&1 | tee "$O/summary.txt"
