#!/bin/bash
# Session 34 run 2 (2026-12-01): F1 rows with their keys in registers (topk.cuh
# mrt_topk_row_reg at the megakernel's 384 threads, 24 keys a thread: rows up to 9216 keys)
# against the shared-memory row (build-old: the same tree before the change, bf873e8).
# Checks here: `megartp run` serial and mega (every output against the naive reference, one
# digest) at four shapes of KV <= 8192 (the tests need a build this run does not make: the
# next run checks them). Then the A B at eight shapes (KV <= 8192: where rows take the
# register row) and traces of both at M=16 KV=8192. Nothing is built here: carry build/megartp
# and build-old/megartp, built on the local machine (sm_90a).
# Run: timeout 400 bash scripts/device-s34b.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
{
run_digests "16 2 8192" "1 1 8192" "128 2 1024" "16 2 1024"
echo "t=$((SECONDS - t0)) s"
ab_shapes "build-old build" "16 2 8192" "16 2 8192" "1 1 8192" "16 2 1024" "64 2 8192" "128 2 1024" "1 1 1024" \
    "128 2 8192" "16 2 8192"
mega_trace build new-16-8192 | grep -E "^trace|^  (E1|F1) |critical"
mega_trace build-old old-16-8192 | grep -E "^trace|^  (E1|F1) |critical"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
