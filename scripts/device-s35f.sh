#!/bin/bash
# Session 35 run 6 (2026-12-01): run 5's two slower shapes again (M=64 KV=8192 +4.5 us, M=128
# KV=1024 +2.2 with the multiply-shift key lookups, whose every function spills as before:
# ptxas -v), A B three and two times, and M=64 KV=8192 traced from both builds (every op's
# line). Carry build/megartp and build-old/megartp.
# Run: timeout 300 bash scripts/device-s35f.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
{
ab_shapes "build-old build" "64 2 8192" "64 2 8192" "64 2 8192" "128 2 1024" "128 2 1024"
for b in build-old build; do
    mega_trace $b $b-64-8192 --m 64 --batch 2 --kv 8192 | grep -E "^trace|^  [A-F][0-9] |critical"
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
