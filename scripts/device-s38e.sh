#!/bin/bash
# Session 38 run 5 (2026-12-02): the tree's evidence with bc79f8a's tuning (device code
# unchanged since 99e3b49): every check (test_serial's digests against
# bench/test_serial-digests.txt: the tuned plan changed at M=1 and M=8 KV=8192), the bench and
# the 12-shape sweep, then the tuned plan at M = 2, 4, 8.
# Run: timeout 580 bash scripts/device-s38e.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
final_builds
{
tree_evidence
for sh in "2 2 1024" "2 2 8192" "2 2 65536" "4 2 1024" "4 2 8192" "4 2 65536" "8 2 1024" "8 2 8192" "8 2 65536"; do
    [ $((SECONDS - t0)) -gt 540 ] && break
    mega_at build build "$sh"
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
