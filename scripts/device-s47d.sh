#!/bin/bash
# Session 47 run 4: the three-warpgroup E1 (MRT_MEGA_ILW_WGS=3) under compute-sanitizer on the
# reduced step (test_mega_prefix --tiny, device-common.sh's SAN flags: memcheck, racecheck,
# synccheck); `megartp run` serial = mega (and the naive reference) at M=128 KV=65536 and at
# M=1 KV=32768 with one F1 task a row (session 46's pending check of the 24-bit-prefix row).
# Run: sh scripts/pack-builds.sh build build-san/tests/gpu/test_mega_prefix (packed as
#      tests-test_mega_prefix: the SAN build); timeout 400 bash scripts/device-s47d.sh   (carry build-pack)
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
unpack_builds
{
cat "$O/device.txt"
run_digests "128 2 65536"
DIGEST_ARGS="--split F1=1" run_digests "1 1 32768"
echo "t=$((SECONDS - t0)) s"
tiny_sanitize 110 build/tests/gpu/test_mega_prefix san
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
