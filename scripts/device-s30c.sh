#!/bin/bash
# Session 30, run 3: the new default plan at M <= 16 (A0's rows in at least 2 slices, the first
# split-K GEMMs leaving the slices their workers: M=16 A0 32 + B0 63 + C0 16 + B1 16 tasks),
# plan rules only, the megakernel's code unchanged (run 2's build, PTX equal). test_mega_prefix
# first; A B against the old default plan from the same binary (`--split A0=1` with tuning's
# picks, the same plan as before the rule: `megartp plan` prints the same queues), M=16 KV=8192
# and 1024 twice, KV=65536, DeepSeek-V3.2 M=16, M=32 with B0 in 3 K splits (rows whole: 32 +
# 63 + 32 = 127 tasks) as a probe; a trace; the final checks; the sweep until the time is spent.
# Run: timeout 580 bash scripts/device-s30c.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
final_builds
{
echo "builds $((SECONDS - t0)) s"
gpu_tests 150 "test_mega_prefix"
OLD="--split A0=1,D1=2"
for rep in 1 2; do
    mega_at build new "16 2 8192"
    mega_at build old "16 2 8192" $OLD --chunk E1=256
    mega_at build new "16 2 1024"
    mega_at build old "16 2 1024" $OLD
done
mega_at build new "16 2 65536"
mega_at build old "16 2 65536" $OLD
mega_at build newcp "16 2 1024" --policy critical-path --split D1=2
mega_at build dsvnew "16 2 8192" --model dsv32
mega_at build dsvold "16 2 8192" --model dsv32 --split A0=1,D1=1 --chunk E1=256
mega_at build m32 "32 2 8192"
mega_at build m32b3 "32 2 8192" --split B0=3,D1=2 --chunk E1=256
mega_trace build new-16-8192 | grep -E "^  [A-F][0-9] |critical"
echo "t=$((SECONDS - t0)) s"
final_checks
sweep_until 545 build sweep
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
