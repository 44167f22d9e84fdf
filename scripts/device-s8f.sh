#!/bin/bash
# Session 8, run 6: F1 with the row's keys in registers (topk.cuh mrt_topk_row_reg, variant 8;
# the standalone default up to kv = 16384) against the previous default (-DMRT_TOPK_V0), A B
# A B; test_index_ops checks variant 8 against the exact reference on every F1 case it takes
# (ties, +-0, inf / NaN, fewer than k finite, k 1 .. 6000); mega (its own F1) = serial bytes.
# Run: timeout 400 bash scripts/device-s8f.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant v0 -DMRT_TOPK_V0 megartp &
build_or_exit
wait
echo "builds $((SECONDS - t0)) s"
{
gpu_tests 200 test_index_ops
grep -E "TIME F1" "$O/test_index_ops.log" | cut -c1-150
gpu_tests 150 test_mega_prefix "test_serial --quick"
ab_bench serial,cmp build build-v0
grep -E "^\| F1 " "$O"/bench-serial,cmp-*.md
[ $((SECONDS - t0)) -lt 330 ] && timeout 40 build/megartp trace glm5-prefix --backend cmp -o "$O/trace-cmp.json" > "$O/trace-cmp.txt" 2>&1 &&
    sed -n 4,14p "$O/trace-cmp.txt"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
