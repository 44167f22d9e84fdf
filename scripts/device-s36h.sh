#!/bin/bash
# Session 36 run 8 (2026-12-01): run 7's D1 row factors with warp 3's part as a __noinline__
# call (-DMRT_MEGA_IQ_RFAC=2: the GEMM tile function's own code as before around it), against
# 05740bb's code: does B0's tile still slow down? The A B at six shapes, traces at M=16.
# Nothing is built here: carry build-q/megartp and build-rf2/megartp (local, sm_90a).
# Run: timeout 200 bash scripts/device-s36h.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
{
ab_shapes "build-q build-rf2" "16 2 8192" "16 2 8192" "1 1 8192" "64 2 8192" "128 2 8192" "16 2 65536" "16 2 8192"
ab_op_traces "build-q build-rf2" "16 2 8192"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
