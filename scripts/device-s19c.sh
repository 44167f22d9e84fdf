#!/bin/bash
# Session 19 run 3 (2026-11-30): the K-block pipeline with the stage released first, and
# desc-add at TN <= 64 (now the default). Run 2 (scripts/device-s19b.sh): issuing K block i+1
# before waiting for K block i (-DMRT_GEMM_PIPE) took the probe's B0 K block 0 -> last 4.26 ->
# 3.62 us and mega M=16 82.0 -> 80.7, but held each stage one K block longer: M=64 mega +5,
# serial +1.5, cmp +2. Now an iteration waits for K block i, releases its stage, issues
# K block i+1 into the other register tile and promotes K block i meanwhile.
#   p32 / p64 = -DMRT_GEMM_PIPE=32 / 64 (standalone GEMMs and megakernel);
#   da128     = -DMRT_GEMM_DESC_ADD=128 (run 2's default: desc-add at every TN; M=128);
#   gp64      = the GEMM probe on p64.
# Run: timeout 570 bash scripts/device-s19c.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant p32 -DMRT_GEMM_PIPE=32 megartp &
build_variant p64 -DMRT_GEMM_PIPE=64 \
    "megartp build-p64/tests/gpu/test_gemm_fp8 build-p64/tests/gpu/test_mega_prefix" &
build_variant da128 -DMRT_GEMM_DESC_ADD=128 megartp &
build_variant gp64 "-DMRT_GEMM_PROBE -DMRT_GEMM_PIPE=64" megartp &
build_or_exit build/megartp
wait
echo "builds $((SECONDS - t0)) s"
{
build_tests 120 test_gemm_fp8 p64
build_tests 150 test_mega_prefix p64
ab_bench serial,cmp,mega build build-p32 build-p64
step_shapes serial,cmp "build build-p64" "64 2 8192" "128 2 8192"
ab_shapes "build build-p32 build-p64" "1 1 1024" "16 2 65536" "64 2 8192"
ab_shapes "build build-da128" "128 2 8192" "128 2 8192"
probe_traces gp64
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
