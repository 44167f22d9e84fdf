#!/bin/bash
# Session 22 run 6 (2026-11-30): the record at 24bb307 where F1 runs in slices: serial / cmp /
# mega against the read at M=16 KV=65536 (serial and cmp: one top-k kernel a row), and the
# critical-path policy at the three KV=65536 shapes with slices (M=1, 16, 64).
# Run: timeout 200 bash scripts/device-s22g.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_or_exit build/megartp
{
echo "builds $((SECONDS - t0)) s"
step_shapes serial,cmp,mega build "16 2 65536"
for sh in "1 1 65536" "16 2 65536" "64 2 65536"; do
    [ $((SECONDS - t0)) -gt 185 ] && break
    mega_at build critical-path "$sh" --policy critical-path
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
