#!/bin/bash
# Session 18 run 7 (2026-11-30, the session's last ~300 s of device time): run 6's inlining
# gained at M=16 KV=8192 (-2 us) and M=1 KV=1024 (-2.5) but lost at M=16 KV=65536 (+4.6) and
# M=128 (+5.6). Here the GEMM tiles alone inlined at TN <= 32 (-DMRT_MEGA_INLINE_GEMM=32; the
# E1 tile stays a call, so C7510 stays), against the default at the M=16 / M=1 shapes.
# Run: timeout 260 bash scripts/device-s18g.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_with ig32 -DMRT_MEGA_INLINE_GEMM=32 megartp
{
ab_shapes "build build-ig32" "16 2 8192" "16 2 65536" "1 1 1024" "16 2 8192"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
