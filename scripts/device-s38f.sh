#!/bin/bash
# Session 38 run 6 (2026-12-02): E1 in 512-key tasks at KV=8192 (tuning doubles E1's 128-key
# chunk once, to 256; the cost model prices 512 keys 1.5-4.5 us slower) with D1 in 2 splits,
# against the tuned plan, two rounds at M = 1, 2, 4, 8, 16, 64 (KV=8192) and M=16 KV=1024.
# 559559a's tuning (build/megartp, carried).
# Run: timeout 300 bash scripts/device-s38f.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
{
for r in 1 2; do
    for s in "1 1 8192" "2 2 8192" "4 2 8192" "8 2 8192" "16 2 8192" "64 2 8192" "16 2 1024"; do
        mega_at build tuned-$r "$s"
        mega_at build e1-512-$r "$s" --split D1=2 --chunk E1=512
    done
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
