#!/bin/bash
# Session 5, run 3 (2026-11-29): F1 emits indices in index order without a sort. GPU tests of
# F1 (every variant against the reference, with timings), the serial step against the CPU
# executor, mega = serial bytes, then the step of the three executors and the mega trace.
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_or_exit
echo "build $((SECONDS - t0)) s"
{
for t in test_index_ops "test_serial --quick" test_mega_prefix test_mega; do
    set -- $t
    timeout 240 build/tests/gpu/$t > "$O/$1.log" 2>&1; echo "$t rc=$? $(tail -1 "$O/$1.log")"; grep FAIL "$O/$1.log" | head -5
done
grep -E "F1 " "$O/test_index_ops.log" | head -24
timeout 60 build/megartp bench glm5-prefix --modes serial,cmp,mega > "$O/bench.md" 2>&1; echo "bench rc=$?"
grep -E "^\| " "$O/bench.md"
timeout 30 build/megartp trace glm5-prefix --backend mega -o "$O/trace-mega.json" > "$O/trace-mega.txt" 2>&1
sed -n 4,14p "$O/trace-mega.txt"
timeout 60 build/megartp run glm5-prefix --backend mega > "$O/run-mega.txt" 2>&1; echo "run --backend mega rc=$?"; tail -3 "$O/run-mega.txt"
[ $((SECONDS - t0)) -lt 330 ] && { timeout 200 build/tests/gpu/test_serial > "$O/test_serial_full.log" 2>&1; echo "test_serial (17 shapes) rc=$? $(tail -1 "$O/test_serial_full.log")"; grep FAIL "$O/test_serial_full.log" | head -5; }
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
