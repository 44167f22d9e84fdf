#!/bin/bash
# Session 35 run 5 (2026-12-01): E1's key lookups with a multiply-shift quotient
# (src/core/fastdiv.h) instead of nvcc's division by the run-time block_tokens (~900 of the
# megakernel E1 tile's 3275 instructions, run once a step, cold) against 8c9a4c7 (build-old).
# `megartp run` serial and mega at four shapes (the digests must be session 34's: the logits
# are exact either way); the A B at nine shapes; traces at two with E1's phases. Nothing is
# built here: carry build/megartp and build-old/megartp (local builds, sm_90a).
# Run: timeout 400 bash scripts/device-s35e.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
{
run_digests "16 2 8192" "128 2 1024" "16 2 65536" "1 1 8192"
ab_shapes "build-old build" "16 2 8192" "16 2 8192" "1 1 8192" "16 2 1024" "64 2 8192" "128 2 1024" "16 2 65536" \
    "128 2 8192" "1 1 65536" "16 2 8192"
ab_traces "build-old build" "16 2 8192" "16 2 65536"
for s in 16-8192 16-65536; do
    for b in build-old build; do
        python3 scripts/trace_phases.py "$O/trace-$b-$s.json" visible "weights issued" "input ready" "compute done" published | grep -E "^(E1|F1) " | sed "s/^/$b $s: /"
    done
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
