#!/bin/bash
# Session 39 run 6 (2026-12-02): E1's prologue split further. build-lk/ is build/ with
# -DMRT_ILW_DIAG_FIRST_PASS=2 (E1's "weights issued" stamp: thread 0 issued its copies of the
# first pass's keys, its block-table lookups returned); run 3's build-first/ (=1) stamped the
# first pass landed. Traces with a plan --json beside each, at the shapes of run 3. Built on
# this machine (nvcc 13.0, sm_90a), packed by scripts/pack-builds.sh and carried.
# Run: timeout 200 bash scripts/device-s39f.sh
. "$(dirname "$0")/device-common.sh"
unpack_builds
t0=$SECONDS
{
for sh in "16 2 8192" "16 2 65536" "1 1 65536"; do
    plan_trace build-lk lk "$sh" | grep -E "^trace|^  E1 |critical"
done
plan_trace build-lk lk-cp "64 2 65536" --split D1=2 --policy critical-path | grep -E "^trace|^  E1 |critical"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
