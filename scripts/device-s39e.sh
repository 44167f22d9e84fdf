#!/bin/bash
# Session 39 run 5 (2026-12-02): E1's prologue (run 3: 4.9 of its 9.3 us at M=16 KV=8192 is the
# block-table lookups and the first keys, two dependent round trips). build-pf/ is build/ with
# -DMRT_MEGA_IL_PREFETCH (mega.cu: while an E1 tile's inputs are awaited, warps 8-11 look up its
# first two passes' blocks and prefetch those keys and scales into L2): the step A B at the
# target shape twice and at four others, then a trace of each at the target shape (the
# switch is 755d6dc's, reverted in 6a061cc: check out 755d6dc to build it). Both built
# on this machine (nvcc 13.0, sm_90a), packed by scripts/pack-builds.sh and carried.
# Run: timeout 400 bash scripts/device-s39e.sh
. "$(dirname "$0")/device-common.sh"
unpack_builds
t0=$SECONDS
{
ab_shapes "build build-pf" "16 2 8192" "16 2 8192" "1 1 8192" "16 2 65536" "64 2 8192" "128 2 8192"
echo "t=$((SECONDS - t0)) s"
ab_traces "build build-pf" "16 2 8192"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
