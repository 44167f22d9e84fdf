#!/bin/bash
# Session 9, run 6: ops ordered by the longest remaining path (plan.c order_ops: E1 before D0
# and D2, so E1's tiles no longer queue behind theirs) against graph order (og =
# -DMRT_OP_ORDER_GRAPH=1, C flags), A B A B over the three executors; mega = serial bytes and
# the serial tests first; then the megakernel's trace. Run: timeout 420 bash scripts/device-s9f.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
make -j16 BUILD=build-og EXTRA_CFLAGS=-DMRT_OP_ORDER_GRAPH=1 build-og/megartp > "$O/build-og.log" 2>&1 || echo "og build FAILED" &
build_or_exit
wait
echo "builds $((SECONDS - t0)) s"
{
gpu_tests 120 test_mega_prefix "test_serial --quick"
echo "t=$((SECONDS - t0)) s"
ab_bench serial,cmp,mega build build-og
[ $((SECONDS - t0)) -lt 360 ] && timeout 40 build/megartp trace glm5-prefix --backend mega -o "$O/trace-mega.json" > "$O/trace-mega.txt" 2>&1 &&
    sed -n 4,16p "$O/trace-mega.txt"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
