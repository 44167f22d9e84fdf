#!/bin/bash
# Branch e1-wgmma (written 2026-11-29, session 6, compile-checked only): E1 variant 4 on wgmma.
# First run on a GPU: test_index_ops (variant 4 against the reference on every case with 32 or
# 64 heads, and its timings beside variant 0's), then racecheck of the small cases.
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_or_exit build/tests/gpu/test_index_ops
echo "build $((SECONDS - t0)) s"
{
gpu_tests 240 test_index_ops
grep -E " v4:|TIME E1 (f16 \(v0\)|wgmma|default)" "$O/test_index_ops.log" | cut -c1-150 | head -40
sanitize racecheck 60 index build/tests/gpu/test_index_ops --tiny
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
