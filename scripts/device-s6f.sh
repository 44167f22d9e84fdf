#!/bin/bash
# Session 6, run f (2026-11-29): F1's emit skips empty words (run e's word-per-warp-step emit
# was slower on long sparse rows: M=64 kv=65536 34.9 -> 39.2 us). Checks: test_index_ops (every
# F1 case against the reference, timings), test_serial --quick, test_mega_prefix; the step;
# the M=16 KV=65536 shape; racecheck of the F1 / E1 kernels.
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_or_exit
echo "build $((SECONDS - t0)) s"
{
gpu_tests 200 test_index_ops "test_serial --quick" test_mega_prefix
echo "tests done t=$((SECONDS - t0)) s"
grep -E "TIME F1 (1 CTA x 1024|v0)" "$O/test_index_ops.log" | cut -c1-150
timeout 60 build/megartp bench glm5-prefix --modes serial,cmp,mega > "$O/bench.md" 2>&1; echo "bench rc=$?"
grep -E "^\| " "$O/bench.md"
sweep 30 240 "16 2 65536"
[ $((SECONDS - t0)) -lt 270 ] && sanitize racecheck 60 index build/tests/gpu/test_index_ops --tiny
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
