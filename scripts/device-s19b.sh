#!/bin/bash
# Session 19 run 2 (2026-11-30): the K-block pipeline. Run 1 (scripts/device-next.sh) showed
# the GEMM consumers waiting for stages only 0.58 us of B0's 4.51 from K block 0 to the last
# (-DMRT_GEMM_PROBE_WAITS): the consumers' loop is the rate. -DMRT_GEMM_PIPE issues K block
# i+1's wgmmas into a second register tile before waiting for K block i's (TN <= 64), so the
# wgmma latency overlaps the promotion and the stage handoff. Desc-add is now the default.
#   pipe  = -DMRT_GEMM_PIPE=1 (standalone GEMMs: serial, cmp; the megakernel's called tiles,
#           where C7510 may serialize it);
#   inl   = -DMRT_MEGA_INLINE_GEMM=64 -DMRT_MEGA_INLINE_E1 (no call holds a wgmma at TN <= 64);
#   pipei = pipe + inl; gpp / gppi = the GEMM probe on pipe / pipei;
#   nda   = -DMRT_GEMM_DESC_ADD=0 (run 1's M=128 226.4 against 224.7 again).
# Run: timeout 570 bash scripts/device-s19b.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
INL="-DMRT_MEGA_INLINE_GEMM=64 -DMRT_MEGA_INLINE_E1"
build_variant pipe -DMRT_GEMM_PIPE=1 "megartp build-pipe/tests/gpu/test_gemm_fp8" &
build_variant inl "$INL" megartp &
build_variant pipei "-DMRT_GEMM_PIPE=1 $INL" "megartp build-pipei/tests/gpu/test_mega_prefix" &
build_variant gpp "-DMRT_GEMM_PROBE -DMRT_GEMM_PIPE=1" megartp &
build_variant gppi "-DMRT_GEMM_PROBE -DMRT_GEMM_PIPE=1 $INL" megartp &
build_variant nda -DMRT_GEMM_DESC_ADD=0 megartp &
build_or_exit build/megartp
wait
echo "builds $((SECONDS - t0)) s"
{
build_tests 120 test_gemm_fp8 pipe
build_tests 150 test_mega_prefix pipei
ab_bench serial,cmp,mega build build-pipe build-inl build-pipei
step_shapes serial,cmp "build build-pipe" "64 2 8192" "128 2 8192"
ab_shapes "build build-pipe build-inl build-pipei" "1 1 1024" "16 2 65536" "64 2 8192"
ab_shapes "build build-nda build-pipe" "128 2 8192" "128 2 8192"
probe_traces gpp gppi
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
