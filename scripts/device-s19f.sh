#!/bin/bash
# Session 19 run 6 (2026-11-30): where B0's consumers spend a K block, for the next session.
# Run 5: with no wgmma at all (-DMRT_GEMM_DIAG_WGMMAS=0) B0's K blocks 1.. still take ~0.2 us
# each while their full waits total ~0.5 us: the loop's own instructions. Nsight Compute's
# SASS stall samples of the default build's step with B0 alone (`--ops B0`), by function and
# file (scripts/stalls_by_file.py) and by instruction (scripts/sass_stalls.py); the source
# page (CSV) and the TN-16 kernel's SASS come back for the per-line reading.
# Run 7: the whole step (`bash scripts/device-s19f.sh step`): in the step B0's stages are full
# when its input arrives (run 1's probe waits), alone it streams them (mostly full waits).
# Run: timeout 330 bash scripts/device-s19f.sh [B0|step]
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
W=${1:-B0}
OPS="--ops $W"; [ "$W" = step ] && OPS=""
build_or_exit build/megartp
echo "build $((SECONDS - t0)) s"
{
mega_sass
K=mrt_mega_kernelILb0ELi16
ncu_stalls $W $K 40 $OPS
mega_sass_keep $K
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
