#!/bin/bash
# The next session's first device run (written 2026-12-01, end of session 28; session 28's
# runs are scripts/device-s28a.sh .. s28e.sh). Session 28's final tree moved a GEMM tile's
# fence.proxy.async.shared::cta from the tile's end to its start (333f459, mega_gemm.cuh) after
# its last full check: only test_mega_prefix ran on it (run 5). So: the four GPU tests, the
# `megartp run` digests of serial / cmp / mega, the three sanitizers on the reduced step; then
# serial / cmp / mega with the read at M=16 KV=8192, traces at M=16 KV=8192 and M=128 KV=1024;
# the prepared -DMRT_MEGA_QB_ROWS=1 (D0's fused Q_B store with its rows' factors and positions
# computed once a tile: mega_op.h), its test_mega_prefix, the A B at 6 shapes and a trace at
# M=128 KV=1024; the 12-shape sweep until the time is spent.
# Run: timeout 590 bash scripts/device-next.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant qbr -DMRT_MEGA_QB_ROWS=1 "megartp tests/gpu/test_mega_prefix" &
final_builds
{
echo "builds $((SECONDS - t0)) s"
final_checks
step_shapes serial,cmp,mega build "16 2 8192"
mega_trace build default-16-8192 | grep -E "^  [A-F][0-9] |critical"
mega_trace build default-128-1024 --m 128 --batch 2 --kv 1024 | grep -E "^  [A-F][0-9] |critical"
build_tests 150 test_mega_prefix qbr
mega_trace build-qbr qbr-128-1024 --m 128 --batch 2 --kv 1024 | grep -E "^  [A-F][0-9] |critical"
for sh in "128 2 1024" "128 2 8192" "64 2 8192" "16 2 8192" "1 1 8192" "128 2 1024"; do
    mega_at build default "$sh"
    mega_at build-qbr qbr "$sh"
done
echo "t=$((SECONDS - t0)) s"
sweep_until 560 build sweep
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
