#!/bin/bash
# The next session's first device run (written 2026-11-30, end of session 12; compile-checked,
# the default build's PTX identical to the one measured in session 12 run 7).
# Session 12 ended at mega 96.7-97.5 us (roundrobin), 95.9-96.2 (critical-path), serial
# 76.6-77.5, cmp 54.3-55.6 (bench/RESULTS.md "Session 12"). Its GEMM probe and ncu: a
# megakernel GEMM tile spends ~0.5 us a K block in its consumers' k-loop with the data already
# in shared memory (two try_waits, four serialized QGMMA, an atomicExch progress word, ring
# state in local memory a K block). Two experiments on that loop, in every executor (the
# standalone GEMMs share it):
#   onefull = -DMRT_GEMM_ONE_FULL: one full barrier a stage for weights and activations
#             (arrival count 2, both loaders' expect_tx), so one wait a K block instead of two
#   plain   = -DMRT_GEMM_PROGRESS_PLAIN: the watchdog's progress words as volatile stores, not
#             shared-memory atomicExch (the watchdog reads them only to report)
#   both    = the two together
#   xpf     = -DMRT_GEMM_PREFETCH_X_EARLY: the activation's TMA descriptor prefetched before the
#             input wait (2.2-3.6 us from a tile's input to its first K block, session 12)
# (A B C D E, twice.) Tests (mega = serial bytes at 12 shapes; the standalone GEMMs), A B C D A B C D, the GEMM
# probe on the default and on onefull. If onefull is kept: compute-sanitizer of the
# reduced-size step in its flavour (a second run: mega_tiny_sanitize 90 build-san2o onefull,
# build-san2o = "-DMRT_SPIN_LIMIT_CYCLES=2000000000000LL -DMRT_A0_CLUSTER=1
# -DMRT_GEMM_NO_CLUSTER -DMRT_GEMM_ONE_FULL" tests/gpu/test_mega_prefix).
# Run: timeout 560 bash scripts/device-next.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
T="tests/gpu/test_mega_prefix build-onefull/tests/gpu/test_gemm_fp8 build-onefull/tests/gpu/test_serial"
build_variant onefull -DMRT_GEMM_ONE_FULL "megartp build-onefull/$T" &
build_variant plain -DMRT_GEMM_PROGRESS_PLAIN megartp &
build_variant both "-DMRT_GEMM_ONE_FULL -DMRT_GEMM_PROGRESS_PLAIN" "megartp build-both/tests/gpu/test_mega_prefix" &
build_variant xpf -DMRT_GEMM_PREFETCH_X_EARLY megartp &
build_variant gp -DMRT_GEMM_PROBE megartp &
build_variant gp1 "-DMRT_GEMM_PROBE -DMRT_GEMM_ONE_FULL" megartp &
build_or_exit build/megartp
wait
echo "builds $((SECONDS - t0)) s"
{
build_tests 120 test_mega_prefix onefull both
build_tests 100 "test_gemm_fp8 --quick" onefull
build_tests 60 "test_serial --quick" onefull
echo "t=$((SECONDS - t0)) s"
ab_bench serial,cmp,mega build build-onefull build-plain build-both build-xpf
cp_bench build build-onefull build-both
PH=("input ready" "weights issued" visible "compute done" published)
for b in gp gp1; do
    timeout 30 build-$b/megartp trace glm5-prefix --backend mega -o "$O/trace-$b.json" > "$O/trace-$b.txt" 2>&1
    echo "trace $b rc=$?"; python3 scripts/trace_phases.py "$O/trace-$b.json" "${PH[@]}" | grep -E 'op|B0|D1|D0|B1'
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
