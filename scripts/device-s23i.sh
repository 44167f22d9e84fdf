#!/bin/bash
# Session 23 run 8 (2026-11-30): with E1's 8 resident groups, do longer E1 tasks pay at
# KV=65536 (a request's keys over fewer tasks: --chunk E1=1024, one round of 128 tasks)? And
# fresh traces at M = 64, 128 for the cost model's next E1 fit.
# Run: timeout 300 bash scripts/device-s23i.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_or_exit build/megartp
{
echo "builds $((SECONDS - t0)) s"
for sh in "64 2 65536" "128 2 65536"; do
    mega_at build default "$sh"
    mega_at build rr-E1=1024 "$sh" --policy roundrobin --chunk E1=1024
    mega_at build cp-E1=1024 "$sh" --policy critical-path --chunk E1=1024
done
for sh in "64 2 8192" "128 2 8192" "128 2 65536"; do
    [ $((SECONDS - t0)) -gt 250 ] && break
    set -- $sh
    mega_trace build "default-$1-$3" --m $1 --batch $2 --kv $3 | tail -1
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
