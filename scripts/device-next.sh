#!/bin/bash
# The next session's first device run (written 2026-12-01, end of session 28; session 28's
# runs are scripts/device-s28a.sh .. s28e.sh). Session 28's final tree moved a GEMM tile's
# fence.proxy.async.shared::cta from the tile's end to its start (333f459, mega_gemm.cuh) after
# its last full check: only test_mega_prefix ran on it (run 5). So: the four GPU tests, the
# `megartp run` digests of serial / cmp / mega, the three sanitizers on the reduced step; then
# serial / cmp / mega with the read at M=16 KV=8192, traces at M=16 KV=8192 and M=128 KV=1024,
# and the 12-shape sweep.
# Run: timeout 560 bash scripts/device-next.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
final_builds
{
echo "builds $((SECONDS - t0)) s"
final_checks
step_shapes serial,cmp,mega build "16 2 8192"
mega_trace build default-16-8192 | grep -E "^  [A-F][0-9] |critical"
mega_trace build default-128-1024 --m 128 --batch 2 --kv 1024 | grep -E "^  [A-F][0-9] |critical"
echo "t=$((SECONDS - t0)) s"
sweep_until 540 build sweep
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
