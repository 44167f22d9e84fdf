#!/bin/bash
# Session 6, run e (2026-11-29): F1's emit with one scan of (ties, selected) pairs and
# coalesced stores (a word per warp-step, lane = bit). Checks: test_index_ops (every F1 case
# against the reference, timings with the phases), test_serial --quick, test_mega_prefix,
# racecheck of the F1 / E1 kernels; then the step twice and the M=16 KV=65536 shape.
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_or_exit
echo "build $((SECONDS - t0)) s"
{
gpu_tests 200 test_index_ops "test_serial --quick" test_mega_prefix
echo "tests done t=$((SECONDS - t0)) s"
grep -E "TIME F1 (1 CTA x 1024|v0)" "$O/test_index_ops.log" | cut -c1-150
for r in 1 2; do
    timeout 60 build/megartp bench glm5-prefix --modes serial,cmp,mega > "$O/bench-$r.md" 2>&1; echo "bench $r rc=$?"
    grep -E "^\| " "$O/bench-$r.md"
done
sweep 30 300 "16 2 65536"
[ $((SECONDS - t0)) -lt 330 ] && sanitize racecheck 60 index build/tests/gpu/test_index_ops --tiny
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
