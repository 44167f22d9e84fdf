#!/bin/bash
# Session 38 run 2 (2026-12-02): the tuner's two candidates measured at every shape, the
# chunk given too (a given --split turns tuning off, so run 1's D1=2 at KV=65536 ran E1's
# untuned chunk): D1 in its default 4 splits with E1's default chunk, D1 in 2, and D1 in 2 with
# E1's chunk doubled (up to 512 keys, tuning's limit), at M = 1, 2, 4, 8, 16, 64, 128 and KV
# 1024 / 8192 / 65536. HEAD's megartp (build/megartp, carried). Then traces with D1=2 at three
# shapes (the cost model's data).
# Run: timeout 560 bash scripts/device-s38b.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
{
for sh in "1 1 1024:128" "1 1 8192:128" "1 1 65536:256" "2 2 1024:128" "2 2 8192:128" "2 2 65536:512" \
    "4 2 1024:128" "4 2 8192:128" "4 2 65536:512" "8 2 1024:128" "8 2 8192:128" "8 2 65536:512" \
    "16 2 1024:128" "16 2 8192:128" "16 2 65536:512" "64 2 1024:128" "64 2 8192:128" "64 2 65536:512" \
    "128 2 1024:128" "128 2 8192:128" "128 2 65536:512"; do
    s=${sh%:*} c=${sh#*:}
    [ $((SECONDS - t0)) -gt 470 ] && break
    mega_at build d1-4-c$c "$s" --split D1=4 --chunk E1=$c
    mega_at build d1-2-c$c "$s" --split D1=2 --chunk E1=$c
    [ $((2 * c)) -le 512 ] && mega_at build d1-2-c$((2 * c)) "$s" --split D1=2 --chunk E1=$((2 * c))
done
echo "t=$((SECONDS - t0)) s"
for sh in "2 2 8192" "4 2 8192" "8 2 8192"; do
    [ $((SECONDS - t0)) -gt 530 ] && break
    plan_trace build d1-2 "$sh" --split D1=2 | grep -E "^trace|critical"
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
