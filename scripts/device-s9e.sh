#!/bin/bash
# Session 9, run 5: the tree of run 4 (fdbea9b) across shapes, serial and mega, now that the
# plan shares workers between siblings (B0's split follows C0 and B1 at every M) and mega's D0
# finalizes in its store. Run: timeout 400 bash scripts/device-s9e.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_or_exit
echo "build $((SECONDS - t0)) s"
{
sweep 60 330 "16 2 8192" "1 1 1024" "1 1 8192" "16 2 1024" "64 8 8192" "128 8 8192" "64 8 65536" "128 8 65536" "1 1 65536" "16 2 65536" "64 8 1024" "128 8 1024"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
