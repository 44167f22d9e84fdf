#!/bin/bash
# Session 16, run 7 (the last ~300 s): on the new default (the store without its event wait),
# the [E] sweep under the critical-path policy (run 6 swept roundrobin), and the GEMM probe's
# split of a tile (input -> K block 0 ready -> last K block ready -> computed) for the next
# session.
# Run: timeout 240 bash scripts/device-s16g.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_with gp -DMRT_GEMM_PROBE megartp
{
timeout 30 build-gp/megartp trace glm5-prefix --backend mega -o "$O/trace-gp.json" > "$O/trace-gp.txt" 2>&1
echo "trace gp rc=$?"
python3 scripts/trace_phases.py "$O/trace-gp.json" "input ready" "weights issued" visible "compute done"
SWEEP_POLICY=critical-path sweep 30 200 "16 2 8192" "1 1 1024" "1 1 8192" "16 2 1024" "64 2 8192" "128 2 8192" \
    "16 2 65536" "64 2 1024" "128 2 1024" "1 1 65536" "64 2 65536" "128 2 65536"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
