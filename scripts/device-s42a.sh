#!/bin/bash
# Session 42 run 1 (2026-12-02; prepared at the end of session 41): the first device run of the
# next session. The committed tree built on the device with every check (tree_evidence: the
# GPU tests, test_serial's digests against the record, the sanitizers, the bench, the 12-shape
# sweep): session 41's last device code (the activation scales by cp.async at TN <= 64, the
# loads at TN 128) was measured only as its two halves (runs 3-4 of RESULTS "Session 41"), and
# test_gemm_fp8 (the standalone GEMMs share the gather). Then D0's ring at 4 (the default), 6
# and 8 stages by environment at at_ab_shapes' five shapes: session 41 run 4's trace has the
# target shape's D0 -> D2 branch 3 us behind the chain again (D2 done 58.4, F1 55.4), and a
# D0 tile (16 K blocks) streams at ~0.57 us a K block with 4 stages in flight (session 32 run 5
# measured D0 at 3, 5, 6 level when the chain led). Then scripts/device-s42c.sh (the GEMM
# probes at M=128) and device-s42b.sh (the refitted cost model).
# Run: timeout 590 bash scripts/device-s42a.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
final_builds
build_or_exit build/tests/gpu/test_gemm_fp8 # after the others: one make a folder at a time
d0_stages() {
    local st
    for st in 4 6 8; do MRT_MEGA_STAGES=D0=$st mega_at build d0st$st "$1"; done
}
{
tree_evidence
gpu_tests 150 "test_gemm_fp8"
echo "t=$((SECONDS - t0)) s"
at_ab_shapes d0_stages
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
