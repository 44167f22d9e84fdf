#!/bin/bash
# Session 16, run 4. F1's pass-0 histogram with P counters a bin (-DMRT_TOPK_P0_SPREAD=2 / 4): run 3
# found pass 0 (3.6 us of a row's 11.3 in the step) not waiting on its loads (eight in flight a
# thread: level), which leaves the shared atomics: E1's logits fall in few of the 4096 bins, so
# lanes of a warp serialize on one counter. Correctness: test_index_ops (every topk variant
# against the C reference; also the fixed launcher: variant 10 at kv = 65536) on the default
# and P=4 builds, test_mega_prefix on P=4.
# Run: timeout 570 bash scripts/device-s16d.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant sp2 -DMRT_TOPK_P0_SPREAD=2 megartp &
build_variant sp4 -DMRT_TOPK_P0_SPREAD=4 "megartp build-sp4/tests/gpu/test_index_ops build-sp4/tests/gpu/test_mega_prefix" &
build_variant sp4s1 "-DMRT_TOPK_P0_SPREAD=4 -DMRT_MEGA_TOPK_STOP=1" megartp &
build_or_exit build/megartp build/tests/gpu/test_index_ops
wait
echo "builds $((SECONDS - t0)) s"
{
ab_bench mega build build-sp2 build-sp4
ab_bench serial,cmp build build-sp4
gpu_tests 150 test_index_ops
build_tests 150 test_index_ops sp4
build_tests 150 test_mega_prefix sp4
mega_traces 420 build build-sp2 build-sp4 build-sp4s1
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
