#!/bin/bash
# Session 18 run 3 (2026-11-30): on the default of 42fc3c3 (the opaque words offset at TN <=
# 64; run 2 measured scales-late at TN <= 64 and the first weights held 4 us level, not taken):
# the same offset at TN 128 too (o128, -DMRT_MEGA_OPAQUE_TN=128: M=128's tile spills 296 / 388
# bytes instead of 192 / 452) A B at M=128; the GEMM probe's split of a tile (input -> K block
# 0 ready -> last K block ready -> computed) with the new allocation; [E]'s shape sweep under
# both policies.
# Run: timeout 570 bash scripts/device-s18c.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant o128 -DMRT_MEGA_OPAQUE_TN=128 megartp &
build_with gp -DMRT_GEMM_PROBE megartp
{
ab_shapes "build build-o128" "128 2 8192" "128 2 1024" "128 2 65536" "128 2 8192"
timeout 30 build-gp/megartp trace glm5-prefix --backend mega -o "$O/trace-gp.json" > "$O/trace-gp.txt" 2>&1
echo "trace gp rc=$?"
python3 scripts/trace_phases.py "$O/trace-gp.json" "input ready" "weights issued" visible "compute done"
e_sweep 390 555
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
