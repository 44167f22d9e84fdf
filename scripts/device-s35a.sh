#!/bin/bash
# Session 35 run 1 (2026-12-01): what E1 would take with its keys already in shared memory.
# build-nk is a diagnostic build (-DMRT_ILW_DIAG_NOKEYS, index_logits_wg.cuh: no block-table
# lookups, no key copies, key scales 1; logits wrong, F1 then selects on those): E1's input ->
# computed there bounds what loading the keys ahead of the tile could gain, and the step shows
# what else (D0 -> D2) would end it. Nothing is built here: carry build/megartp and
# build-nk/megartp (local builds, sm_90a).
# Run: timeout 300 bash scripts/device-s35a.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
{
ab_shapes "build build-nk" "16 2 8192" "16 2 8192" "64 2 8192" "16 2 65536" "128 2 8192" "1 1 8192"
ab_traces "build build-nk" "16 2 8192" "16 2 65536"
for b in build build-nk; do
    python3 scripts/trace_phases.py "$O/trace-$b-16-8192.json" visible "weights issued" "input ready" "compute done" published | grep -E "tasks|^(E1|F1|D2) " | sed "s/^/$b: /"
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
