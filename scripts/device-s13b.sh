#!/bin/bash
# Session 13 run 2 (2026-11-30). Run 1 (device-next.sh at 97860f7): onefull + plain ("both")
# took serial 77.3-77.6 -> 74.1-74.3, cmp 54.5-54.8 -> 52.4, mega 96.5-96.7 -> 95.0-95.6 (rr),
# 95.3 -> 94.6 (cp). This run, everything on top of "both":
#   both    = -DMRT_GEMM_ONE_FULL -DMRT_GEMM_PROGRESS_PLAIN (again, as the reference)
#   bothbc  = both + -DMRT_MEGA_BODY_CALLS (A0's row, the finalization job as calls)
#   bothbci = bothbc + -DMRT_MEGA_INLINE_WG (the wgmma tiles inlined: no C7510)
#   san     = both in the sanitizer flavour (no cluster launches, long spin limit)
# Tests: test_gemm_fp8 --quick, test_serial --quick on both; test_mega_prefix on the three;
# compute-sanitizer memcheck/racecheck/synccheck of test_mega_prefix --tiny on san; A B C twice,
# critical-path, traces.
# Run: timeout 570 bash scripts/device-s13b.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
B="-DMRT_GEMM_ONE_FULL -DMRT_GEMM_PROGRESS_PLAIN"
build_variant both "$B" "megartp build-both/tests/gpu/test_mega_prefix build-both/tests/gpu/test_gemm_fp8 build-both/tests/gpu/test_serial" &
build_variant bothbc "$B -DMRT_MEGA_BODY_CALLS" "megartp build-bothbc/tests/gpu/test_mega_prefix" &
build_variant bothbci "$B -DMRT_MEGA_BODY_CALLS -DMRT_MEGA_INLINE_WG" "megartp build-bothbci/tests/gpu/test_mega_prefix" &
build_variant san "-DMRT_SPIN_LIMIT_CYCLES=2000000000000LL -DMRT_A0_CLUSTER=1 -DMRT_GEMM_NO_CLUSTER $B" tests/gpu/test_mega_prefix &
wait
echo "builds $((SECONDS - t0)) s"
{
build_tests 120 test_mega_prefix both bothbc bothbci
build_tests 100 "test_gemm_fp8 --quick" both
build_tests 60 "test_serial --quick" both
echo "t=$((SECONDS - t0)) s"
ab_bench serial,cmp,mega build-both build-bothbc build-bothbci
cp_bench build-both build-bothbc build-bothbci
echo "t=$((SECONDS - t0)) s"
mega_traces 400 build-both build-bothbc build-bothbci
echo "t=$((SECONDS - t0)) s"
mega_tiny_sanitize 90 build-san both
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
