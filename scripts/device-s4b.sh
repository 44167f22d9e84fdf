#!/bin/bash
# Session 4's second device run: the megakernel with operand rows in shared memory and relaxed
# event polls (mega = serial byte for byte, its step and per-op phases), the untraced
# standalone kernels without stamp code (GPU tests of the kernels touched, stamps A/B).
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_both
{
timeout 100 build/tests/gpu/test_mega_prefix > "$O/test_mega_prefix.log" 2>&1
echo "test_mega_prefix rc=$? $(tail -1 "$O/test_mega_prefix.log")"; grep -E "FAIL|differs" "$O/test_mega_prefix.log" | head -8
timeout 30 build/tests/gpu/test_mega > "$O/test_mega.log" 2>&1; echo "test_mega rc=$? $(grep -E 'back to back' "$O/test_mega.log" | head -1) $(tail -1 "$O/test_mega.log")"
timeout 60 build/megartp bench glm5-prefix --modes serial,cmp,mega > "$O/bench.md" 2>&1; echo "bench rc=$?"
grep -E "^\| " "$O/bench.md"
timeout 30 build/megartp trace glm5-prefix --backend mega -o "$O/trace-mega.json" > "$O/trace-mega.txt" 2>&1
echo "trace mega rc=$?"; cat "$O/trace-mega.txt"
for t in test_serial test_index_ops test_trace_gpu; do
    timeout 60 build/tests/gpu/$t --quick > "$O/$t.log" 2>&1; echo "$t rc=$? $(tail -1 "$O/$t.log")"
done
echo "t=$((SECONDS - t0)) s"
stamps_ab
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
