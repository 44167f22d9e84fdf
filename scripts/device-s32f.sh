#!/bin/bash
# Session 32, run 6 (2026-12-01): the rings capped by bytes (MRT_MEGA_RING_BYTES, 64 KB of
# weights a tile: 4 stages of fp8 / K-major bf16 as in run 4, D2's MN-major bf16 2 of 32 KB
# instead of 3). A B against MRT_MEGA_STAGES=D2=3 (run 4's tree) at five shapes, M=16 KV=8192
# twice; then this tree's test_mega_prefix, test_mega, `megartp run` serial / cmp / mega and the
# three sanitizers on the reduced step.
# Run: timeout 420 bash scripts/device-s32f.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
{
mega_builds
for sh in "16 2 8192" "16 2 65536" "64 2 8192" "128 2 1024" "16 2 8192" "1 1 1024"; do
    mega_at build bytes64k "$sh"
    MRT_MEGA_STAGES=D2=3 mega_at build d2-3 "$sh"
done
echo "t=$((SECONDS - t0)) s"
mega_checks
} 2>&1 | tee "$O/summary.txt"
