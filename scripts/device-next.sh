#!/bin/bash
# The next session's first device run (written 2026-11-30, end of session 11; compile-checked).
# Session 11 ended at mega 97.0-97.2 us (roundrobin), 95.7 (critical-path), serial 77.0-77.5,
# cmp 54.2-55.3 (bench/RESULTS.md "Session 11", run 5). Its trace: B0's QKV_A finalization
# 7.7 us from computed to published, on the critical path A0 -> B0 -> D1 -> E1 -> F1.
# Experiment: qkva64 (-DMRT_MEGA_QKVA_G64): QKV_A's q units finalized by 64-thread groups
# (two columns a thread; the block's fp64 sum of squares in the 128-thread order through
# mrt_grp_sum_f64_k, so the bytes cannot change): a unit's 16 row jobs in one round of its
# 4 members' 24 groups instead of two rounds of 12, as INDEX_Q's since session 11 run 5
# (D1: 11.4 -> 7.8 us). test_mega_prefix (mega = serial bytes, 8 shapes, both policies, 1000
# replays) of both builds, A B A B, traces, and compute-sanitizer of the reduced-size step in
# the qkva64 flavour of the build without cluster launches.
# Run: timeout 560 bash scripts/device-next.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant qkva64 -DMRT_MEGA_QKVA_G64 "megartp build-qkva64/tests/gpu/test_mega_prefix" &
build_variant san2q "-DMRT_SPIN_LIMIT_CYCLES=2000000000000LL -DMRT_A0_CLUSTER=1 -DMRT_GEMM_NO_CLUSTER -DMRT_MEGA_QKVA_G64" \
    tests/gpu/test_mega_prefix &
build_or_exit
wait
echo "builds $((SECONDS - t0)) s"
{
gpu_tests 150 test_mega_prefix test_mega "test_serial --quick" "test_gemm_fp8 --quick"
grep NoOp "$O/test_mega.log"
build_tests 150 test_mega_prefix qkva64
echo "t=$((SECONDS - t0)) s"
ab_bench serial,cmp,mega build build-qkva64
cp_bench build build-qkva64
mega_traces 420 build build-qkva64
echo "t=$((SECONDS - t0)) s"
for tool in memcheck racecheck synccheck; do
    left=$((550 - (SECONDS - t0)))
    [ $left -lt 30 ] && break
    sanitize $tool $((left < 90 ? left : 90)) mega-tiny-qkva64 build-san2q/tests/gpu/test_mega_prefix --tiny
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
