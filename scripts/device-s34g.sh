#!/bin/bash
# Session 34 run 7 (2026-12-01): F1's runs row cold and warm. The -DMRT_MEGA_TOPK_PROBE build
# of the session's tree (build-pn): each unsliced F1 task runs its rows twice, "weights issued"
# stamped between (run 4 did the same for the shared-memory and register rows). In the step
# at three shapes and with the chain alone (no D0 / D2) at M=16 KV=8192.
# Nothing is built here: carry build-pn/megartp (a local build, sm_90a).
# Run: timeout 200 bash scripts/device-s34g.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
{
for s in "16 2 8192" "64 2 8192" "128 2 1024"; do
    trace_phases_at build-pn runs "$s" "F1" "input ready" "weights issued" "compute done"
done
mega_trace build-pn runs-chain --ops A0,B0,C0,B1,D1,E1,F1 > /dev/null
python3 scripts/trace_phases.py "$O/trace-runs-chain.json" "input ready" "weights issued" "compute done" |
    grep -E "tasks|^F1 " | sed "s/^/chain alone: /"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
