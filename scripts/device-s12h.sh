#!/bin/bash
# Ran at cd4cd10 (bench/RESULTS.md, session 12); -DMRT_MBAR_WAIT_INLINE is gone from the code since.
# Session 12, run 8 (the session's last ~4.5 device minutes): the full-barrier wait's spin out of
# line (mrt_mbar_wait_full_slow, a call only when the stage is not ready), so the consumers'
# k-loop keeps fewer registers live (fp8 tile at TN 16: spill stores 88 -> 60 bytes, loads 276
# -> 216). Old form: -DMRT_MBAR_WAIT_INLINE. A B A B, then the new default's tests.
# Run: timeout 240 bash scripts/device-s12h.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant old -DMRT_MBAR_WAIT_INLINE megartp &
build_or_exit build/megartp build/tests/gpu/test_mega_prefix build/tests/gpu/test_serial build/tests/gpu/test_gemm_fp8
wait
echo "builds $((SECONDS - t0)) s"
{
ab_bench serial,cmp,mega build build-old
echo "t=$((SECONDS - t0)) s"
gpu_tests 100 test_mega_prefix "test_serial --quick" "test_gemm_fp8 --quick"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
