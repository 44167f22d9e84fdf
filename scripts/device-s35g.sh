#!/bin/bash
# Session 35 run 7 (2026-12-01): the tree's GPU checks with E1's multiply-shift key lookups
# (fb72218, built here): test_mega_prefix, test_serial (digests against
# bench/test_serial-digests.txt: the logits are exact, so unchanged), test_mega (watchdog,
# NoOp), test_index_ops --quick (every E1 variant against the reference, block_tokens 4, 8, 16, 64),
# `megartp run` digests of serial / cmp / mega, the three sanitizers on the reduced step and
# racecheck on test_index_ops --tiny; the whole bench at the target shape; [E]'s 12-shape sweep;
# then the A B against 8c9a4c7 at M=16 and M=64 KV=8192 (carry build-old/megartp).
# Run: timeout 580 bash scripts/device-s35g.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
final_builds
{
tree_evidence
[ -x build-old/megartp ] && ab_shapes "build-old build" "16 2 8192" "64 2 8192" "16 2 8192" "64 2 8192"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
