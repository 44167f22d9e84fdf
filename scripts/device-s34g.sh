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
f1_phases build-pn runs "input ready" "weights issued" "compute done"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
