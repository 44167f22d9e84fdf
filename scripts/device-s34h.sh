#!/bin/bash
# Session 34 run 8 (2026-12-01): where the runs row's ~7.9 us (warm, run 7) go. The
# -DMRT_MEGA_TOPK_PROBE=2 build (build-pq): a runs row stamps "weights issued" after pass 0 (the
# copy in, the keys, the histogram) and "visible" after the selection, so input -> weights ->
# visible -> computed is pass 0, the select, the output. In the step at three shapes and with
# the chain alone at M=16 KV=8192.
# Nothing is built here: carry build-pq/megartp (a local build, sm_90a).
# Run: timeout 200 bash scripts/device-s34h.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
{
f1_phases build-pq phases "input ready" "weights issued" visible "compute done"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
