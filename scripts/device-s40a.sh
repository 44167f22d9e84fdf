#!/bin/bash
# Session 40 run 1 (2026-12-02): E1's prologue at the target shape, stamp by stamp. Four
# diagnostic builds of the same default code, each moving E1's "weights issued" stamp
# (-DMRT_ILW_DIAG_FIRST_PASS=N, index_logits_wg.cuh): 3 at the tile's entry, 4 once thread 0
# issued its queries' copies, 2 once it issued its first keys' copies (its block-table lookups
# returned), 1 once the first pass landed; so input -> weights in each is one more step of the
# prologue. build-e3/ and build-e4/ are this session's (build/ with the switch), build-lk/ (=2)
# and build-first/ (=1) session 39's; all built on this machine (nvcc 13.0, sm_90a), packed by
# scripts/pack-builds.sh and carried.
# Run: timeout 300 bash scripts/device-s40a.sh
. "$(dirname "$0")/device-common.sh"
unpack_builds
t0=$SECONDS
{
for rep in 1 2; do
    for b in build-e3 build-e4 build-lk build-first; do
        for sh in "16 2 8192" "16 2 65536" "1 1 8192"; do
            trace_phases_at $b "$b-r$rep" "$sh" "E1" "input ready" "weights issued" "compute done"
        done
    done
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
