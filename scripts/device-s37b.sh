#!/bin/bash
# Session 37 run 2 (2026-12-01): (1) the indexer's quantizations multiply by the power-of-two
# scale's exact inverse (numerics.h mrt_pow2_inv, 99e3b49, "fm": the same bits); (2) on top, E1's
# keys ahead (session 35's d24ccc4, measured then as an inlined form that spilled) with its
# state in static shared memory and the call in fp8 GEMM tiles only, after D1's row factors'
# warp 3. The tree (1 + 2) built here with every check (test_serial's digests must be
# bench/test_serial-digests.txt's), test_numerics_gpu; fm.tar (a git archive of 1 alone) built
# beside it; the A B of 31c0fdf's code (carry build-r1/megartp, built locally), 1, and 1 + 2,
# and the ops' phases in a trace of each at M=16.
# Run: timeout 590 bash scripts/device-s37b.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_tree fm 6 build/megartp &
build_variant num "" tests/gpu/test_numerics_gpu &
final_builds
wait
mkdir -p build-fm && cp /tmp/fm/build/megartp build-fm/
{
echo "builds $((SECONDS - t0)) s"
tree_checks
timeout 60 build-num/tests/gpu/test_numerics_gpu > "$O/test_numerics_gpu.log" 2>&1
echo "test_numerics_gpu rc=$? $(tail -1 "$O/test_numerics_gpu.log")"; grep FAIL "$O/test_numerics_gpu.log" | head -3
ab_shapes "build-r1 build-fm build" "16 2 8192" "16 2 8192" "1 1 8192" "64 2 8192" "128 2 8192" "16 2 65536"
ab_op_traces "build-r1 build-fm build" "16 2 8192"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
