#!/bin/bash
# Session 39 run 3 (2026-12-02). (1) Auto above 16 tokens takes roundrobin where the index
# logits have more tasks than workers (runs 1-2): the step of the new picks (build/, tuning
# then keeps the default tiling, D1 in 4 splits) against the old ones (build-old/: session 38's
# megartp, critical-path with D1 in 2) at the shapes whose pick changed, KV 49152 and 65536,
# two rounds. (2) E1's loads after a GEMM (runs 1-2: ~4 us more in the loads, none without the
# keys at M=16): traces with E1's first pass of keys landed stamped as its "weights issued"
# (build-first/: -DMRT_ILW_DIAG_FIRST_PASS), a plan --json beside each. All built on this
# machine (nvcc 13.0, sm_90a), packed by scripts/pack-builds.sh and carried.
# Run: timeout 560 bash scripts/device-s39c.sh
. "$(dirname "$0")/device-common.sh"
unpack_builds
t0=$SECONDS
{
for r in 1 2; do
    for sh in "24 2 65536" "32 2 65536" "48 2 65536" "64 2 65536" "96 2 65536" "24 2 49152" "48 2 49152" "96 2 49152"; do
        [ $((SECONDS - t0)) -gt 380 ] && break
        mega_at build-old old-$r "$sh"
        mega_at build new-$r "$sh"
    done
done
echo "t=$((SECONDS - t0)) s"
for sh in "16 2 65536" "64 2 65536" "16 2 8192" "1 1 65536"; do
    plan_trace build-first first "$sh" | grep -E "^trace|^  E1 |critical"
done
plan_trace build-first first-cp "64 2 65536" --split D1=2 --policy critical-path | grep -E "^trace|^  E1 |critical"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
