#!/bin/bash
# Session 40 run 4 (2026-12-02): E1's TMA loads with the lookahead. build/ is the tree now
# (every buffer's pass issued in the tile's prologue, the lookups together; pass p + STAGES
# issued into pass p's buffer after its closing barrier, its block-table lookups made at pass
# p's start), build-tma1/ run 3's first form (STAGES - 1 passes ahead, each pass's lookups just
# before its copies), build-s40base/ c25e5dd's cp.async copies; all built on this machine
# (nvcc 13.0, sm_90a), packed, with build/'s test_mega_prefix (now also cache blocks of 16 and
# 256 keys and the refusal of --chunk E1=100) and test_mega. Checks, then A B at 7 shapes
# twice, then E1's phases.
# Run: timeout 560 bash scripts/device-s40d.sh
. "$(dirname "$0")/device-common.sh"
unpack_builds
t0=$SECONDS
{
mega_checks_carried
for r in 1 2; do
    ab_shapes "build-s40base build-tma1 build" "16 2 8192" "16 2 65536" "1 1 65536" "64 2 65536" "128 2 8192" \
        "1 1 1024" "64 2 8192"
done
echo "t=$((SECONDS - t0)) s"
for b in build-s40base build-tma1 build; do
    trace_phases_at $b $b "16 2 8192" "E1|F1|D2" "input ready" "compute done"
    trace_phases_at $b $b "16 2 65536" "E1|F1" "input ready" "compute done"
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
