#!/bin/bash
# The next session's first device run (written 2026-11-29, end of session 8; all of it
# compile-checked only):
# 0) F1 variant 9 (variant 8 with its indices staged in shared memory, stored as whole rows)
#    and variant 8's 16-keys-a-thread form (kv 8193 .. 16384): test_index_ops checks both
#    against the exact reference and times them. If variant 9 is right and faster, it becomes
#    the executors' F1 (index_ops.cu mrt_gpu_topk).
# 1) cmp with the Q_B finalization at 8 heads a CTA (-DMRT_QB_FIN_HEADS=8: 128 CTAs instead
#    of 1024, so E1's and F1's CTAs find SMs beside it), A B A B, with the cmp traces.
# 2) the megakernel's F1 with its rows' keys in registers (-DMRT_MEGA_TOPK_REG), checked
#    (mega = serial bytes) and A B A B.
# Then scripts/device-next2.sh (Nsight Compute per instruction, the megakernel's trace).
# Run: timeout 590 bash scripts/device-next.sh (later steps are skipped as the deadlines pass).
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant qb8 -DMRT_QB_FIN_HEADS=8 megartp &
build_variant mtk -DMRT_MEGA_TOPK_REG megartp &
build_or_exit
wait
make -j16 BUILD=build-qb8 EXTRA_NVCCFLAGS=-DMRT_QB_FIN_HEADS=8 build-qb8/tests/gpu/test_serial > "$O/build-qb8-tests.log" 2>&1 ||
    echo "qb8 tests build FAILED"
make -j16 BUILD=build-mtk EXTRA_NVCCFLAGS=-DMRT_MEGA_TOPK_REG build-mtk/tests/gpu/test_mega_prefix > "$O/build-mtk-tests.log" 2>&1 ||
    echo "mtk tests build FAILED"
echo "builds $((SECONDS - t0)) s"
{
gpu_tests 200 test_index_ops
grep -E "FAIL" "$O/test_index_ops.log" | head -5
grep -E "TIME F1 (registers|1 CTA x 1024)" "$O/test_index_ops.log" | cut -c1-150
gpu_tests 150 "test_serial --quick" test_mega_prefix
timeout 100 build-qb8/tests/gpu/test_serial --quick > "$O/qb8-test_serial.log" 2>&1
echo "qb8 test_serial --quick rc=$? $(tail -1 "$O/qb8-test_serial.log")"
timeout 100 build-mtk/tests/gpu/test_mega_prefix > "$O/mtk-test_mega_prefix.log" 2>&1
echo "mtk test_mega_prefix rc=$? $(tail -1 "$O/mtk-test_mega_prefix.log")"
echo "t=$((SECONDS - t0)) s"
ab_bench serial,cmp build build-qb8
for b in build build-qb8; do
    [ $((SECONDS - t0)) -gt 400 ] && break
    timeout 40 $b/megartp trace glm5-prefix --backend cmp -o "$O/trace-cmp-$b.json" > "$O/trace-cmp-$b.txt" 2>&1
    echo "trace cmp $b rc=$?"; sed -n 4,14p "$O/trace-cmp-$b.txt"
done
[ $((SECONDS - t0)) -lt 440 ] && ab_bench mega build build-mtk
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
