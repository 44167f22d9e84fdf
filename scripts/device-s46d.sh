#!/bin/bash
# Session 46 run 4: F1's unsliced long row with its keys' 24-bit prefixes in shared memory
# (topk.cuh mrt_topk_row_runs24; the megakernel's rows past the 32-bit runs' cache, which
# read the row twice from global memory: 79 us a row at M=128 KV=65536, run 2). Checks:
# test_index_ops --quick (F1 variant 14 exactly against the reference, kv up to 65536, ties,
# +-0, inf / NaN), test_mega_prefix (mega = serial bytes at the 12 shapes; M=128 KV=65536 runs
# the new row), test_mega; old (build-old: 8e7659f) / new at the long-row shapes, with the
# default slices and one task a row; a trace of M=128 KV=65536.
# Run: sh scripts/pack-builds.sh build build-old build/tests/gpu/test_index_ops build/tests/gpu/test_mega_prefix
#      build/tests/gpu/test_mega; timeout 560 bash scripts/device-s46d.sh   (carry build-pack)
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
unpack_builds
{
gpu_tests 120 "test_index_ops --quick"
grep -E "topk .*kv=65536" "$O/test_index_ops.log" | head -3
mega_tests 200
echo "t=$((SECONDS - t0)) s"
mega_ab "128 2 65536"
mega_at build new-f1s2 "128 2 65536" --split F1=2
mega_ab "64 2 65536"
mega_at build new-f1s1 "64 2 65536" --split F1=1
mega_ab "16 2 65536"
mega_at build new-f1s1 "16 2 65536" --split F1=1
mega_at build new-f1s2 "16 2 65536" --split F1=2
mega_ab "1 1 65536"
mega_at build new-f1s1 "1 1 65536" --split F1=1
mega_ab "16 2 8192"
echo "t=$((SECONDS - t0)) s"
mega_trace build m128-new --m 128 --batch 2 --kv 65536
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
