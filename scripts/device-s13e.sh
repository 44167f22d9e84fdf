#!/bin/bash
# Session 13 run 5 (2026-11-30). Run 4: nreg72's test_mega_prefix passed its first 27 checks
# (the M=16 and M=1 shapes: TN 16 and 8, where ptxas applied every setmaxnreg) and failed at
# M=64 (TN 64: ptxas ignored a setmaxnreg there, C7507; the watchdog named the stuck tile),
# so it was not benchmarked. This run: the step at M=16 (TN 16) only, default against nreg72,
# A B A B, critical-path, a trace.
# Run: timeout 300 bash scripts/device-s13e.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant nreg72 -DMRT_MEGA_NREG=72 megartp &
build_or_exit build/megartp
wait
echo "builds $((SECONDS - t0)) s"
{
timeout 60 build-nreg72/megartp run glm5-prefix --backend mega > "$O/run-nreg72.txt" 2>&1
echo "run mega nreg72 rc=$? $(tail -1 "$O/run-nreg72.txt")"
ab_bench serial,cmp,mega build build-nreg72
cp_bench build build-nreg72
mega_traces 250 build-nreg72
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
