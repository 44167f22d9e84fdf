#!/bin/bash
# Session 36 run 3 (2026-12-01): the tree's GPU checks with the kernel body's quotients
# (05740bb's device code, built here): test_mega_prefix, test_serial (digests against
# bench/test_serial-digests.txt), test_mega (watchdog, NoOp), test_index_ops --quick, `megartp
# run` digests of serial / cmp / mega, the three sanitizers on the reduced step and racecheck
# on test_index_ops --tiny; the whole bench at the target shape; [E]'s 12-shape sweep. Then
# E1's prologue loops rolled (-DMRT_ILW_ROLL: the tile 45 -> 36 KB, its spills 44 / 52 -> 24 /
# 32 bytes; carry build-roll/megartp and build-roll/tests/gpu/test_index_ops, built locally):
# its test_index_ops --quick, its mega digests beside the tree's serial at four shapes, and
# the A B against the tree at eight.
# Run: timeout 590 bash scripts/device-s36c.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
final_builds
{
tree_evidence
if [ -x build-roll/megartp ]; then
    timeout 150 build-roll/tests/gpu/test_index_ops --quick > "$O/test_index_ops-roll.log" 2>&1
    echo "roll test_index_ops --quick rc=$? $(tail -1 "$O/test_index_ops-roll.log")"
    DIGEST_RUNS="build:serial build-roll:mega" run_digests "16 2 8192" "128 2 1024" "16 2 65536" "1 1 8192"
    ab_shapes "build build-roll" "16 2 8192" "16 2 8192" "1 1 8192" "16 2 1024" "64 2 8192" "128 2 8192" \
        "16 2 65536" "1 1 65536" "16 2 8192"
fi
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
