#!/bin/bash
# Session 26 run 5: F1's pass 0 at 8, 4 and 1 float4 loads a thread in flight (the tree
# with its unaligned path cut to MRT_TOPK_LOADS scalars a batch, less code), the staged emit
# in all three, against old.tar = 4a7ffe1: run 4 found -DMRT_TOPK_LOADS=8 4 us slower at
# M=128 KV=1024, where its rows load one float4 a thread either way (F1 off the critical
# path, its input -> computed the same; D2 later): the code, not the loads. Target shape
# twice, then M=128 KV=1024 and 8192. Run: timeout 250 bash scripts/device-s26e.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_old 6 build/megartp &
build_variant loads4 -DMRT_TOPK_LOADS=4 megartp &
build_variant loads1 -DMRT_TOPK_LOADS=1 megartp &
build_or_exit build/megartp
wait
{
echo "builds $((SECONDS - t0)) s"
for sh in "16 2 8192" "16 2 8192" "128 2 1024" "128 2 8192"; do
    mega_at /tmp/old/build old "$sh"
    mega_at build loads8 "$sh"
    mega_at build-loads4 loads4 "$sh"
    mega_at build-loads1 loads1 "$sh"
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
