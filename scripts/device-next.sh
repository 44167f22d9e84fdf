#!/bin/bash
# The next session's first device run (written 2026-11-29, end of session 8). 0) F1 variant 9
# (variant 8 with its indices staged in shared memory, stored as whole rows) and variant 8's
# 16-keys-a-thread form (kv 8193 .. 16384): test_index_ops checks both against the exact
# reference and times them (compile-checked: if variant 9 is right and faster, it becomes the
# executors' F1). 1) An A/B of
# the Q_B finalization with 8 heads a CTA (-DMRT_QB_FIN_HEADS=8: cmp's D0 finalization as 128
# CTAs instead of 1024, so E1's and F1's CTAs find SMs; compile-checked). 2) Why do the small
# kernels take 5-6 us (A0: 0.9 MB, 16 CTAs, 4.5 us from its input to its end in the trace;
# F1 with its keys in registers: 5.8 us even with nothing to select)? Nsight Compute's stall
# samples per SASS instruction (--page source) and its stall-reason tables (--print-details
# all) for A0, F1, B0's GEMM and a finalization kernel. 3) The megakernel's trace, to see where
# its 150 us go now.
# Run: timeout 590 bash scripts/device-next.sh (later steps are skipped as the deadlines pass).
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant qb8 -DMRT_QB_FIN_HEADS=8 megartp &
build_or_exit
wait
make -j16 BUILD=build-qb8 EXTRA_NVCCFLAGS=-DMRT_QB_FIN_HEADS=8 build-qb8/tests/gpu/test_serial > "$O/build-qb8-tests.log" 2>&1 ||
    echo "qb8 tests build FAILED"
echo "builds $((SECONDS - t0)) s"
{
gpu_tests 200 test_index_ops
grep -E "TIME F1 (registers|1 CTA x 1024)" "$O/test_index_ops.log" | cut -c1-150
gpu_tests 150 "test_serial --quick" test_mega_prefix
timeout 100 build-qb8/tests/gpu/test_serial --quick > "$O/qb8-test_serial.log" 2>&1
echo "qb8 test_serial --quick rc=$? $(tail -1 "$O/qb8-test_serial.log")"
ab_bench serial,cmp build build-qb8
for b in build build-qb8; do
    timeout 40 $b/megartp trace glm5-prefix --backend cmp -o "$O/trace-cmp-$b.json" > "$O/trace-cmp-$b.txt" 2>&1
    echo "trace cmp $b rc=$?"; sed -n 4,14p "$O/trace-cmp-$b.txt"
done
echo "t=$((SECONDS - t0)) s"
# one kernel each: regex, file name
for k in "mrt_a0_kernel a0" "mrt_topk_reg_kernel f1" "mrt_gemm_kernel gemm-b0" "mrt_epi_kernel epi-b0"; do
    set -- $k
    [ $((SECONDS - t0)) -gt 420 ] && break
    timeout 60 ncu --kernel-name regex:"$1" --launch-count 1 --clock-control none --section SourceCounters \
        --section WarpStateStats --page source --print-source sass --csv \
        build/megartp run glm5-prefix --backend serial > "$O/ncu-$2-sass.csv" 2> "$O/ncu-$2.err"
    timeout 60 ncu --kernel-name regex:"$1" --launch-count 1 --clock-control none --section SourceCounters \
        --section WarpStateStats --section SpeedOfLight --section MemoryWorkloadAnalysis --print-details all \
        build/megartp run glm5-prefix --backend serial > "$O/ncu-$2-details.txt" 2>> "$O/ncu-$2.err"
    echo "ncu $2: $(wc -l < "$O/ncu-$2-sass.csv") sass lines, $(grep -c . "$O/ncu-$2-details.txt") detail lines"
done
[ $((SECONDS - t0)) -lt 500 ] && timeout 60 build/megartp trace glm5-prefix --backend mega -o "$O/trace-mega.json" > "$O/trace-mega.txt" 2>&1 &&
    sed -n 1,30p "$O/trace-mega.txt"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
