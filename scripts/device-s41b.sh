#!/bin/bash
# Session 41 run 2 (2026-12-02): why a GEMM tile at M=128 takes ~1.9 us a K block (M=64 ~1.0,
# M=16 ~0.57; run 1's traces: D0 input -> computed 29.3 us for 16 K blocks, B0 23.3 for 12,
# D1 17.4 for 8). Nothing is built here: carry build-pack (build/ of c015928, and the GEMM
# probe builds build-gpw: -DMRT_GEMM_PROBE -DMRT_GEMM_PROBE_WAITS, a tile's "weights issued" =
# K block 0's stage ready, "visible" = that + the time consumer thread 0 waited for later
# stages; build-gpw0: the same without wgmmas, results wrong) and build/src/cuda/mega.o (SASS).
#  1. probe traces at M=128 KV=1024, M=64 KV=8192, M=16 KV=8192 (the GEMM ops' medians);
#  2. the rings' depth by environment (MRT_MEGA_STAGES 2, 3, 6 against the default 4) at
#     M=128 KV=1024 / 8192, M=64 KV=8192, M=16 KV=8192, and a probe trace at M=128 with 6;
#  3. Nsight Compute's stall samples of one M=128 KV=1024 step by gemm_fp8.cuh / gemm_core.cuh line.
# Run: timeout 590 bash scripts/device-s41b.sh
. "$(dirname "$0")/device-common.sh"
unpack_builds
t0=$SECONDS
PH=("input ready" "weights issued" visible "compute done" published)
{
for s in "128 2 1024" "64 2 8192" "16 2 8192"; do
    for b in gpw gpw0; do trace_phases_at build-$b $b "$s" "B0|B1|C0|D1|D0|D2" "${PH[@]}"; done
done
MRT_MEGA_STAGES=6 trace_phases_at build-gpw gpw-st6 "128 2 1024" "B0|B1|C0|D1|D0|D2" "${PH[@]}"
echo "t=$((SECONDS - t0)) s"
for s in "128 2 1024" "128 2 8192" "64 2 8192" "16 2 8192"; do
    for st in 4 2 3 6; do MRT_MEGA_STAGES=$st mega_at build st$st "$s"; done
done
echo "t=$((SECONDS - t0)) s"
mega_sass
K=mrt_mega_kernelILb0ELi128
NCU_ARGS="--warp-sampling-interval 0" STALL_FILES="gemm_fp8.cuh gemm_core.cuh mega_gemm.cuh" ncu_stalls m128 $K 40 --m 128 --batch 2 --kv 1024
mega_sass_keep $K
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
