#!/bin/bash
# Session 36 run 6 (2026-12-01): run 5's first step split (-DMRT_MEGA_FIN_PROBE=5: "input ready"
# is the row inputs in the row buffer: does the job wait there for the gate partials' and block
# sums' loads, issued before the planes', or on the factor's sums?), then run 5's probe again,
# at M=16 KV=8192, three traces each. Nothing is built here: carry build-fp5/megartp and
# build-fp4/megartp (local, sm_90a, 05740bb's code with the probes).
# Run: timeout 200 bash scripts/device-s36f.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
{
for b in fp5 fp4; do
    for rep in 1 2 3; do
        timeout 30 build-$b/megartp trace glm5-prefix --backend mega -o "$O/trace-$b-$rep.json" > "$O/trace-$b-$rep.txt" 2>&1
        echo "$b rep $rep rc=$? $(grep -o 'span [0-9.]* us' "$O/trace-$b-$rep.txt")"
        if [ $b = fp5 ]; then
            python3 scripts/trace_phases.py --ordered "$O/trace-$b-$rep.json" "compute done" visible "input ready" \
                "weights issued" published | grep -E "tasks|^D1 "
        else
            python3 scripts/trace_phases.py --ordered "$O/trace-$b-$rep.json" "compute done" visible "weights issued" \
                "input ready" published | grep -E "tasks|^D1 "
        fi
    done
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
