#!/bin/bash
# Session 36 run 2 (2026-12-01): run 1's quotients without the GEMM tile's scale gather (its
# float-reciprocal form made ptxas spill more in the fp8 GEMM tile and, oddly, F1's function:
# TN-16 tile 32 / 32 -> 108 / 44 bytes of spill stores / loads; nvcc's division there is by a
# loop invariant): the cache writers' slots, the finalizations' heads and jobs, Q_B's fused
# store. Spills as 0162b3e's or fewer in every function (ptxas -v). Against 0162b3e's device
# code (build-base); digests at four shapes, the A B at eleven, traces at M=16 and M=64.
# Nothing is built here: carry build/megartp and build-base/megartp (local, sm_90a).
# Run: timeout 420 bash scripts/device-s36b.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
{
run_digests "16 2 8192" "128 2 1024" "16 2 65536" "1 1 8192"
ab_shapes "build-base build" "16 2 8192" "16 2 8192" "1 1 8192" "16 2 1024" "64 2 8192" "128 2 1024" "16 2 65536" \
    "128 2 8192" "1 1 65536" "64 2 1024" "32 2 8192" "16 2 8192"
ab_op_traces "build-base build" "16 2 8192" "64 2 8192"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
