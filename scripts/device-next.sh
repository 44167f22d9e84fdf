#!/bin/bash
# The next session's first device run (written 2026-11-29, end of session 7). Verifies what
# session 7 left compile-checked: 3211721 (the standalone E1 on 4 key buffers, variant 5, the
# megakernel's on 2; each configuration ran in session 7, not the combination) and variant 9
# (a CTA a token group; -DMRT_E1_GROUP_CTAS makes it the executors' E1). Then looks inside the
# wgmma E1's epilogue, which is most of its time (bench/RESULTS.md, session 7 run 4-6): its
# SASS and, where the device has Nsight Compute, its warp stall reasons. Last, the megakernel
# with its wgmma tiles (GEMM, E1) inlined (-DMRT_MEGA_WG_INLINE: no call to a function holding
# wgmma, so ptxas no longer serializes them (C7510), at ~1 KB more spill; mega_op.h), checked
# and A/B'd.
# Run: timeout 590 bash scripts/device-next.sh (later steps are skipped as the deadlines pass).
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant gc -DMRT_E1_GROUP_CTAS megartp &
build_variant inl -DMRT_MEGA_WG_INLINE megartp &
build_or_exit
wait
make -j16 BUILD=build-inl EXTRA_NVCCFLAGS=-DMRT_MEGA_WG_INLINE build-inl/tests/gpu/test_mega_prefix \
    > "$O/build-inl-tests.log" 2>&1 || echo "inl tests build FAILED"
echo "builds $((SECONDS - t0)) s"
{
gpu_tests 150 test_index_ops
grep -E " v(4|9):|FAIL" "$O/test_index_ops.log" | head -8
grep -E "TIME E1 (wgmma|f16 \(v0\) M=16 b=2 kv=8192 chunk=64)" "$O/test_index_ops.log" | cut -c1-150
gpu_tests 200 "test_serial --quick" test_mega_prefix
[ $((SECONDS - t0)) -lt 300 ] && sanitize memcheck 120 step build/tests/gpu/test_serial --sanitize
echo "t=$((SECONDS - t0)) s"
ab_bench serial,cmp,mega build build-gc
timeout 200 build-inl/tests/gpu/test_mega_prefix > "$O/inl-test_mega_prefix.log" 2>&1
echo "inl test_mega_prefix rc=$? $(tail -1 "$O/inl-test_mega_prefix.log")"
[ $((SECONDS - t0)) -lt 450 ] && ab_bench mega build build-inl
grep -E "^\| (E1|F1) " "$O"/bench-serial,cmp,mega-*.md
for b in build build-gc; do
    [ $((SECONDS - t0)) -gt 380 ] && break
    timeout 60 $b/megartp bench glm5-prefix --m 64 --batch 8 --kv 65536 --modes serial,mega --reps 40 > "$O/long-$b.md" 2>&1
    echo "long $b rc=$? $(grep -E '^\| (E1|F1) |step, |same-bytes' "$O/long-$b.md" | tr -s ' ' | cut -c1-90 | tr '\n' ' ')"
done
# all 20 shapes of the serial / cmp test (its length on the device is not recorded)
[ $((SECONDS - t0)) -lt 400 ] && gpu_tests 140 test_serial
# the E1 kernel's SASS (4 tokens a group, no stamps, 4 key buffers, full tile) for reading offline
cuobjdump -sass build/src/cuda/index_ops.o 2>/dev/null |
    awk '/Function : .*wg_kernelILi4ELb0ELi4ELi0E/{p=1} p{print} p&&/^[[:space:]]*\.\.\.\.\.\.\.\.\.\./{exit}' > "$O/e1-sass.txt"
echo "e1 sass: $(wc -l < "$O/e1-sass.txt") lines"
if command -v ncu > /dev/null && [ $((SECONDS - t0)) -lt 480 ]; then
    timeout 120 ncu --kernel-name regex:index_logits_wg --launch-skip 10 --launch-count 1 --section WarpStateStats \
        --section SchedulerStats --section Occupancy --section SourceCounters \
        build/megartp bench glm5-prefix --modes serial --reps 20 > "$O/ncu-e1.txt" 2>&1
    echo "ncu rc=$? $(grep -cE "Stall|stall" "$O/ncu-e1.txt") stall lines"
else
    echo "ncu: $(command -v ncu || echo not installed)"
fi
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
