#!/bin/bash
# Session 40 run 2 (2026-12-02): where E1's prologue stalls. Run 1 put 2.8 us of the target
# shape's 4.9-us prologue between the tile's entry and thread 0's queries' copies issued (2.1
# at M=1, 1.7-4.5 at M=16 KV=65536, where a worker's second E1 task runs on warm code).
# Nsight Compute's stall samples (finest interval) of one megakernel step of the default plan,
# by function and by index_logits_wg.cuh's source lines, at M=16 KV=8192 and KV=65536.
# Nothing is built here: carry build-pack (build/megartp of c25e5dd's code, packed) and
# build/src/cuda/mega.o (its object, for the SASS).
# Run: timeout 400 bash scripts/device-s40b.sh
. "$(dirname "$0")/device-common.sh"
unpack_builds
t0=$SECONDS
{
mega_sass
K=mrt_mega_kernelILb0ELi16
NCU_ARGS="--warp-sampling-interval 0" STALL_FILES="index_logits_wg.cuh" ncu_stalls e1-8192 $K 60 --m 16 --batch 2 --kv 8192
NCU_ARGS="--warp-sampling-interval 0" STALL_FILES="index_logits_wg.cuh" ncu_stalls e1-65536 $K 0 --m 16 --batch 2 --kv 65536
mega_sass_keep $K
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
