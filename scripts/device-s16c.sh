#!/bin/bash
# Session 16, run 3. (1) F1's pass 0 with several loads a thread in flight before its histogram
# atomics (-DMRT_TOPK_P0_BATCH=4 / 8): in the step pass 0 took 3.6 us of a row's 11.3 (run 1's
# stop1 build) against ~1.9 as a standalone kernel; the atomics keep each iteration's load from
# being issued before the previous one's atomics, so a row of 8192 logits pays ~6 L2 round
# trips. Correctness: test_index_ops (every topk variant against the C reference) and
# test_mega_prefix on the batch-8 build. (2) A 12-stage ring for D0 only (a
# -DMRT_GEMM_MAX_STAGES=12 build; MRT_MEGA_STAGES=8 caps every op at 8, MRT_MEGA_STAGES_LONG=12
# lets the ops with more than 12 K blocks a tile, D0, keep 12): D0's k-loop streams after its
# input at a per-SM rate set by its bytes in flight (session 13).
# Run: timeout 570 bash scripts/device-s16c.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant p0b4 -DMRT_TOPK_P0_BATCH=4 megartp &
build_variant p0b8 -DMRT_TOPK_P0_BATCH=8 "megartp build-p0b8/tests/gpu/test_index_ops build-p0b8/tests/gpu/test_mega_prefix" &
build_variant p0b8s1 "-DMRT_TOPK_P0_BATCH=8 -DMRT_MEGA_TOPK_STOP=1" megartp &
build_variant stop1 -DMRT_MEGA_TOPK_STOP=1 megartp &
build_variant s12 -DMRT_GEMM_MAX_STAGES=12 megartp &
build_or_exit build/megartp
wait
echo "builds $((SECONDS - t0)) s"
{
ab_bench mega build build-p0b4 build-p0b8
ab_bench serial,cmp build build-p0b8
for r in 1 2; do
    for v in "8 0" "8 12"; do
        set -- $v
        MRT_MEGA_STAGES=$1 MRT_MEGA_STAGES_LONG=$2 timeout 60 build-s12/megartp bench glm5-prefix --modes mega \
            > "$O/bench-s12-$1-$2-$r.md" 2>&1
        echo "s12 cap $1 long $2 round $r rc=$? $(grep -E 'step, ' "$O/bench-s12-$1-$2-$r.md" | tr -s ' ' | cut -c1-100 | tr '\n' ' ')"
    done
    timeout 60 build/megartp bench glm5-prefix --modes mega > "$O/bench-base-$r.md" 2>&1
    echo "base round $r rc=$? $(grep -E 'step, ' "$O/bench-base-$r.md" | tr -s ' ' | cut -c1-100 | tr '\n' ' ')"
done
build_tests 120 test_index_ops p0b8
build_tests 150 test_mega_prefix p0b8
mega_traces 330 build build-p0b8 build-stop1 build-p0b8s1
MRT_MEGA_STAGES=8 MRT_MEGA_STAGES_LONG=12 timeout 30 build-s12/megartp trace glm5-prefix --backend mega \
    -o "$O/trace-s12.json" > "$O/trace-s12.txt" 2>&1
echo "trace s12 long 12 rc=$?"; sed -n "/^  op /,/critical path/p" "$O/trace-s12.txt"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
