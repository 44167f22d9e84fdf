#!/bin/bash
# Session 34 run 12 (2026-12-01): the runs row's pass 0 split (run 8: 3.71 us at M=16 KV=8192
# for the copy in, the keys and the histogram). The -DMRT_MEGA_TOPK_PROBE=3 build (build-p3)
# stamps "weights issued" after the row's copy (cp.async, its wait and a barrier) and "visible"
# after pass 0, so input -> weights -> visible -> computed is the copy, the keys and histogram,
# then the selection and the output together. In the step at three shapes and with the chain
# alone at M=16 KV=8192. Nothing is built here: carry build-p3/megartp (a local build, sm_90a).
# Run: timeout 200 bash scripts/device-s34l.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
{
f1_phases build-p3 copy "input ready" "weights issued" visible "compute done"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
