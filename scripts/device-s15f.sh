#!/bin/bash
# Session 15, run 6 (diagnostic, no change measured): why one-shot ops are slower inside the
# step than alone (run 2: F1 11.1 against 7.1 us input -> computed, A0 8.5 against 6.4, E1 7.0
# against 6.4): Nsight Compute's stall reasons per function and source file
# (scripts/stalls_by_file.py) for the M=16 step and for F1 alone; stall_no_instruction is an
# instruction fetch that missed (code evicted between steps by 79 MB of weights a step).
# Run: timeout 400 bash scripts/device-s15f.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_or_exit build/megartp
echo "build $((SECONDS - t0)) s"
{
mega_sass
K=mrt_mega_kernelILb0ELi16
for what in step F1; do
    ops=""; [ $what = F1 ] && ops="--ops F1"
    ncu_stalls $what $K 0 $ops
    echo "t=$((SECONDS - t0)) s"
done
mega_sass_keep $K
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
