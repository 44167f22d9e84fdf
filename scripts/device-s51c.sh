#!/bin/bash
# Session 51 run 3: D1's finalization jobs of several rows, by kernel (build-iq/: 2 rows a job
# at TN 64, 4 at TN 128, where ptxas left E1's tiles as they were; build-iq8/: 8 at TN 128)
# against the tree before (build/): A B C of the step in two rounds at six shapes, traces at
# M=128 KV=1024, digests (mega = serial bytes), build-iq's test_mega_prefix (full: its new 33-
# and 66-token cases) and compute-sanitizer on the SAN build's --tiny (its 64-token case takes
# the 2-row jobs).
# Run: cp build-san/tests/gpu/test_mega_prefix build-iq/tests/gpu/test_mega_prefix_san;
#      sh scripts/pack-builds.sh build build-iq build-iq8 build-iq/tests/gpu/test_mega_prefix \
#        build-iq/tests/gpu/test_mega_prefix_san; timeout 560 bash scripts/device-s51c.sh   (carry build-pack)
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
unpack_builds
{
cat "$O/device.txt"
shapes=("128 2 1024" "64 2 8192" "64 2 65536" "128 2 8192" "16 2 8192" "128 2 65536")
ab_shapes "build build-iq build-iq8" "${shapes[@]}"
ab_shapes "build-iq8 build-iq build" "${shapes[@]}"
echo "t=$((SECONDS - t0)) s"
mega_trace build-iq iq-m128-kv1024 --m 128 --batch 2 --kv 1024
mega_trace build-iq8 iq8-m128-kv1024 --m 128 --batch 2 --kv 1024
echo "t=$((SECONDS - t0)) s"
DIGEST_RUNS="build:serial build-iq:mega" run_digests "64 2 8192" "128 2 1024"
DIGEST_RUNS="build-iq8:mega" run_digests "128 2 1024" "128 2 8192"
echo "t=$((SECONDS - t0)) s"
gpu_tests 150 test_mega_prefix
echo "t=$((SECONDS - t0)) s"
tiny_sanitize 80 build/tests/gpu/test_mega_prefix_san san
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
