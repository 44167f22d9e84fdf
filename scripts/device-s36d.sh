#!/bin/bash
# Session 36 run 4 (2026-12-01): [E]'s sweep under both placements (serial and mega, 30
# replays, roundrobin then critical-path) on 05740bb's device code, and where a finalization's
# time goes now (-DMRT_MEGA_FIN_PROBE=2: group 0's first job's claim returned, loads done,
# epilogue done as the trace's "weights issued", "visible", "input ready") at M=16 and M=64
# KV=8192. Nothing is built here: carry build/megartp and build-fp/megartp (local, sm_90a).
# Run: timeout 400 bash scripts/device-s36d.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
{
e_sweep 200 330
for s in "16 2 8192" "64 2 8192"; do
    set -- $s
    timeout 30 build-fp/megartp trace glm5-prefix --backend mega --m $1 --batch $2 --kv $3 -o "$O/trace-fp-$1-$3.json" \
        > "$O/trace-fp-$1-$3.txt" 2>&1
    echo "fp2 M=$1 KV=$3 rc=$? $(grep -o 'span [0-9.]* us' "$O/trace-fp-$1-$3.txt")"
    python3 scripts/trace_phases.py --ordered "$O/trace-fp-$1-$3.json" "compute done" "weights issued" visible \
        "input ready" published | grep -E "tasks|^(B0|B1|D1|D0) "
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
