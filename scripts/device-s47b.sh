#!/bin/bash
# Session 47 run 2: the megakernel's E1 on all three warpgroups (MRT_MEGA_ILW_WGS=3: a pass's
# units of 64 keys x one token group over warpgroups 0-2; warps 8-11 were idle in E1).
# Old (build-old/ = 02059a2) / new mega at seven shapes, a trace at M=128 KV=65536,
# test_mega_prefix (mega = serial bytes), test_mega, a second A B round.
# Run: sh scripts/pack-builds.sh build build-old build/tests/gpu/test_mega_prefix build/tests/gpu/test_mega;
#      timeout 560 bash scripts/device-s47b.sh   (carry build-pack)
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
unpack_builds
{
cat "$O/device.txt"
mega_ab "128 2 65536" "64 2 65536" "16 2 8192" "16 2 65536" "128 2 8192"
echo "t=$((SECONDS - t0)) s"
mega_trace build new --m 128 --batch 2 --kv 65536
echo "t=$((SECONDS - t0)) s"
mega_tests 200
echo "t=$((SECONDS - t0)) s"
mega_ab "128 2 65536" "64 2 65536" "1 1 65536" "64 2 8192" "16 2 8192" "128 2 1024"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
