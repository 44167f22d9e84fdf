#!/bin/bash
# Session 35 run 2 (2026-12-01): E1's keys ahead (the mechanism of d24ccc4, in its first form:
# a GEMM tile's idle warp 3 copies the first passes of the worker's next E1 tile's keys into
# E1's keys' region by cp.async from its 32 lanes) against the tree without it (build-old,
# 8c9a4c7). `megartp run` serial and mega at six shapes (every output against the reference,
# one digest); the A B at nine shapes; traces at three, E1's phases at M=16 KV=8192. Nothing
# is built here: carry build/megartp and build-old/megartp (local builds, sm_90a).
# Run: timeout 400 bash scripts/device-s35b.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
{
run_digests "16 2 8192" "1 1 8192" "128 2 1024" "16 2 65536" "64 2 8192" "128 2 8192"
ab_shapes "build-old build" "16 2 8192" "16 2 8192" "1 1 8192" "16 2 1024" "64 2 8192" "128 2 1024" "16 2 65536" \
    "128 2 8192" "1 1 65536" "16 2 8192"
ab_traces "build-old build" "16 2 8192" "16 2 65536" "128 2 8192"
for b in build-old build; do
    python3 scripts/trace_phases.py "$O/trace-$b-16-8192.json" visible "weights issued" "input ready" "compute done" published | grep -E "tasks|^(E1|D1|F1) " | sed "s/^/$b: /"
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
