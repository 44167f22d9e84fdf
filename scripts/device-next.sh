#!/bin/bash
# The next session's first device run (written 2026-11-30, end of session 20): where F1's row
# and E1's tile spend their time in the step, line by line. Session 20 (bench/RESULTS.md)
# split F1's 11 us a row (M=16 KV=8192) into pass 0 3.55, the digit search 0.6, pass 1 3.4,
# the list 1.25 and the emit 2.15 us, and E1's 7.1 us into its loads 3.4-3.6, wgmmas 0.35,
# head sums 2.0 and stores 1.4; four keys a round in F1's pass 1 and two round trips in E1's
# prologue each gained far less than their latency chains promised, so neither phase is the
# chain it looked like. Nsight Compute's SASS stall samples of the default build's step at the
# finest sampling interval (falling back to ncu's default when refused), by function and file
# and, for topk.cuh and index_logits_wg.cuh, by source line (scripts/stalls_by_file.py).
# Run: timeout 400 bash scripts/device-next.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_or_exit build/megartp
echo "build $((SECONDS - t0)) s"
{
mega_sass
K=mrt_mega_kernelILb0ELi16
export STALL_FILES="topk.cuh index_logits_wg.cuh"
NCU_ARGS="--sampling-interval 0" ncu_stalls step $K 0
grep -q "Report:" "$O/ncu-step.log" || ncu_stalls step $K 0
mega_sass_keep $K
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
