#!/bin/bash
# Session 37 run 3 (2026-12-01): the tree's evidence on 99e3b49's device code (D1's row
# factors by warp 3, the indexer's quantization by the scale's exact inverse): every check,
# the bench and the tuned sweep; then D1 in one split (not a tuning candidate: the tuner only
# halves D1's default 4), with and without E1's 256-key chunk, at three shapes.
# Run: timeout 560 bash scripts/device-s37c.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
final_builds
{
tree_evidence
for s in "16 2 8192" "1 1 8192"; do
    mega_at build d1-1-e1-256 "$s" --split D1=1 --chunk E1=256
    mega_at build d1-1 "$s" --split D1=1
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
