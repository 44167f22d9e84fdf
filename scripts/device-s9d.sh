#!/bin/bash
# Session 9, run 4 (the session's last): the tree as it will stand. New since run 3: the FP8
# k-loop back to issue-wait-promote per K block (the pipelined form lost: serial 80.7 against
# 77.1 us, cmp 58.0 against 54.4, run 3), and the megakernel's D0 finalization in its tiles'
# store (mega_table.cu fused_q_b; nfq = -DMRT_MEGA_NO_FUSED_Q_B, the lone-tile jobs).
# Checks: mega = serial bytes (test_mega_prefix), test_mega, all shapes of test_serial,
# memcheck of the serial step; then mega A B A B against nfq, the three executors' step,
# critical-path placement, the megakernel's trace. Run: timeout 585 bash scripts/device-s9d.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant nfq -DMRT_MEGA_NO_FUSED_Q_B megartp &
build_or_exit
wait
echo "builds $((SECONDS - t0)) s"
{
gpu_tests 150 test_mega_prefix test_mega test_serial
sanitize memcheck 100 step build/tests/gpu/test_serial --sanitize
echo "t=$((SECONDS - t0)) s"
ab_bench mega build build-nfq
[ $((SECONDS - t0)) -lt 450 ] && timeout 50 build/megartp bench glm5-prefix --modes serial,cmp,mega > "$O/bench.md" 2>&1 &&
    grep -E "^\| " "$O/bench.md"
[ $((SECONDS - t0)) -lt 500 ] && timeout 40 build/megartp bench glm5-prefix --modes mega --policy critical-path > "$O/bench-cp.md" 2>&1;
    grep -E "step, " "$O/bench-cp.md"
[ $((SECONDS - t0)) -lt 530 ] && timeout 40 build/megartp trace glm5-prefix --backend mega -o "$O/trace-mega.json" > "$O/trace-mega.txt" 2>&1 &&
    sed -n 4,16p "$O/trace-mega.txt"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
