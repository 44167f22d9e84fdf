#!/bin/bash
# Session 10, run 4 (2026-11-30): racecheck of the stream executors' step without cluster
# launches. Run 3: with a kernel family instrumented at a time, the reduced-size step hung
# under racecheck when A0's cluster kernel was instrumented (its cluster barrier) and faulted
# ("failed to handle a hardware exception") otherwise, before B0's finalization launched:
# after A0 and B0's GEMM, both cluster launches. build-san2: the watchdog bound raised,
# -DMRT_A0_CLUSTER=1 (one CTA a row) and -DMRT_GEMM_NO_CLUSTER (split-K GEMMs reduce through
# global memory): the same device functions without clusters. racecheck, then synccheck, of
# `test_serial --tiny` (one serial and one cmp step of a reduced-size model, checked against
# the CPU executor).
# Run: timeout 450 bash scripts/device-s10c.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant san2 "-DMRT_SPIN_LIMIT_CYCLES=2000000000000LL -DMRT_A0_CLUSTER=1 -DMRT_GEMM_NO_CLUSTER" tests/gpu/test_serial
echo "builds $((SECONDS - t0)) s"
{
timeout 60 build-san2/tests/gpu/test_serial --tiny > "$O/test_serial-san2.log" 2>&1
echo "san2 test_serial --tiny rc=$? $(tail -1 "$O/test_serial-san2.log")"
sanitize racecheck $((370 - (SECONDS - t0))) tiny build-san2/tests/gpu/test_serial --tiny
grep -E "^=========     at " "$O/racecheck-tiny.log" | sed 's/+0x[0-9a-f]*//' | sort | uniq -c | head -8
echo "t=$((SECONDS - t0)) s"
left=$((440 - (SECONDS - t0)))
[ $left -gt 30 ] && sanitize synccheck $left tiny build-san2/tests/gpu/test_serial --tiny
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
