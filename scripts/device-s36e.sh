#!/bin/bash
# Session 36 run 5 (2026-12-01): an INDEX_Q finalization job (D1, on the M=16 critical path)
# by step (-DMRT_MEGA_FIN_PROBE=4: group 0's first job, computed -> planes summed ("visible")
# -> row factor done ("weights issued": gate partials, block sums, RMS factor) -> RoPE done
# ("input ready": the head's fold, bf16 rounding, RoPE) -> published (amax, scale, the stores,
# the signals)), at M=16 and M=64 KV=8192, three traces each. Nothing is built here: carry
# build-fp4/megartp (local, sm_90a, 05740bb's code with the probe).
# Run: timeout 200 bash scripts/device-s36e.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
{
for s in "16 2 8192" "64 2 8192"; do
    set -- $s
    for rep in 1 2 3; do
        timeout 30 build-fp4/megartp trace glm5-prefix --backend mega --m $1 --batch $2 --kv $3 \
            -o "$O/trace-fp4-$1-$3-$rep.json" > "$O/trace-fp4-$1-$3-$rep.txt" 2>&1
        echo "fp4 M=$1 KV=$3 rep $rep rc=$? $(grep -o 'span [0-9.]* us' "$O/trace-fp4-$1-$3-$rep.txt")"
        python3 scripts/trace_phases.py --ordered "$O/trace-fp4-$1-$3-$rep.json" "compute done" visible \
            "weights issued" "input ready" published | grep -E "tasks|^D1 "
    done
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
