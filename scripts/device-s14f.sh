#!/bin/bash
# Session 14, run 6 (written 2026-11-30): the critical-path policy's cost model with a cost
# per token (schedule.c, fitted to run 4's traces at M=16 and 128) against the model until
# now (cpk = EXTRA_CFLAGS=-DMRT_COST_PER_KIND: a fixed cost per kind from M=16), at M = 1, 16,
# 64, 128 (KV=8192); roundrobin beside them. Host code only (the plans differ).
# Run: timeout 270 bash scripts/device-s14f.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant_c cpk -DMRT_COST_PER_KIND megartp &
build_or_exit build/megartp
wait
echo "builds $((SECONDS - t0)) s"
{
for s in "1 1 8192" "16 2 8192" "64 2 8192" "128 2 8192"; do
    set -- $s
    for run in "build critical-path" "build-cpk critical-path" "build roundrobin"; do
        set -- $s $run
        [ $((SECONDS - t0)) -gt 250 ] && break 2
        timeout 40 $4/megartp bench glm5-prefix --m $1 --batch $2 --kv $3 --modes mega --reps 30 --policy $5 \
            > "$O/cp-$1-$4-$5.md" 2>&1
        echo "M=$1 $4 $5 rc=$? $(grep -E 'step, mega' "$O/cp-$1-$4-$5.md" | tr -s ' ' | cut -c1-90)"
    done
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
