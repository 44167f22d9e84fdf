#!/bin/bash
# Session 34 run 4 (2026-12-01): where an F1 row's time goes in the step, cold code against
# warm. -DMRT_MEGA_TOPK_PROBE builds run each unsliced F1 task's rows twice, stamping
# "weights issued" between: input -> weights is the row as every step runs it (its code
# cold), weights -> computed the same row again (warm). build-pr: the register row (run 2-3's
# build), build-ps: the shared-memory row (-DMRT_MEGA_TOPK_REG=0, a switch of that build only). Traces at three shapes.
# Nothing is built here: carry build-pr/megartp and build-ps/megartp (local builds, sm_90a).
# Run: timeout 300 bash scripts/device-s34d.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
{
for s in "16 2 8192" "64 2 8192" "128 2 1024" "16 2 1024"; do
    for b in build-ps build-pr; do
        trace_phases_at $b $b "$s" "F1|E1" "input ready" "weights issued" "compute done"
    done
done
for b in build-ps build-pr; do
    mega_trace $b $b-f1-16-8192 --ops F1 > /dev/null
    python3 scripts/trace_phases.py "$O/trace-$b-f1-16-8192.json" "input ready" "weights issued" "compute done" |
        sed "s/^/$b alone: /"
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
