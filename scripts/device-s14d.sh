#!/bin/bash
# Session 14, run 4 (written 2026-11-30). The default now: one-warp finalization groups for
# QKV_A q and INDEX_Q (run 3's g32: test_mega_prefix 53 passed, sanitizer clean, M=16 -1 us,
# M=64 -12, M=128 -26) and A0 one row a task while the rows fit the workers (planner; at M=128
# A0 took 31 us as 32 tasks of 4 rows). a0old = -DMRT_A0_TILES_32 (the old A0 rule, host C).
# test_mega_prefix (mega = serial bytes at all 12 shapes with the new A0 tiling) and test_mega
# (watchdog, NoOp cost); A B at M=64 / 128; M=16 figures; the [E] sweep; traces.
# Run: timeout 570 bash scripts/device-s14d.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant_c a0old -DMRT_A0_TILES_32 megartp &
build_or_exit build/megartp build/tests/gpu/test_mega_prefix build/tests/gpu/test_mega
wait
echo "builds $((SECONDS - t0)) s"
{
gpu_tests 150 test_mega_prefix test_mega
echo "t=$((SECONDS - t0)) s"
for r in 1 2; do
    for b in build build-a0old; do
        SWEEP_BUILD=$b sweep 30 300 "64 2 8192" "128 2 8192"
    done
done
echo "t=$((SECONDS - t0)) s"
ab_bench serial,cmp,mega build
cp_bench build
timeout 30 build/megartp trace glm5-prefix --m 128 --batch 2 --kv 8192 --backend mega -o "$O/trace-m128.json" > "$O/trace-m128.txt" 2>&1
echo "trace M=128 rc=$?"; sed -n "/^  op /,/critical path/p" "$O/trace-m128.txt"
mega_traces 330 build
echo "t=$((SECONDS - t0)) s"
e_sweep 430 520
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
