#!/bin/bash
# Session 15, run 7: -DMRT_Q_B_ROPE_FIRST (the fused Q_B store issues its RoPE row's loads,
# pos -> row, before the fold factor's, so the two chains overlap at D0's tile end: E1 waits
# behind D0's tiles on every worker) against the default, A B A B, then the variant's tests
# (bytes against serial and the reference) and both traces.
# Run: timeout 400 bash scripts/device-s15g.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant qrf -DMRT_Q_B_ROPE_FIRST "megartp build-qrf/tests/gpu/test_serial build-qrf/tests/gpu/test_mega_prefix" &
build_or_exit build/megartp
wait
echo "builds $((SECONDS - t0)) s"
{
ab_bench serial,cmp,mega build build-qrf
cp_bench build build-qrf
echo "t=$((SECONDS - t0)) s"
build_tests 120 test_serial qrf
build_tests 150 test_mega_prefix qrf
echo "t=$((SECONDS - t0)) s"
mega_traces 370 build build-qrf
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
