#!/bin/bash
# Session 37 run 1 (2026-12-01): D1's row factors by the D1 tile's warp 3 as a __noinline__
# call (mega_gemm.cuh mrt_mega_iq_row_factors; session 36 run 8's -DMRT_MEGA_IQ_RFAC=2) made
# the default. The tree built here with every check (test_mega_prefix, test_serial's digests,
# test_mega, test_index_ops, `megartp run`, the sanitizers, the bench, the tuned sweep), then
# the A B against the code before it (05740bb = -DMRT_MEGA_IQ_RFAC=0's PTX, mega.cu 35283ff1;
# carry build-q/megartp, built locally) and the ops' phases in a trace of each at M=16.
# Run: timeout 590 bash scripts/device-s37a.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
final_builds
{
tree_evidence
ab_shapes "build-q build" "16 2 8192" "16 2 8192" "1 1 8192" "64 2 8192" "128 2 8192" "16 2 65536"
ab_op_traces "build-q build" "16 2 8192"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
