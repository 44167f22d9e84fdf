#!/bin/bash
# Session 4, runs 7 and 8: gemm_fp8 reduce groups finalize together (members claim the
# unit's jobs): mega = serial byte for byte, the watchdog test, the step of the three
# executors, the mega trace, and compute-sanitizer on a small mega step.
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_or_exit
echo "build $((SECONDS - t0)) s"
{
timeout 100 build/tests/gpu/test_mega_prefix > "$O/test_mega_prefix.log" 2>&1; echo "test_mega_prefix rc=$? $(tail -1 "$O/test_mega_prefix.log")"
grep -E "FAIL|differs" "$O/test_mega_prefix.log" | head -5
timeout 30 build/tests/gpu/test_mega > "$O/test_mega.log" 2>&1; echo "test_mega rc=$? $(grep -E 'back to back' "$O/test_mega.log" | head -1) $(tail -1 "$O/test_mega.log")"
timeout 60 build/megartp bench glm5-prefix --modes serial,cmp,mega > "$O/bench.md" 2>&1; echo "bench rc=$?"
grep -E "^\| " "$O/bench.md"
timeout 30 build/megartp trace glm5-prefix --backend mega -o "$O/trace-mega.json" > "$O/trace-mega.txt" 2>&1
sed -n 4,14p "$O/trace-mega.txt"
timeout 60 build/megartp run glm5-prefix --backend mega > "$O/run-mega.txt" 2>&1; echo "run --backend mega rc=$?"; tail -4 "$O/run-mega.txt"
for tool in memcheck racecheck; do
    timeout 120 compute-sanitizer --tool $tool build/tests/gpu/test_mega_prefix --quick > "$O/$tool.log" 2>&1
    echo "$tool rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$O/$tool.log" | tail -1)"
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
