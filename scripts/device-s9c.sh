#!/bin/bash
# Session 9, run 3: the defaults taken from runs 1-2 (F1 variant 9 up to kv 16384, A0 on a
# cluster of 4 CTAs a row) and two new ones, each against a build without it, A B A B:
#  - B0 leaves its smaller siblings C0 and B1 their workers (plan.c share_workers: B0 21 x 4
#    = 84 tasks instead of 21 x 6 = 126); nsw = -DMRT_SHARE_WORKERS=0 (C flags)
#  - FP8 GEMM consumers keep one K block's wgmma group in flight while the previous block is
#    promoted (gemm_fp8.cuh, TN <= 64); kbs = -DMRT_FP8_KB_SERIAL
#  - a08 = A0 on clusters of 8 CTAs (-DMRT_A0_CLUSTER=8)
# Tests first: test_gemm_fp8 (the pipelined k-loop at every shape), test_serial --quick,
# test_mega_prefix, test_mega. Run: timeout 580 bash scripts/device-s9c.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant kbs -DMRT_FP8_KB_SERIAL megartp &
build_variant a08 -DMRT_A0_CLUSTER=8 megartp &
make -j16 BUILD=build-nsw EXTRA_CFLAGS=-DMRT_SHARE_WORKERS=0 build-nsw/megartp > "$O/build-nsw.log" 2>&1 || echo "nsw build FAILED" &
build_or_exit
wait
echo "builds $((SECONDS - t0)) s"
{
gpu_tests 150 test_gemm_fp8 "test_serial --quick" test_mega_prefix test_mega
echo "t=$((SECONDS - t0)) s"
for b in build build-kbs; do
    timeout 60 $b/megartp bench gemm --m 16 > "$O/gemm-$b.md" 2>&1
    echo "bench gemm $b rc=$?"; grep -E "^\| (B0|D0|D1|B1) " "$O/gemm-$b.md" | cut -c1-120
done
ab_bench serial,cmp build build-kbs build-nsw build-a08
echo "t=$((SECONDS - t0)) s"
[ $((SECONDS - t0)) -lt 470 ] && ab_bench mega build build-nsw
[ $((SECONDS - t0)) -lt 530 ] && timeout 40 build/megartp trace glm5-prefix --backend mega -o "$O/trace-mega.json" > "$O/trace-mega.txt" 2>&1 &&
    sed -n 4,16p "$O/trace-mega.txt"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
