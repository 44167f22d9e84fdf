#!/bin/bash
# Session 51 run 2: D1's finalization jobs of several rows (build-iq/: mrt_mega_iq_rows_job, 4
# rows a job in the TN 64 and 128 kernels, 2 at TN 32, none below) against the tree before
# (build/): A B of the step in two rounds at six shapes, the traces at M=128 KV=1024 and M=64
# KV=8192 (D1's computed -> published), digests (mega = serial bytes), then build-iq's
# test_mega_prefix (--tiny, then the full test with its new 32- and 34-token cases).
# Run: sh scripts/pack-builds.sh build build-iq build-iq/tests/gpu/test_mega_prefix;
#      timeout 420 bash scripts/device-s51b.sh   (carry build-pack)
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
unpack_builds
{
cat "$O/device.txt"
shapes=("128 2 1024" "64 2 8192" "16 2 8192" "32 2 8192" "64 2 65536" "128 2 65536")
ab_shapes "build build-iq" "${shapes[@]}"
ab_shapes "build-iq build" "${shapes[@]}"
echo "t=$((SECONDS - t0)) s"
mega_trace build-iq iq-m128-kv1024 --m 128 --batch 2 --kv 1024
mega_trace build-iq iq-m64-kv8192 --m 64 --batch 2 --kv 8192
echo "t=$((SECONDS - t0)) s"
DIGEST_RUNS="build:serial build-iq:mega" run_digests "64 2 8192" "128 2 1024" "32 2 8192"
echo "t=$((SECONDS - t0)) s"
gpu_tests 60 "test_mega_prefix --tiny"
[ $((SECONDS - t0)) -lt 250 ] && gpu_tests $((400 - (SECONDS - t0))) test_mega_prefix
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
