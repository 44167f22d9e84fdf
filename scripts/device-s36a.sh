#!/bin/bash
# Session 36 run 1 (2026-12-01): the kernel body's run-time divisions as quotients
# (src/core/fastdiv.h): the cache writers' slots and the finalizations' heads by multiply-shift
# from the host, a job's row, a tile's scale gather (16 a pass, between its input wait and its
# first product) by a float reciprocal; mega.cu's PTX 448 -> 18 div / rem. Against 0162b3e's
# device code (build-base). `megartp run` serial and mega at four shapes (digests must be
# session 35's: the quotients are exact); the A B at ten shapes; traces at two with every op's
# phases. Nothing is built here: carry build/megartp and build-base/megartp (local, sm_90a).
# Run: timeout 420 bash scripts/device-s36a.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
{
run_digests "16 2 8192" "128 2 1024" "16 2 65536" "1 1 8192"
ab_shapes "build-base build" "16 2 8192" "16 2 8192" "1 1 8192" "16 2 1024" "64 2 8192" "128 2 1024" "16 2 65536" \
    "128 2 8192" "1 1 65536" "64 2 1024" "16 2 8192"
ab_op_traces "build-base build" "16 2 8192" "128 2 8192"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
