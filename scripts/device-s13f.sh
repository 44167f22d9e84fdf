#!/bin/bash
# Session 13 run 6 (2026-11-30): [E] criterion 3 on the default as it stands (0722657's k-loop:
# run 2 sanitized be99191 with the two switches, which differs from it only in the barrier
# offsets): compute-sanitizer memcheck, racecheck, synccheck of test_mega_prefix --tiny in the
# flavour without cluster launches and with a long spin bound (the tools slow the step).
# Run: timeout 230 bash scripts/device-s13f.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant san "-DMRT_SPIN_LIMIT_CYCLES=2000000000000LL -DMRT_A0_CLUSTER=1 -DMRT_GEMM_NO_CLUSTER" tests/gpu/test_mega_prefix
echo "build $((SECONDS - t0)) s"
{
mega_tiny_sanitize 30 build-san default
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
