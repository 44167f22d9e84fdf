#!/bin/bash
# Session 30, run 5: A0 in 32 tasks below M=16 too (plan options only; the final tree's
# binary). The rule taken in runs 3-4 gives M=16 A0 32 slices with B0 in 3 K splits (every
# first GEMM tile on its own worker); below 16 rows A0 has 16 tasks and B0 84. Here M=2, 4, 8
# with twice the slices (32 tasks: share_workers then gives B0 63) and M=1 (16 slices, the
# most its 48 groups take in powers of two) with B0 in 3 K splits, against the default,
# twice each at KV=8192 (M=1..8's default plans take no tuning there).
# Run: timeout 330 bash scripts/device-s30f.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_or_exit build/megartp
{
echo "builds $((SECONDS - t0)) s"
for rep in 1 2; do
    mega_at build default "1 1 8192"
    mega_at build b3 "1 1 8192" --split B0=3
    mega_at build default "2 2 8192"
    mega_at build a16 "2 2 8192" --split A0=16
    mega_at build default "4 2 8192"
    mega_at build a8 "4 2 8192" --split A0=8
    mega_at build default "8 2 8192"
    mega_at build a4 "8 2 8192" --split A0=4
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
