#!/bin/bash
# Session 18 run 5 (2026-11-30): run 4 split a K block of the GEMM k-loop (probe, B0 / D0 /
# D1 in the step): four wgmmas 0.41 us, one 0.25, none 0.21 (B0; D0 and D1 alike). The 0.2
# us left without any wgmma is either the loop itself (barriers, promotion) or operands
# arriving a K block at a time. Here the activations and the scales are loaded before the
# event wait (-DMRT_GEMM_DIAG_X_EARLY, diagnostic, results wrong), with no wgmma (gp0x) and
# with all four (gp4x): a K block whose operands are long in shared memory.
# Run: timeout 300 bash scripts/device-s18e.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant gp0x "-DMRT_GEMM_PROBE -DMRT_GEMM_DIAG_WGMMAS=0 -DMRT_GEMM_DIAG_X_EARLY" megartp &
build_variant gp4x "-DMRT_GEMM_PROBE -DMRT_GEMM_DIAG_X_EARLY" megartp &
wait
echo "builds $((SECONDS - t0)) s"
{
for b in gp0x gp4x; do
    for ops in "" D1 D0; do
        n=trace-$b${ops:+-$ops}
        timeout 30 build-$b/megartp trace glm5-prefix --backend mega ${ops:+--ops $ops} -o "$O/$n.json" > "$O/$n.txt" 2>&1
        echo "$n rc=$?"
        python3 scripts/trace_phases.py "$O/$n.json" "input ready" "weights issued" visible "compute done" | grep -E "tasks|B0|D1|D0|B1"
    done
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
