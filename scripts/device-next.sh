#!/bin/bash
# The next session's first device run (written 2026-11-30, end of session 11; compile-checked).
# Session 11 ended at mega 97.0-97.2 us (roundrobin), 95.7 (critical-path), serial 77.0-77.5,
# cmp 54.2-55.3 (bench/RESULTS.md "Session 11", run 5). Its trace: B0's QKV_A finalization
# 7.7 us from computed to published, on the critical path A0 -> B0 -> D1 -> E1 -> F1.
# Experiment: qkva64 (-DMRT_MEGA_QKVA_G64): QKV_A's q units finalized by 64-thread groups
# (two columns a thread; the block's fp64 sum of squares in the 128-thread order through
# mrt_grp_sum_f64_k, so the bytes cannot change): a unit's 16 row jobs in one round of its
# 4 members' 24 groups instead of two rounds of 12, as INDEX_Q's since session 11 run 5
# (D1: 11.4 -> 7.8 us). test_mega_prefix (mega = serial bytes, 8 shapes, both policies, 1000
# replays) of both builds, A B A B, traces, and compute-sanitizer of the reduced-size step in
# the qkva64 flavour of the build without cluster launches. Also a queue order (--order, below).
# Run: timeout 560 bash scripts/device-next.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant qkva64 -DMRT_MEGA_QKVA_G64 "megartp build-qkva64/tests/gpu/test_mega_prefix" &
build_variant san2q "-DMRT_SPIN_LIMIT_CYCLES=2000000000000LL -DMRT_A0_CLUSTER=1 -DMRT_GEMM_NO_CLUSTER -DMRT_MEGA_QKVA_G64" \
    tests/gpu/test_mega_prefix &
build_or_exit
wait
echo "builds $((SECONDS - t0)) s"
{
gpu_tests 150 test_mega_prefix test_mega "test_serial --quick" "test_gemm_fp8 --quick"
grep NoOp "$O/test_mega.log"
build_tests 150 test_mega_prefix qkva64
echo "t=$((SECONDS - t0)) s"
ab_bench serial,cmp,mega build build-qkva64
cp_bench build build-qkva64
mega_traces 420 build build-qkva64
# Queue-order experiment, no rebuild (megartp's --order): E1 ahead of D0, so a worker runs its
# E1 tile as soon as D1 is published (~4 us after its own D1 finalization) and its D0 tile
# after it; session 9 measured this order slower on slower code (D2 then ended the step).
ORD=A0,B0,C0,B1,D1,E1,D0,D2,F1
for r in 1 2; do
    for o in default $ORD; do
        oa=(); [ $o != default ] && oa=(--order $o)
        timeout 40 build/megartp bench glm5-prefix --modes mega --reps 100 "${oa[@]}" > "$O/bench-order-$r-${o:0:7}.md" 2>&1
        echo "order $o round $r rc=$? $(grep -E 'step, mega' "$O/bench-order-$r-${o:0:7}.md" | tr -s ' ' | cut -c1-100)"
    done
done
timeout 30 build/megartp trace glm5-prefix --backend mega --order $ORD -o "$O/trace-order.json" > "$O/trace-order.txt" 2>&1
echo "trace --order $ORD rc=$?"; sed -n 4,14p "$O/trace-order.txt"
echo "t=$((SECONDS - t0)) s"
mega_tiny_sanitize 90 build-san2q mega-tiny-qkva64
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
