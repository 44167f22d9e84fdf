#!/bin/bash
# Session 44 run 5: the committed form, tall tiles off by default (-DMRT_MEGA_TALL=0: the fp8
# tile function without the tall branch; nvcc -Xptxas -v gives every mega kernel and tile
# function the spills of e24ae32), built on the development machine and carried: build/
# (megartp, test_mega_prefix, test_mega) and build-old/ (e24ae32). test_mega_prefix (with the
# default build's refusal of --block-n D0=256), test_mega, then old / new at the shapes where
# run 3-4's always-on form differed (M=16 KV=8192, KV=65536), alternated.
# Run: sh scripts/pack-builds.sh build build-old build/tests/gpu/test_mega_prefix
#      build/tests/gpu/test_mega; timeout 300 bash scripts/device-s44e.sh   (carry build-pack)
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
unpack_builds
{
gpu_tests 150 "test_mega_prefix" "test_mega"
grep -h "NoOp" "$O/test_mega.log" | tail -1
echo "t=$((SECONDS - t0)) s"
for s in "16 2 8192" "16 2 65536" "16 2 8192" "16 2 65536"; do
    mega_at build-old old "$s"
    mega_at build dflt "$s"
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
