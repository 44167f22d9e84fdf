#!/bin/bash
# racecheck of the serial + cmp step (issue [F], criterion 2), one kernel family at a time:
# racecheck of the whole `test_serial --sanitize` step ran past 200 s (2026-11-29), so each run
# instruments only the kernels whose name contains the filter (compute-sanitizer
# --kernel-name kns=...; the others run uninstrumented). Watchdog bound raised (build-san).
. "$(dirname "$0")/device-common.sh"
build_variant san -DMRT_SPIN_LIMIT_CYCLES=2000000000000LL tests/gpu/test_serial
for k in a0_kernel epi_kernel index_logits topk gemm; do
    timeout 120 compute-sanitizer --tool racecheck --kernel-name kns=$k build-san/tests/gpu/test_serial --sanitize \
        > "$O/racecheck-$k.log" 2>&1
    echo "racecheck $k rc=$? $(grep -E 'RACECHECK SUMMARY' "$O/racecheck-$k.log" | tail -1) $(tail -1 "$O/racecheck-$k.log")"
    grep -E "^========= Error" -A1 "$O/racecheck-$k.log" | cut -c1-160 | head -6
done
