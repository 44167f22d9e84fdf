#!/bin/bash
# Session 51 run 5: B0's (QKV_A q) finalization jobs of 4 rows in the TN 128 kernel (build-qa/,
# mrt_mega_qa_rows_job) on top of D1's (build-iq/ = 673daed) against 27f4d08 (build/): A B C of
# the step in two rounds, the trace at M=128 KV=1024 (B0's computed -> published), digests,
# build-qa's test_mega_prefix (full) and compute-sanitizer on its SAN build's --tiny (new
# 128-token case: B0 in 4 splits, both jobs of 4 rows).
# Run: cp build-san/tests/gpu/test_mega_prefix build-qa/tests/gpu/test_mega_prefix_san;
#      sh scripts/pack-builds.sh build build-iq build-qa build-qa/tests/gpu/test_mega_prefix \
#        build-qa/tests/gpu/test_mega_prefix_san; timeout 480 bash scripts/device-s51e.sh   (carry build-pack)
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
unpack_builds
{
cat "$O/device.txt"
shapes=("128 2 1024" "128 2 8192" "64 2 8192" "16 2 8192" "128 2 65536")
ab_shapes "build build-iq build-qa" "${shapes[@]}"
ab_shapes "build-qa build-iq build" "${shapes[@]}"
echo "t=$((SECONDS - t0)) s"
mega_trace build-qa qa-m128-kv1024 --m 128 --batch 2 --kv 1024
echo "t=$((SECONDS - t0)) s"
DIGEST_RUNS="build:serial build-qa:mega" run_digests "128 2 1024" "128 2 8192"
echo "t=$((SECONDS - t0)) s"
tiny_sanitize 80 build/tests/gpu/test_mega_prefix_san san
echo "t=$((SECONDS - t0)) s"
gpu_tests 160 test_mega_prefix
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
