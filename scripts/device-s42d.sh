#!/bin/bash
# Session 42 run 3 (2026-12-02): an fp8 GEMM tile's activation scales by one TMA box
# (gemm_core.cuh mrt_gemm_load_sx, mrt_gemm_sx_map; m-major in shared memory, the promotion
# reads them there). Run 2's probe (device-s42c.sh): a TN-128 tile's gather took 7.2-8.7 us
# from its input to its scales landed (D0 at M=128), ~1.5 at M=16. Built here: the tree (every
# check: the GPU tests and test_gemm_fp8, test_serial's digests against the record, the
# sanitizers on the reduced step, the bench) and build-gather/ (-DMRT_GEMM_SX_TMA=0: every tile
# gathers, as before, in the new layout); A B: the 12 shapes from each, serial at M=128 KV=1024
# and M=16 KV=8192, the sx probe at M=128 KV=1024, traces at the target shape.
# Run: timeout 590 bash scripts/device-s42d.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant gather "-DMRT_GEMM_SX_TMA=0" megartp &
build_variant sx "-DMRT_GEMM_PROBE -DMRT_GEMM_PROBE_SX" megartp &
final_builds
build_or_exit build/tests/gpu/test_gemm_fp8
{
echo "builds $((SECONDS - t0)) s"
gpu_checks bench/test_serial-digests.txt "test_mega_prefix" "test_serial" "test_mega" "test_gemm_fp8"
mega_tiny_sanitize 100 build-san final
timeout 60 build/megartp bench glm5-prefix > "$O/bench.md" 2>&1
echo "bench rc=$?"; grep -E "step, |same-bytes" "$O/bench.md" | tr -s ' ' | cut -c1-110
echo "t=$((SECONDS - t0)) s"
mega_sweep build tma
mega_sweep build-gather gather
step_shapes serial "build-gather build" "128 2 1024" "16 2 8192"
echo "t=$((SECONDS - t0)) s"
trace_phases_at build-sx sx "128 2 1024" "B0|B1|D1|D0" "input ready" visible "weights issued" "compute done"
ab_traces "build-gather build" "16 2 8192"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
