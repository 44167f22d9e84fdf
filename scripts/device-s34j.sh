#!/bin/bash
# Session 34 run 10 (2026-12-01): F1's rows as standalone kernels on E1's logits (M=16 KV=8192
# k=2048): serial's register row (variant 9, 1024 threads), the bitmap row and the runs row on
# the megakernel's 384 threads (variants 10 and 13), per launch and in a CUDA graph, so the runs
# row's ~9 us in the step (run 8: ~3 / 3 / 3 us by phase) can be set against its time outside
# the megakernel. test_index_ops in full (its correctness suites at 2 runs a case, then the
# timings). Nothing is built here: carry build/tests/gpu/test_index_ops (a local build, sm_90a).
# Run: timeout 300 bash scripts/device-s34j.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
{
gpu_tests 280 "test_index_ops --reps 2"
grep -E "F1 .*(v0|v9|v10|v13)\)|empty kernel" "$O/test_index_ops.log" | cut -c1-150
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
