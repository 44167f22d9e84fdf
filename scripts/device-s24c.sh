#!/bin/bash
# Session 24 run 3 (2026-11-30): E1 keys first, second form (every pass's block-table lookups
# in flight at once before the copies: run 2's form issued them a pass at a time, two round
# trips of ~2.5 us before the wait, and lost 1.8 us at M=16 KV=8192) against keys first off
# (build-kf0/) at the 12 shapes, and traces of both at M=16 KV=8192; then Nsight Compute's
# stall samples of the step (M=16 KV=8192, the default plan) by function and by source line
# of E1, F1 and the finalizations, for what the chain's instructions still wait on.
# Run: timeout 590 bash scripts/device-s24c.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant kf0 -DMRT_MEGA_E1_KEYS_FIRST=0 megartp &
build_or_exit build/megartp
wait
{
echo "builds $((SECONDS - t0)) s"
for sh in "16 2 8192" "1 1 1024" "1 1 8192" "1 1 65536" "16 2 1024" "16 2 65536" "64 2 1024" "64 2 8192" \
    "64 2 65536" "128 2 1024" "128 2 8192" "128 2 65536" "16 2 8192"; do
    mega_at build kf2 "$sh"
    mega_at build-kf0 kf0 "$sh"
done
echo "t=$((SECONDS - t0)) s"
for b in build build-kf0; do
    mega_trace $b "$(basename $b)-16-8192" | grep -E "^  (D1|E1|F1) |critical"
done
mega_sass
K=mrt_mega_kernelILb0ELi16
STALL_FILES="index_logits_wg.cuh topk.cuh gemm_fp8_epilogues.cuh mega_gemm.cuh" ncu_stalls step $K 30
mega_sass_keep $K
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
