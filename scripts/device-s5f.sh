#!/bin/bash
# Session 5, run 6 (2026-11-29): the one-CTA top-k's bitmaps rounded to 4 words (run 5: a
# misaligned uint4 store into the cache at kv = 5000). F1 tests, mega = serial.
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_or_exit build/tests/gpu/test_index_ops build/tests/gpu/test_mega_prefix
echo "build $((SECONDS - t0)) s"
{
timeout 80 build/tests/gpu/test_index_ops --quick > "$O/test_index_ops.log" 2>&1; echo "test_index_ops --quick rc=$? $(tail -1 "$O/test_index_ops.log")"; grep FAIL "$O/test_index_ops.log" | head -5
[ $((SECONDS - t0)) -lt 150 ] && { timeout 60 build/tests/gpu/test_mega_prefix > "$O/test_mega_prefix.log" 2>&1; echo "test_mega_prefix rc=$? $(tail -1 "$O/test_mega_prefix.log")"; grep FAIL "$O/test_mega_prefix.log" | head -3; }
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
