#!/bin/bash
# The next session's second device run (written 2026-11-29, end of session 8). First A0 as a
# cluster of 4 CTAs a row (-DMRT_A0_CLUSTER=4, compile-checked: the row's groups over 4 SMs,
# group sums through distributed shared memory, the same sum order): mega = serial bytes
# (test_mega_prefix in that build), cmp = serial, A B A B. Then: why do the
# small kernels take 4-6 us (A0: 0.9 MB, 16 CTAs, 4.5 us from its input to its end in the
# trace; F1 5.8 us even with nothing to select; the finalization kernels 2-3 us)? Nsight
# Compute's stall samples per SASS instruction (--page source) and its stall-reason tables
# (--print-details all) for A0, F1, B0's GEMM and its finalization, one kernel each from one
# serial step (cold caches); then the megakernel's trace, to see where its ~150 us go now.
# Run: timeout 590 bash scripts/device-next2.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant a0c -DMRT_A0_CLUSTER=4 megartp &
build_or_exit
wait
make -j16 BUILD=build-a0c EXTRA_NVCCFLAGS=-DMRT_A0_CLUSTER=4 build-a0c/tests/gpu/test_mega_prefix build-a0c/tests/gpu/test_serial \
    > "$O/build-a0c-tests.log" 2>&1 || echo "a0c tests build FAILED"
echo "builds $((SECONDS - t0)) s"
{
for t in "test_mega_prefix" "test_serial --quick"; do
    timeout 100 build-a0c/tests/gpu/$t > "$O/a0c-${t%% *}.log" 2>&1
    echo "a0c $t rc=$? $(tail -1 "$O/a0c-${t%% *}.log")"
done
ab_bench serial,cmp build build-a0c
grep -E "^\| A0 " "$O"/bench-serial,cmp-*.md
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
