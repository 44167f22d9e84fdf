#!/bin/bash
# The next session's second device run (written 2026-11-30, end of session 18): inlining.
# Session 18 run 6 inlined every wgmma-holding tile into the kernel body (no C7510): M=16
# KV=8192 -2 us, M=1 KV=1024 -2.5, but KV=65536 +4.6, M=128 +5.6; run 7 inlined the GEMM tiles
# alone at TN <= 32: level at M=16. Prepared (default PTX identical):
#   ie   = -DMRT_MEGA_INLINE_E1: the wgmma E1 tile inlined alone (is run 6's gain and loss E1's?);
#   inl  = -DMRT_MEGA_INLINE_GEMM=32 -DMRT_MEGA_INLINE_E1: run 6 at TN <= 32 only;
#   inl4 = inl + -DMRT_GEMM_ACC_CHAINS=4: four independent accumulators a K block where
#          nothing serializes them.
# (If device-next.sh took -DMRT_GEMM_DESC_ADD or the chains, add them to every build here.)
# Run: timeout 570 bash scripts/device-next2.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant ie -DMRT_MEGA_INLINE_E1 megartp &
build_variant inl "-DMRT_MEGA_INLINE_GEMM=32 -DMRT_MEGA_INLINE_E1" megartp &
build_variant inl4 "-DMRT_MEGA_INLINE_GEMM=32 -DMRT_MEGA_INLINE_E1 -DMRT_GEMM_ACC_CHAINS=4" \
    "megartp build-inl4/tests/gpu/test_mega_prefix" &
build_or_exit build/megartp
wait
echo "builds $((SECONDS - t0)) s"
{
ab_shapes "build build-ie build-inl build-inl4" "16 2 8192" "1 1 1024" "16 2 65536" "16 2 8192"
build_tests 150 test_mega_prefix inl4
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
