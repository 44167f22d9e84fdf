#!/bin/bash
# Session 36 run 7 (2026-12-01): D1's row factors by the D1 tile's idle warp 3 during its
# k-loop (mega_gemm.cuh mrt_mega_iq_rfac; the default then, -DMRT_MEGA_IQ_RFAC since), read by
# the INDEX_Q finalization jobs instead of computed in each (0.8 us of a job on the M=16 chain,
# runs 5-6). The tree built here (with it on) with every
# check (test_mega_prefix, test_serial's digests, test_mega, test_index_ops, `megartp run`, the
# sanitizers, the bench), then the A B against 05740bb's code (carry build-q/megartp, built
# locally) and D1's finalization phases in a trace of each.
# Run: timeout 590 bash scripts/device-s36g.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
final_builds
{
echo "builds $((SECONDS - t0)) s"
tree_checks
ab_shapes "build-q build" "16 2 8192" "16 2 8192" "1 1 8192" "16 2 1024" "64 2 8192" "128 2 8192" "16 2 65536" \
    "16 2 8192"
ab_op_traces "build-q build" "16 2 8192"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
