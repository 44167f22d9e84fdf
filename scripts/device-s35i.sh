#!/bin/bash
# Session 35 run 9 (2026-12-01): run 6 found every op at M=64 KV=8192 ~5% slower with fb72218's
# code, B0's k-loop too (same code): is it the SM clock? `megartp bench --modes mega --reps
# 20000` at M=64 KV=8192 from both builds with nvidia-smi sampling the SM clock and power every
# 20 ms beside it, twice in turn; M=16 KV=8192 once each as the control. Carry build/megartp and
# build-old/megartp.
# Run: timeout 200 bash scripts/device-s35i.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
{
for r in 1 2; do
    clocks old-64-$r build-old --m 64 --batch 2 --kv 8192
    clocks new-64-$r build --m 64 --batch 2 --kv 8192
done
clocks old-16 build-old
clocks new-16 build
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
