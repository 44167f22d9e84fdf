#!/bin/bash
# Session 40 run 5 (2026-12-02): the tree's evidence with the megakernel's E1 loads by TMA
# (fca21f1; mega.cu PTX 182dc698): every check (test_mega_prefix with its new cache-block
# cases, test_serial's digests against bench/test_serial-digests.txt, test_mega, test_index_ops,
# the sanitizers), the bench and the 12-shape sweep.
# Run: timeout 585 bash scripts/device-s40e.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
final_builds
{
tree_evidence
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
