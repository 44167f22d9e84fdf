#!/bin/bash
# Session 24 run 5 (2026-12-01): where E1's tile spends its 41-45 us at M=128 KV=8192 (run 4:
# loads 19, head sums 22, stores 3), for the next session: Nsight Compute's stall samples of
# one step of the default plan there, E1's source lines (index_logits_wg.cuh) by samples.
# Run: timeout 230 bash scripts/device-s24e.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_or_exit build/megartp
{
echo "build $((SECONDS - t0)) s"
mega_sass
K=mrt_mega_kernelILb0ELi128
STALL_FILES="index_logits_wg.cuh index_logits.cuh" ncu_stalls e1-128 $K 0 --m 128 --batch 2 --kv 8192
mega_sass_keep $K
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
