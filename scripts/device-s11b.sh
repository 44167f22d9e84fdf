#!/bin/bash
# Session 11, run 2. Run 1 (device-next.sh at 0bf8c7d) measured, A B A B against the default
# (126.75 / 122.39 us): fw2 117.00 / 119.92, t384 125.91 / 119.14 (F1 in->comp 11.3 vs 14.0),
# help10k 121.17 / 121.53, early 124.99 / 127.86 (dropped).
# Builds: new = the three kept together (-DMRT_MEGA_TOPK_THREADS=384
# -DMRT_MEGA_FIRST_WEIGHTS_NS=2000 -DMRT_MEGA_HELP_NS=10000); claim = new +
# -DMRT_MEGA_CLAIM_ADD (a finalization job claimed by one atomicAdd, the done count a release
# add overlapping the next claim); fw4 = new with the first weights held 4 us.
# test_mega (NoOp cost, now also in a CUDA graph), test_mega_prefix of new and claim (claim
# changes the group finalization's counters: 1000 replays check its epoch arithmetic), the
# A/B, the critical-path policy, traces, then the shape sweep of new (both policies).
# Run: timeout 570 bash scripts/device-s11b.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
NEW="-DMRT_MEGA_TOPK_THREADS=384 -DMRT_MEGA_FIRST_WEIGHTS_NS=2000 -DMRT_MEGA_HELP_NS=10000"
build_variant new "$NEW" "megartp build-new/tests/gpu/test_mega_prefix" &
build_variant claim "$NEW -DMRT_MEGA_CLAIM_ADD" "megartp build-claim/tests/gpu/test_mega_prefix" &
build_variant fw4 "-DMRT_MEGA_TOPK_THREADS=384 -DMRT_MEGA_FIRST_WEIGHTS_NS=4000 -DMRT_MEGA_HELP_NS=10000" megartp &
build_or_exit
wait
echo "builds $((SECONDS - t0)) s"
{
gpu_tests 100 test_mega
grep -E "NoOp" "$O/test_mega.log"
build_tests 120 test_mega_prefix claim new
echo "t=$((SECONDS - t0)) s"
ab_bench serial,cmp,mega build build-new build-claim build-fw4
for b in build-new build-claim; do
    timeout 60 $b/megartp bench glm5-prefix --modes serial,mega --policy critical-path > "$O/bench-cp-$b.md" 2>&1
    echo "critical-path $b rc=$? $(grep -E 'step, ' "$O/bench-cp-$b.md" | tr -s ' ' | cut -c1-100 | tr '\n' ' ')"
done
mega_traces 330 build-new build-claim
echo "t=$((SECONDS - t0)) s"
SWEEP_BUILD=build-new
sweep 30 480 "1 1 1024" "1 1 65536" "16 2 1024" "16 2 65536" "64 2 1024" "64 2 8192" "64 2 65536" \
    "128 2 1024" "128 2 8192" "128 2 65536" "1 1 8192"
SWEEP_POLICY=critical-path sweep 30 540 "16 2 8192" "1 1 65536" "64 2 8192" "128 2 65536"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
