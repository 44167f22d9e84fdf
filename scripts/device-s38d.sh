#!/bin/bash
# Session 38 run 4 (2026-12-02): M=64 KV=65536, where the tuned plan (D1 in 2 splits,
# critical-path) measured 211.0 us and D1 in 4 under roundrobin 195.5 (run 3): a plan --json
# and a megakernel trace of each tiling under each policy (the cost model's view against the
# trace: scripts/fit_costs.py). 2a85d15's megartp (build/megartp, carried).
# Run: timeout 300 bash scripts/device-s38d.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
{
for d in 2 4; do
    for pol in critical-path roundrobin; do
        plan_trace build "d1-$d-$pol" "64 2 65536" --split D1=$d --chunk E1=512 --policy $pol
    done
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
