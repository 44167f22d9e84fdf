#!/bin/bash
# Session 34 run 3 (2026-12-01): F1's register row with a thread's keys kv / 384 rounded up
# to 4 (at most 24; run 2's row gave 24 keys to each of 43 threads at KV=1024) against the
# shared-memory row (build-old, bf873e8): run 2 measured the register row 1.6 us faster at
# M=16 KV=8192 and 1.7-4.7 us slower at M=64 KV=8192, M=128 KV=1024 / 8192. A B at those
# shapes, traces of both builds there (F1's rows in the step) and of F1 alone (`--ops F1`).
# `megartp run` serial and mega at two shapes (one digest). Nothing is built here: carry
# build/megartp and build-old/megartp (local builds, sm_90a).
# Run: timeout 400 bash scripts/device-s34c.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
{
run_digests "128 2 1024" "1 1 1024"
ab_shapes "build-old build" "16 2 8192" "64 2 8192" "128 2 1024" "128 2 8192" "16 2 8192" "64 2 8192" "128 2 1024"
ab_traces "build-old build" "64 2 8192" "128 2 1024"
for b in build-old build; do
    mega_trace $b $b-f1-16-8192 --ops F1 | grep -E "^trace|^  F1 |critical"
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
