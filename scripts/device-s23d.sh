#!/bin/bash
# Session 23 run 3 (2026-11-30): are the fitted cost model's predictions for tiling changes
# right? It prices D1 in 2 splits a unit (--split D1=2) and E1 tasks of twice the default
# keys 7-40 us below the default plan at most shapes. Those plans under both policies at the
# 12 shapes, the default (auto) and session 21's partition at M=16 KV=8192 beside them,
# traces of the critical-path variant.
# Run: timeout 560 bash scripts/device-s23d.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_or_exit build/megartp
{
echo "builds $((SECONDS - t0)) s"
mega_at build auto "16 2 8192"
mega_at build P1 "16 2 8192" --chunk E1=256 --split D1=2 --place D1=0-63,E1=0-63,F1=0-15,D0=64-131,D2=64-131
for sh in "16 2 8192" "128 2 1024" "64 2 1024" "1 1 8192" "16 2 1024" "64 2 8192" "16 2 65536" "128 2 8192" \
    "1 1 1024" "1 1 65536" "64 2 65536" "128 2 65536"; do
    [ $((SECONDS - t0)) -gt 480 ] && break
    set -- $sh
    c=256; [ $3 = 65536 ] && c=1024
    mega_at build cpD12 "$sh" --policy critical-path --split D1=2
    mega_at build cpBoth "$sh" --policy critical-path --split D1=2 --chunk E1=$c
    mega_at build rrBoth "$sh" --policy roundrobin --split D1=2 --chunk E1=$c
done
for sh in "16 2 8192" "128 2 1024"; do
    [ $((SECONDS - t0)) -gt 530 ] && break
    set -- $sh
    mega_trace build "cpBoth-$1-$3" --m $1 --batch $2 --kv $3 --policy critical-path --split D1=2 --chunk E1=256 | tail -1
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
