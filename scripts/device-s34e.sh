#!/bin/bash
# Session 34 run 5 (2026-12-01): F1 rows as runs of keys in shared memory (topk.cuh
# mrt_topk_row_runs, then MRT_MEGA_TOPK_ROW=2, now the default: rolled loops, the row in by cp.async; the
# megakernel's topk function 107 KB of code with the shared-memory row, 146 KB with the
# register row) against the shared-memory row (build-old, bf873e8). `megartp run` serial and
# mega at five shapes (every output against the reference, one digest); the A B at eight
# shapes; traces at two. Then the SM clock and power (nvidia-smi every 20 ms) during the step
# and during F1 alone: run 4 measured an F1 row warm in the step 1.6x its time alone (alone, the
# logits are NaN-poisoned inputs and nothing is selected: not the same work, RESULTS run 4).
# Nothing is built here: carry build/megartp and build-old/megartp (local builds, sm_90a).
# Run: timeout 400 bash scripts/device-s34e.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
{
run_digests "16 2 8192" "1 1 8192" "128 2 1024" "16 2 1024" "64 2 8192"
ab_shapes "build-old build" "16 2 8192" "16 2 8192" "1 1 8192" "16 2 1024" "64 2 8192" "128 2 1024" "1 1 1024" \
    "128 2 8192" "16 2 8192"
ab_traces "build-old build" "16 2 8192" "128 2 1024"
clocks step build
clocks f1 build --ops F1
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
