#!/bin/bash
# Prepared at the end of session 42 (2026-12-02), not yet run: the first device run of the
# next session. The committed tree built on the device with every check (tree_evidence: the
# GPU tests, test_serial's digests against the record, the sanitizers, the bench, the 12-shape
# sweep, which session 42 did not run for the scales by TMA: its run 4 measured 5 shapes) and
# test_gemm_fp8; then where M=128 goes now: the GEMM probe with "visible" = the scales barrier
# complete (-DMRT_GEMM_PROBE -DMRT_GEMM_PROBE_SX: since session 42 the TMA box's completion)
# and -DMRT_MEGA_PROBE (k-loop done, store done) at M=128 KV=1024 and the target shape, and the
# default build's traces there (op table, critical path).
# Ran as session 43 run 1 (bench/RESULTS.md). Run: timeout 590 bash scripts/device-s43a.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant sx "-DMRT_GEMM_PROBE -DMRT_GEMM_PROBE_SX" megartp &
build_variant mp "-DMRT_MEGA_PROBE" megartp &
final_builds
build_or_exit build/tests/gpu/test_gemm_fp8 # after the others: one make a folder at a time
{
tree_evidence
gpu_tests 150 "test_gemm_fp8"
echo "t=$((SECONDS - t0)) s"
for s in "128 2 1024" "16 2 8192"; do
    trace_phases_at build-sx sx "$s" "B0|B1|D1|D0" "input ready" visible "weights issued" "compute done"
    trace_phases_at build-mp mp "$s" "B0|B1|D1|D0|D2" visible "weights issued" "input ready" "compute done"
    trace_phases_at build dflt "$s" "A0|B0|C0|B1|D1|D0|D2|E1|F1" "input ready" "compute done" published
    set -- $s
    sed -n "/^  op /,/critical path/p" "$O/trace-dflt-$1-$3.txt"
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
