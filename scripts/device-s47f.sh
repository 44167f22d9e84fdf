#!/bin/bash
# Session 47 run 6: why E1's epilogue math is ~35 us of a 56-us task at M=128 KV=65536 (run 3's
# -DMRT_MEGA_IL_STOP phases): Nsight Compute's stall samples of one megakernel step there, by
# index_logits_wg.cuh line and the top SASS instructions (build/ = the three-warpgroup E1).
# Run: sh scripts/pack-builds.sh build; timeout 300 bash scripts/device-s47f.sh
#      (carry build-pack and build/src/cuda/mega.o)
. "$(dirname "$0")/device-common.sh"
unpack_builds
t0=$SECONDS
{
cat "$O/device.txt"
mega_sass
K=mrt_mega_kernelILb0ELi128
NCU_ARGS="--warp-sampling-interval 0" STALL_FILES="index_logits_wg.cuh" ncu_stalls e1m128 $K 40 --m 128 --batch 2 --kv 65536
mega_sass_keep $K
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
