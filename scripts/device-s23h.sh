#!/bin/bash
# Session 23 run 7 (2026-11-30): E1's wgmma tile in the megakernel with 8 token groups
# resident (MRT_MEGA_ILW_GROUPS) instead of 2: a request's keys run once per 8 groups, not
# once per 2 (M=64: 8 groups, M=128: 16). mega = serial bytes (test_mega_prefix), then the
# default plan at the 12 shapes, A B against the same tree with 2 groups (build-g2).
# Run: timeout 560 bash scripts/device-s23h.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant g2 "-DMRT_MEGA_ILW_GROUPS=2" megartp &
build_or_exit build/megartp build/tests/gpu/test_mega_prefix
wait
{
echo "builds $((SECONDS - t0)) s"
gpu_tests 200 test_mega_prefix
ab_shapes "build build-g2" "128 2 8192" "128 2 65536" "64 2 8192" "64 2 65536" "128 2 1024" "64 2 1024" \
    "16 2 8192" "16 2 65536" "16 2 1024" "1 1 8192" "1 1 65536" "1 1 1024"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
