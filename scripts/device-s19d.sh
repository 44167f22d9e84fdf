#!/bin/bash
# Session 19 run 4 (2026-11-30): [E]'s evidence on the new default (desc-add at TN <= 64, the
# megakernel's K-block pipeline at TN <= 32): the byte test, the watchdog test and NoOp, the
# three sanitizers on the reduced-size step, serial / cmp / mega with the read at M=16 and
# M=128, critical-path, the M=16 trace, the 12-shape sweep under both policies.
# Run: timeout 570 bash scripts/device-s19d.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
mega_builds
{
gpu_tests 150 test_mega_prefix
gpu_tests 60 test_mega
grep NoOp "$O/test_mega.log" | tail -1
mega_tiny_sanitize 60 build-san new
step_shapes serial,cmp,mega build "16 2 8192" "128 2 8192"
cp_bench build
mega_traces 330 build
e_sweep 420 535
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
