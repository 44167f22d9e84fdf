#!/bin/bash
# Prepared at the end of session 41 (2026-12-02), not yet run: the first device run of the
# next session.
#  1. The committed tree built on the device with every check (tree_evidence: the GPU tests,
#     test_serial's digests, the sanitizers, the bench, the 12-shape sweep): session 41's last
#     code (the activation scales by cp.async at TN <= 64, the loads at TN 128) was measured
#     only as its two halves (runs 3-4 of RESULTS "Session 41").
#  2. Where a TN-128 tile's ~10 us from its input to K block 0 goes: the GEMM probe with
#     -DMRT_GEMM_PROBE_SX (gemm_fp8.cuh: "visible" = the activation loader's scales landed,
#     "weights issued" = K block 0 consumed), with the loads (build-sx) and with cp.async at
#     TN 128 too (build-sx128, -DMRT_GEMM_SX_ASYNC=128), at M=128 KV=1024 and M=16 KV=8192.
# Run: timeout 590 bash scripts/device-next.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant sx "-DMRT_GEMM_PROBE -DMRT_GEMM_PROBE_SX" megartp &
build_variant sx128 "-DMRT_GEMM_PROBE -DMRT_GEMM_PROBE_SX -DMRT_GEMM_SX_ASYNC=128" megartp &
final_builds
{
tree_evidence
for s in "128 2 1024" "16 2 8192"; do
    for b in sx sx128; do
        trace_phases_at build-$b $b "$s" "B0|B1|D1|D0" "input ready" visible "weights issued" "compute done"
    done
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
