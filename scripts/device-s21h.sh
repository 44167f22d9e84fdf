#!/bin/bash
# Session 21 run 8 (2026-11-30): why the chunked indexer partition (--chunk E1=256 --split
# D1=2 --place D1=0-63,E1=0-63,F1=0-15,D0=64-131,D2=64-131; run 7: -5.9 us at M=16 KV=8192,
# -6.5 at M=1 KV=8192) loses at the other shapes: the default plan's and the partition's
# traces at M=1 KV=1024, M=64 KV=8192 and M=16 KV=65536, for a rule that sizes the partition.
# Run: timeout 270 bash scripts/device-s21h.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_or_exit build/megartp
{
echo "build $((SECONDS - t0)) s"
C="--chunk E1=256 --split D1=2 --place D1=0-63,E1=0-63,F1=0-15,D0=64-131,D2=64-131"
for sh in "1 1 1024" "64 2 8192" "16 2 65536"; do
    set -- $sh
    for v in default chunkP1; do
        [ $((SECONDS - t0)) -gt 230 ] && break
        a=""; [ $v = chunkP1 ] && a=$C
        mega_trace build $v-$1-$3 --m $1 --batch $2 --kv $3 $a
    done
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
