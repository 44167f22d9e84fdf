#!/bin/bash
# Session 14, run 5 (written 2026-11-30): sxf = -DMRT_GEMM_SX_FIRST (every executor's GEMM
# activation loader loads the scales' gather before issuing the activation TMAs, so the two
# round trips overlap: input -> K block 0 ready is 2.2-3.6 us in B0 and D1, both on the
# megakernel's critical path). Its tests (test_gemm_fp8 --quick, test_serial --quick,
# test_mega_prefix), A B twice, critical-path, traces.
# Run: timeout 420 bash scripts/device-s14e.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant sxf -DMRT_GEMM_SX_FIRST "megartp build-sxf/tests/gpu/test_mega_prefix build-sxf/tests/gpu/test_serial build-sxf/tests/gpu/test_gemm_fp8" &
build_or_exit build/megartp
wait
echo "builds $((SECONDS - t0)) s"
{
build_tests 120 test_mega_prefix sxf
build_tests 60 "test_serial --quick" sxf
build_tests 90 "test_gemm_fp8 --quick" sxf
echo "t=$((SECONDS - t0)) s"
ab_bench serial,cmp,mega build build-sxf
cp_bench build build-sxf
mega_traces 380 build build-sxf
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
