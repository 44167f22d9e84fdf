#!/bin/bash
# Session 35 run 8 (2026-12-01): does M=64 KV=8192's +5 us with fb72218 follow the kernel
# instantiation? A B (8c9a4c7 against fb72218's code, carried binaries) at M=32 (the TN-32
# kernel), M=48 and M=64 (TN 64), M=96 (TN 128), KV=8192, and M=64 KV=1024. The change is the
# same code at every M (E1's key lookups); a tie to TN 64 would point at that kernel's code
# placement. Carry build/megartp and build-old/megartp.
# Run: timeout 200 bash scripts/device-s35h.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
{
ab_shapes "build-old build" "32 2 8192" "48 2 8192" "64 2 8192" "96 2 8192" "64 2 1024" "32 2 8192" "48 2 8192"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
