#!/bin/bash
# Session 6, run g (2026-11-29): racecheck of the serial + cmp step (`test_serial --sanitize`,
# M=4 KV=300, one step of each), one kernel family at a time (--kernel-name kns=...; the rest
# run uninstrumented): A0, the finalizations, E1, F1, then the GEMMs with what time is left.
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_or_exit build/tests/gpu/test_serial
echo "build $((SECONDS - t0)) s"
{
for k in a0_kernel epi_kernel index_logits topk gemm; do
    sanitize racecheck 45 $k --kernel-name kns=$k build/tests/gpu/test_serial --sanitize
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
