#!/bin/bash
# Session 20 run 3 (2026-11-30): F1's pass 1 took keys one a round (load, three ballots, the
# list's shared-atomic slot claim, shuffle, stores: a latency chain 22 times a row at M=16
# KV=8192, 3.3 us of the row's 11 in session 15's phase split). Now MRT_TOPK_P1_KEYS = 4 keys
# a thread a round (one slot claim a warp for all four):
#   build = 4 keys; p1 = -DMRT_TOPK_P1_KEYS=1 (the old rate); p2, p8 = 2, 8 keys.
# Then placements of the new default (roundrobin --place, critical-path policy).
# Run: timeout 570 bash scripts/device-s20c.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant p1 -DMRT_TOPK_P1_KEYS=1 megartp &
build_variant p2 -DMRT_TOPK_P1_KEYS=2 megartp &
build_variant p8 -DMRT_TOPK_P1_KEYS=8 megartp &
build_or_exit build/megartp build/tests/gpu/test_mega_prefix build/tests/gpu/test_index_ops
wait
echo "builds $((SECONDS - t0)) s"
{
gpu_tests 100 "test_index_ops --quick"
run_backends serial mega
ab_bench serial,cmp,mega build build-p1
ab_bench mega build-p2 build-p8
mega_traces 300 build build-p1
ab_shapes "build build-p1" "16 2 65536" "64 2 8192" "128 2 65536"
P="--place D1=0-63,E1=0-63,F1=0-15,D0=64-131,D2=64-131"
for a in "$P" "--split D1=2 $P" "--place E1=0-63,D0=64-131" "--policy critical-path"; do
    [ $((SECONDS - t0)) -gt 420 ] && break
    timeout 40 build/megartp bench glm5-prefix --modes mega $a > "$O/place.md" 2>&1
    echo "$a rc=$? $(grep -E 'step, mega' "$O/place.md" | tr -s ' ' | cut -c1-100)"
done
echo "tests t=$((SECONDS - t0)) s"
gpu_tests 150 "test_mega_prefix"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
