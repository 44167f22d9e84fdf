#!/bin/bash
# The next session's first device run (written 2026-11-30, end of session 18). Session 18 ended
# at mega 82.5-83.1 us (M=16 KV=8192, roundrobin; the opaque words offset at TN <= 64 taken),
# serial 73.1-73.2, cmp 51.2 (bench/RESULTS.md "Session 18"). Its probe runs split a GEMM K
# block (~0.4 us) into ~0.2 us of four dependent wgmmas (serialized or not: inlining without
# C7510 moved it little) and ~0.2 us without any wgmma; inlining every wgmma tile gained 2 us
# at M=16 KV=8192 and lost 4.6 at KV=65536, 5.6 at M=128. Prepared (default PTX identical):
#   ac4  = -DMRT_GEMM_ACC_CHAINS=4: a K block's four wgmmas into four independent accumulators
#          (standalone GEMM and megakernel; the megakernel's C7510 still serializes them);
#   ie   = -DMRT_MEGA_INLINE_E1: the wgmma E1 tile inlined alone (which half of run 6's gain
#          and loss is E1's);
#   inl  = -DMRT_MEGA_INLINE_GEMM=32 -DMRT_MEGA_INLINE_E1: run 6's inlining at TN <= 32 only
#          (no C7510 in the TN 8 / 16 / 32 kernels);
#   inl4 = inl + ac4: the four chains where nothing serializes them;
#   pw   = -DMRT_GEMM_PROBE -DMRT_GEMM_PROBE_WAITS beside gp = -DMRT_GEMM_PROBE: the probe's
#          K block 0 -> last as the consumers' time in the full waits against all of it.
# serial / cmp / mega A B for ac4 (standalone GEMMs change too), the megakernel A B C D at the
# shapes that moved, the byte tests of ac4 and inl4.
# Run: timeout 570 bash scripts/device-next.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant ac4 -DMRT_GEMM_ACC_CHAINS=4 \
    "megartp build-ac4/tests/gpu/test_mega_prefix build-ac4/tests/gpu/test_gemm_fp8" &
build_variant ie -DMRT_MEGA_INLINE_E1 megartp &
build_variant inl "-DMRT_MEGA_INLINE_GEMM=32 -DMRT_MEGA_INLINE_E1" megartp &
build_variant inl4 "-DMRT_MEGA_INLINE_GEMM=32 -DMRT_MEGA_INLINE_E1 -DMRT_GEMM_ACC_CHAINS=4" \
    "megartp build-inl4/tests/gpu/test_mega_prefix" &
build_variant gp -DMRT_GEMM_PROBE megartp &
build_variant pw "-DMRT_GEMM_PROBE -DMRT_GEMM_PROBE_WAITS" megartp &
build_or_exit build/megartp
wait
echo "builds $((SECONDS - t0)) s"
{
ab_bench serial,cmp,mega build build-ac4
ab_shapes "build build-ie build-inl build-inl4" "16 2 8192" "1 1 1024" "16 2 65536" "16 2 8192"
probe_traces gp pw
build_tests 120 test_gemm_fp8 ac4
build_tests 150 test_mega_prefix ac4 inl4
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
