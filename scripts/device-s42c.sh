#!/bin/bash
# Session 42 run 2 (2026-12-02; prepared in session 41), after device-s42b.sh in one command: where a GEMM tile at M=128 (TN
# 128) spends its time, after scripts/device-s42a.sh's checks. Session 41 run 2's probe: D0
# 9.9 us from its input to K block 0 (M=16: ~2), then 20.4 us with its store (~5.5 wgmmas).
# Three probe builds of the tree (each the whole tree, built here):
#   sx     -DMRT_GEMM_PROBE -DMRT_GEMM_PROBE_SX: "visible" = the activation loader's scales
#          landed, "weights issued" = K block 0 consumed (its stage, the scales, its wgmmas);
#   sx128  the same with the scales by cp.async at TN 128 too (-DMRT_GEMM_SX_ASYNC=128);
#   mp     -DMRT_MEGA_PROBE: "weights issued" = k-loop done, "input ready" = store done, so
#          input ready - weights issued is a tile's store (D0's fused Q_B epilogue at TN 128).
# Traces at M=128 KV=1024 and M=16 KV=8192, the GEMM ops' medians.
# Run (run 2, after device-s42b.sh): timeout 330 bash scripts/device-s42c.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant sx "-DMRT_GEMM_PROBE -DMRT_GEMM_PROBE_SX" megartp &
build_variant sx128 "-DMRT_GEMM_PROBE -DMRT_GEMM_PROBE_SX -DMRT_GEMM_SX_ASYNC=128" megartp &
build_variant mp "-DMRT_MEGA_PROBE" megartp &
wait
{
echo "builds $((SECONDS - t0)) s"
for s in "128 2 1024" "16 2 8192"; do
    for b in sx sx128; do
        trace_phases_at build-$b $b "$s" "B0|B1|D1|D0" "input ready" visible "weights issued" "compute done"
    done
    trace_phases_at build-mp mp "$s" "B0|B1|D1|D0|D2" visible "weights issued" "input ready" "compute done"
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
