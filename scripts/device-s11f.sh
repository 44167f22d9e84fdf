#!/bin/bash
# Session 11, run 6 (run inline on the machine still warm from run 5, as the commands below):
# test_mega (NoOp cost, the watchdog) and the shape sweep of the final tree, both policies.
# Run: timeout 250 bash scripts/device-s11f.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_or_exit build/megartp build/tests/gpu/test_mega
{
gpu_tests 60 test_mega
grep NoOp "$O/test_mega.log"
e_sweep 120 200
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
