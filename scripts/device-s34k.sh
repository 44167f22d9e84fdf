#!/bin/bash
# Session 34 run 11 (2026-12-01): where F1's runs row stalls in the step (run 8: ~3 / 3 / 3 us
# by phase at M=16 KV=8192, each a pass of ~24 keys a thread): Nsight Compute's stall samples
# of one megakernel step of the default plan, by function (mrt_mega_topk among them) and
# topk.cuh's source lines with the most samples (stall_no_instruction: an instruction fetch
# that missed). Nothing is built here: carry build/megartp and build/src/cuda/mega.o (local
# builds of 002760b's code, sm_90a).
# Run: timeout 300 bash scripts/device-s34k.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
{
mega_sass
K=mrt_mega_kernelILb0ELi16
STALL_FILES="topk.cuh" ncu_stalls f1-16 $K 0
mega_sass_keep $K
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
