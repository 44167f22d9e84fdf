#!/bin/bash
# Session 17 run 4 (2026-11-30): the instruction slots cost GLM-5 M=128 21 us in run 3 (QKV_A's
# 48-K-block TN-128 tile lost a ring stage to the slots' static shared memory), so the
# finalization's scratch (mrt_mega_fin_smem) moved into the dynamic shared memory, which it
# shares with the tiles (6 KB more for the ring than before the slots). Also KV = 65536 was
# 5-17 us slower in run 3's sweep than in session 16's (other machines): here the same-run
# A B against -DMRT_MEGA_ONE_SLOT (build-1s, with the scratch moved too) at M = 16, 128,
# KV = 65536, then [E]'s evidence on the new default and the sweep under both policies.
# Run: timeout 575 bash scripts/device-s17d.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
mega_builds 1s -DMRT_MEGA_ONE_SLOT
{
ab_shapes "build build-1s" "16 2 8192" "128 2 8192" "16 2 8192" "1 1 65536" "16 2 65536" "128 2 8192" \
    "1 1 65536" "16 2 65536" "64 2 65536"
gpu_tests 150 test_mega_prefix
gpu_tests 60 test_mega
grep NoOp "$O/test_mega.log" | tail -1
mega_tiny_sanitize 60 build-san new
cp_bench build build-1s
mega_traces 280 build
e_sweep 420 540
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
