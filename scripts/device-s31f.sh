#!/bin/bash
# Session 31, run 6 (2026-12-01), for the next session's choice (docs/MEGAKERNEL.md session 31,
# next steps 1-2), on the final tree: where E1's task time goes now (-DMRT_MEGA_IL_STOP=1, 2, 3:
# E1 tiles stop after their loads, the wgmmas, the head sums; the trace's E1 input -> computed
# in each build) and the finalization's group wait (-DMRT_MEGA_FIN_PROBE=1: computed -> the
# CTA knows its group complete -> group 0's first job done), M=16 KV=8192.
# Run: timeout 230 bash scripts/device-s31f.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
for s in 1 2 3; do build_variant il$s -DMRT_MEGA_IL_STOP=$s megartp & done
build_variant fp1 -DMRT_MEGA_FIN_PROBE=1 megartp &
build_or_exit build/megartp
wait
{
echo "builds $((SECONDS - t0)) s"
for b in build build-il1 build-il2 build-il3; do
    mega_trace $b "$(basename $b)-16-8192" | grep -E "^  (E1|F1) |critical"
done
mega_trace build-fp1 fp1-16-8192 | grep -E "^  (B0|D1) |critical"
python3 scripts/trace_phases.py "$O/trace-fp1-16-8192.json" "compute done" "weights issued" visible published |
    grep -E "^(op|B0|D1) "
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
