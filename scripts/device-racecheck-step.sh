#!/bin/bash
# racecheck of the serial + cmp step (issue [F], criterion 2), one kernel family at a time:
# racecheck of the whole `test_serial --sanitize` step ran past 200 s (2026-11-29), so each run
# instruments only the kernels whose name contains the filter (compute-sanitizer
# --kernel-name kns=...; the others run uninstrumented). Watchdog bound raised (build-san).
. "$(dirname "$0")/device-common.sh"
build_variant san -DMRT_SPIN_LIMIT_CYCLES=2000000000000LL tests/gpu/test_serial
for k in a0_kernel epi_kernel index_logits topk gemm; do
    sanitize racecheck 120 $k --kernel-name kns=$k build-san/tests/gpu/test_serial --sanitize
done
