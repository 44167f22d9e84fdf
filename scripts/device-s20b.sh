#!/bin/bash
# Session 20 run 2 (2026-11-30): run 1 (scripts/device-next.sh) split E1's 7.3 us (M=16
# KV=8192, one pass of 128 keys): the loads 3.4-3.6, the wgmmas +0.35, the head sums +2.0,
# the stores +1.4. The loads were four round trips in a row (head weights and positions loaded
# into registers and stored, then the block table, then the keys). Now:
#   build = E1's prologue as two round trips (block-table lookups first, everything else
#           cp.async) and the event waits polled one lane an event (one round trip a wait);
#   ws    = -DMRT_MEGA_WAIT_SERIAL (the polls one after another, as before);
#   ilo   = -DMRT_ILW_SERIAL_PROLOGUE (E1's prologue as before);
#   old   = both as before.
# Then the plan's split-K of D1 and B0 on the new default (--split).
# Run: timeout 570 bash scripts/device-s20b.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant ws -DMRT_MEGA_WAIT_SERIAL megartp &
build_variant ilo -DMRT_ILW_SERIAL_PROLOGUE megartp &
build_variant old "-DMRT_MEGA_WAIT_SERIAL -DMRT_ILW_SERIAL_PROLOGUE" megartp &
build_or_exit build/megartp build/tests/gpu/test_mega_prefix build/tests/gpu/test_index_ops
wait
echo "builds $((SECONDS - t0)) s"
{
run_backends serial mega
ab_bench serial,cmp,mega build build-old
ab_bench mega build-ws build-ilo
mega_traces 300 build build-old
ab_shapes "build build-old" "64 2 8192" "128 2 8192" "1 1 1024" "16 2 65536"
for s in D1=2 D1=1 B0=6 B0=3; do
    [ $((SECONDS - t0)) -gt 420 ] && break
    timeout 40 build/megartp bench glm5-prefix --modes mega --split $s > "$O/split-$s.md" 2>&1
    echo "split $s rc=$? $(grep -E 'step, mega' "$O/split-$s.md" | tr -s ' ' | cut -c1-100)"
done
echo "tests t=$((SECONDS - t0)) s"
gpu_tests 150 "test_mega_prefix" "test_index_ops --quick"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
