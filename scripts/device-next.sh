#!/bin/bash
# The next session's first device run (written 2026-11-30, end of session 18): the GEMM
# k-loop. Session 18 ended at mega 82.5-83.1 us (M=16 KV=8192, roundrobin), serial 73.1-73.2,
# cmp 51.2 (bench/RESULTS.md "Session 18"). Its probe runs split a K block (~0.4 us in every
# GEMM) into ~0.2 us of four dependent wgmmas (serialized by ptxas or not) and ~0.2 us
# without any wgmma, with the operands long in shared memory too. Prepared (default PTX
# identical), standalone GEMMs (serial, cmp) and megakernel alike:
#   da   = -DMRT_GEMM_DESC_ADD: every wgmma loop's descriptors (fp8, bf16, E1) made once a
#          stage plus offsets instead of each from its address (in the TN-16 fp8 loop ~40
#          dependent instructions of ~120 in SASS);
#   ac4  = -DMRT_GEMM_ACC_CHAINS=4: a K block's four wgmmas into four independent
#          accumulators (TN <= 32; in the megakernel ptxas's C7510 still serializes them);
#   gp / gpda / pw = the GEMM probe on the default / on da / with -DMRT_GEMM_PROBE_WAITS
#          (K block 0 -> last as the consumers' time in the full waits).
# serial / cmp / mega A B C, the megakernel at the other shapes, the probe traces, the byte
# tests of da (fp8, bf16, E1, the megakernel) and ac4. scripts/device-next2.sh: inlining.
# Run: timeout 570 bash scripts/device-next.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
T=build-da/tests/gpu
build_variant da -DMRT_GEMM_DESC_ADD \
    "megartp $T/test_gemm_fp8 $T/test_gemm_bf16 $T/test_index_ops $T/test_mega_prefix" &
build_variant ac4 -DMRT_GEMM_ACC_CHAINS=4 "megartp build-ac4/tests/gpu/test_gemm_fp8" &
build_variant gp -DMRT_GEMM_PROBE megartp &
build_variant gpda "-DMRT_GEMM_PROBE -DMRT_GEMM_DESC_ADD" megartp &
build_variant pw "-DMRT_GEMM_PROBE -DMRT_GEMM_PROBE_WAITS" megartp &
build_or_exit build/megartp
wait
echo "builds $((SECONDS - t0)) s"
{
ab_bench serial,cmp,mega build build-da build-ac4
ab_shapes "build build-da" "1 1 1024" "16 2 65536" "64 2 8192" "128 2 8192"
probe_traces gp gpda pw
build_tests 120 test_gemm_fp8 da ac4
build_tests 150 test_mega_prefix da
build_tests 90 test_gemm_bf16 da
build_tests 120 test_index_ops da
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
