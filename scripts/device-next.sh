#!/bin/bash
# The next session's first device run (written 2026-11-30, end of session 13; compile-checked,
# the default build's PTX identical to session 13 run 3's for mega.cu, prefix_ops.cu and
# gemm_fp8_standalone.cu). Session 13 ended at mega 95.0-95.8 us roundrobin, 94.3-94.7
# critical-path, serial 74.0-74.4, cmp 52.3-52.8 (bench/RESULTS.md "Session 13").
# By scripts/pool_sim.py on session 13's trace the step follows a D0 tile's length ~1:1
# (docs/POOLS.md), and B0's and D1's finalizations are 8 us each on the critical path.
# Three experiments, each against the default:
#   ess = -DMRT_EPI_SUM_SMEM: a finalization job keeps its split sums in shared memory and its
#         epilogue reads them there, not read back from global memory (megakernel and the
#         standalone epilogue kernel; gemm_fp8_epilogues.cuh)
#   qbp = -DMRT_MEGA_QB_PREP: a D0 tile's fused Q_B store gets its rows' fold factors and RoPE
#         rows from shared memory, read by the idle warp 3 during the k-loop (TN <= 32; the
#         store took 4.4 us after the last K block against ~3 for a plain one)
#   evc = -DMRT_MEGA_EVCACHE: a CTA remembers the event counts it has seen, so a D0 tile
#         (whose event its worker's D1 tile already waited on) skips the poll and the acquire
#         fence (D0's weights issued -> input ready: 2.3-2.7 us with the input long ready)
# test_mega_prefix (52 checks: since session 13 also a --split/--place plan) on all four,
# A B C D twice, critical-path, traces. The winners' compute-sanitizer run and the placement
# sweep are scripts/device-next2.sh.
# Run: timeout 570 bash scripts/device-next.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant ess -DMRT_EPI_SUM_SMEM "megartp build-ess/tests/gpu/test_mega_prefix build-ess/tests/gpu/test_serial" &
build_variant qbp -DMRT_MEGA_QB_PREP "megartp build-qbp/tests/gpu/test_mega_prefix" &
build_variant evc -DMRT_MEGA_EVCACHE "megartp build-evc/tests/gpu/test_mega_prefix" &
build_or_exit build/megartp build/tests/gpu/test_mega_prefix
wait
echo "builds $((SECONDS - t0)) s"
{
gpu_tests 120 test_mega_prefix
build_tests 120 test_mega_prefix ess qbp evc
build_tests 60 "test_serial --quick" ess
echo "t=$((SECONDS - t0)) s"
ab_bench serial,cmp,mega build build-ess build-qbp build-evc
cp_bench build build-ess build-qbp build-evc
mega_traces 550 build build-ess build-qbp build-evc
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
