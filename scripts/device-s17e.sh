#!/bin/bash
# Session 17 run 5 (2026-11-30): run 4 found the instruction slots 3.5 us faster at M=16
# KV=8192 but 23 us slower at M=128 and 4-15 us slower at KV=65536 than one slot, with or
# without the ring stage; the tiles, called with the slot's words and row at two addresses,
# lost their constant addressing (ptxas: GEMM tile TN 128 spilled 280 bytes against 192).
# Now each slot's words and row are copied (shared to shared) to the fixed `w` / `op` at the
# slot's start, before one barrier. The A B against -DMRT_MEGA_ONE_SLOT at the shapes that
# moved, then [E]'s evidence on the result and the sweep under both policies.
# Run: timeout 560 bash scripts/device-s17e.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
mega_builds 1s -DMRT_MEGA_ONE_SLOT
{
ab_shapes "build build-1s" "16 2 8192" "128 2 8192" "1 1 65536" "16 2 65536" "16 2 8192" "128 2 8192" \
    "64 2 65536"
gpu_tests 150 test_mega_prefix
gpu_tests 60 test_mega
grep NoOp "$O/test_mega.log" | tail -1
mega_tiny_sanitize 60 build-san new
cp_bench build build-1s
mega_traces 260 build
e_sweep 390 465
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
