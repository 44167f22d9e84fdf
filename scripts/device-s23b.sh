#!/bin/bash
# Session 23 run 1 (2026-11-30): per-task times for a cost model fitted to traces. The
# megakernel's trace at the 12 shapes of [E]'s sweep under both policies, and session 21's
# partition P1 with --chunk E1=256 at M=16 and M=1 KV=8192 (the plans a better placement
# has to reach).
# Run: timeout 400 bash scripts/device-s23b.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_or_exit build/megartp
P1="--chunk E1=256 --split D1=2 --place D1=0-63,E1=0-63,F1=0-15,D0=64-131,D2=64-131"
{
echo "builds $((SECONDS - t0)) s"
for pol in roundrobin critical-path; do
    for sh in "1 1 1024" "1 1 8192" "1 1 65536" "16 2 1024" "16 2 8192" "16 2 65536" "64 2 1024" "64 2 8192" \
        "64 2 65536" "128 2 1024" "128 2 8192" "128 2 65536"; do
        [ $((SECONDS - t0)) -gt 330 ] && break
        set -- $sh
        mega_trace build "$pol-$1-$3" --m $1 --batch $2 --kv $3 --policy $pol | head -2
    done
done
mega_trace build "P1-16-8192" $P1
mega_trace build "P1-1-8192" --m 1 --batch 1 $P1
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
