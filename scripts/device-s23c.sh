#!/bin/bash
# Session 23 run 2 (2026-11-30): the cost model refitted to run 1's traces (schedule.c) and
# what critical-path places with it: mega = serial bytes under both policies
# (test_mega_prefix), the step under each policy at the 12 shapes, traces of critical-path.
# Run: timeout 560 bash scripts/device-s23c.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_or_exit build/megartp build/tests/gpu/test_mega_prefix
{
echo "builds $((SECONDS - t0)) s"
gpu_tests 200 "test_mega_prefix"
for sh in "1 1 1024" "1 1 8192" "1 1 65536" "16 2 1024" "16 2 8192" "16 2 65536" "64 2 1024" "64 2 8192" \
    "64 2 65536" "128 2 1024" "128 2 8192" "128 2 65536"; do
    [ $((SECONDS - t0)) -gt 470 ] && break
    mega_at build rr "$sh"
    mega_at build cp "$sh" --policy critical-path
done
for sh in "16 2 8192" "1 1 8192" "128 2 65536" "64 2 8192"; do
    [ $((SECONDS - t0)) -gt 520 ] && break
    set -- $sh
    mega_trace build "cp-$1-$3" --m $1 --batch $2 --kv $3 --policy critical-path | tail -1
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
