#!/bin/bash
# Session 19 run 5 (2026-11-30): where the GEMM K block stands on the new default (desc-add at
# TN <= 64, the megakernel's K-block pipeline at TN <= 32), for the next session:
#   gp   = the GEMM probe (K block 0 -> last K block ready);
#   gpw  = the probe's K block 0 -> last as the consumers' time in the full waits
#          (-DMRT_GEMM_PROBE_WAITS): how much of the loop is still the consumers' own;
#   gpw0 = gpw issuing no wgmma (-DMRT_GEMM_DIAG_WGMMAS=0, results wrong): the stages' rate;
#   i32  = -DMRT_MEGA_INLINE_GEMM=32: the pipelined TN <= 32 tiles inlined (E1 still a call).
# Run: timeout 400 bash scripts/device-s19e.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant gp -DMRT_GEMM_PROBE megartp &
build_variant gpw "-DMRT_GEMM_PROBE -DMRT_GEMM_PROBE_WAITS" megartp &
build_variant gpw0 "-DMRT_GEMM_PROBE -DMRT_GEMM_PROBE_WAITS -DMRT_GEMM_DIAG_WGMMAS=0" megartp &
build_with i32 -DMRT_MEGA_INLINE_GEMM=32 megartp
wait
{
ab_shapes "build build-i32" "16 2 8192" "1 1 1024" "16 2 65536" "16 2 8192"
probe_traces gp gpw gpw0
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
