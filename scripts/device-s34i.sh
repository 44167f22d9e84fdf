#!/bin/bash
# Session 34 run 9 (2026-12-01): [E]'s 12 shapes on the session's default (F1's runs row),
# mega with the default plan, 200 replays, beside the same-bytes read (session 32 run 4 swept
# the last time). Nothing is built here: carry build/megartp (a local build of the tree, sm_90a).
# Run: timeout 300 bash scripts/device-s34i.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
{
mega_sweep build default
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
