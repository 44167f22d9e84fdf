#!/bin/bash
# Prepared at the end of session 41 (2026-12-02), not yet run: the first device run of the
# next session. The committed tree built on the device with every check (tree_evidence: the
# GPU tests, test_serial's digests against the record, the sanitizers, the bench, the 12-shape
# sweep): session 41's last device code (the activation scales by cp.async at TN <= 64, the
# loads at TN 128) was measured only as its two halves (runs 3-4 of RESULTS "Session 41"), and
# test_gemm_fp8 (the standalone GEMMs share the gather). Then scripts/device-next2.sh (the
# GEMM probes at M=128).
# Run: timeout 590 bash scripts/device-next.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
final_builds
build_or_exit build/tests/gpu/test_gemm_fp8 # after the others: one make a folder at a time
{
tree_evidence
gpu_tests 150 "test_gemm_fp8"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
