#!/bin/bash
# One device run for the megakernel (issue [E]): build, the mega tests (byte equality with
# serial over shapes and both policies, replays, watchdog), serial against the CPU executor
# (the plan's splits), a mega run against the naive reference, a trace of the mega step, the
# benchmark of serial / cmp / mega with the same-bytes read, compute-sanitizer on a small
# mega step. Every step has a timeout. Logs: scripts/device-common.sh.
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_or_exit
echo "build $((SECONDS - t0)) s"
{
timeout 150 build/tests/gpu/test_mega_prefix > "$O/test_mega_prefix.log" 2>&1
echo "test_mega_prefix rc=$? $(tail -1 "$O/test_mega_prefix.log")"; grep -E "FAIL|differs" "$O/test_mega_prefix.log" | head -20
for t in test_mega test_trace_gpu; do
    timeout 90 build/tests/gpu/$t > "$O/$t.log" 2>&1; echo "$t rc=$? $(tail -1 "$O/$t.log")"
    grep -E "FAIL|NoOp" "$O/$t.log" | head -8
done
timeout 120 build/tests/gpu/test_serial --quick > "$O/test_serial.log" 2>&1; echo "test_serial --quick rc=$? $(tail -1 "$O/test_serial.log")"
timeout 60 build/megartp run glm5-prefix --backend mega > "$O/run-mega.txt" 2>&1; echo "run --backend mega rc=$?"; tail -12 "$O/run-mega.txt"
timeout 60 build/megartp trace glm5-prefix --backend mega -o "$O/trace-mega.json" --html "$O/trace-mega.html" \
    > "$O/trace-mega.txt" 2>&1; echo "trace mega rc=$?"; head -4 "$O/trace-mega.txt"
timeout 120 build/megartp bench glm5-prefix --modes serial,cmp,mega > "$O/bench.md" 2>&1; echo "bench rc=$?"
grep -E "step,|same-bytes|bench:" "$O/bench.md"
timeout 90 compute-sanitizer --tool memcheck build/tests/gpu/test_mega_prefix --quick > "$O/sanitize.log" 2>&1
echo "memcheck mega rc=$? $(grep -E 'ERROR SUMMARY' "$O/sanitize.log" | tail -1)"
for tool in synccheck racecheck; do
    timeout 100 compute-sanitizer --tool $tool build/tests/gpu/test_mega_prefix --quick > "$O/$tool.log" 2>&1
    echo "$tool mega rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$O/$tool.log" | tail -1)"
done
} 2>&1 | tee "$O/summary.txt"
timeout 200 build/megartp bench glm5-prefix --cumulative --modes serial,cmp,mega --reps 50 > "$O/cumulative.md" 2>&1
echo "bench --cumulative rc=$?"; cat "$O/cumulative.md"
