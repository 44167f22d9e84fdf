#!/bin/bash
# Session 18 run 4 (2026-11-30): where a GEMM K block's ~0.4 us goes. Run 3's GEMM probe on
# the new default: B0 K block 0 -> last 4.54 us for 11 K blocks, D0 6.08 for 15, with the
# weights resident for most of B0's. Diagnostic builds (results wrong, times right: a GEMM's
# time does not depend on its data) issuing 0 or 1 of a K block's four k32 wgmmas
# (-DMRT_GEMM_DIAG_WGMMAS), each with the probe: the wgmmas' share of the K block against the
# barriers, the promotion and the ring. In the step and with D0 alone (`--ops D0`).
# Run: timeout 400 bash scripts/device-s18d.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant gp0 "-DMRT_GEMM_PROBE -DMRT_GEMM_DIAG_WGMMAS=0" megartp &
build_variant gp1 "-DMRT_GEMM_PROBE -DMRT_GEMM_DIAG_WGMMAS=1" megartp &
build_with gp -DMRT_GEMM_PROBE megartp
{
for b in gp gp1 gp0; do
    for ops in "" D0; do
        n=trace-$b${ops:+-$ops}
        timeout 30 build-$b/megartp trace glm5-prefix --backend mega ${ops:+--ops $ops} -o "$O/$n.json" > "$O/$n.txt" 2>&1
        echo "$n rc=$?"
        python3 scripts/trace_phases.py "$O/$n.json" "input ready" "weights issued" visible "compute done" | grep -E "tasks|B0|D1|D0|B1"
    done
    timeout 40 build-$b/megartp bench glm5-prefix --modes mega > "$O/bench-$b.md" 2>&1
    echo "bench $b rc=$? $(grep -E 'step, ' "$O/bench-$b.md" | tr -s ' ' | cut -c1-90)"
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
