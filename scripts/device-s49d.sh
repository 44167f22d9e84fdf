#!/bin/bash
# Session 49 run 6: the tree's default now takes E1's release (RELEASE 1, 2 key buffers) only
# where a pass has 8 units or more and the barrier's tile below (another instantiation; build/),
# against the release everywhere (build-rel/: run 5's build/) and the barrier everywhere
# (build-base/: 3a480fa's default): A B C in two rounds at four shapes; compute-sanitizer
# (memcheck, racecheck, synccheck) on the SAN build's test_mega_prefix --tiny (copied as
# test_mega_prefix_san; built with -DMRT_MEGA_ILW_RELEASE_UNITS=0 so that its M=16 cases take
# the release); digests; test_mega_prefix of build/ if time is left.
# Run: cp build-san/tests/gpu/test_mega_prefix build/tests/gpu/test_mega_prefix_san;
#      sh scripts/pack-builds.sh build build-rel build-base build/tests/gpu/test_mega_prefix \
#        build/tests/gpu/test_mega_prefix_san; timeout 330 bash scripts/device-s49d.sh   (carry build-pack)
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
unpack_builds
{
cat "$O/device.txt"
shapes=("128 2 65536" "64 2 65536" "16 2 8192" "16 2 65536")
ab_shapes "build-base build-rel build" "${shapes[@]}"
ab_shapes "build build-rel build-base" "${shapes[@]}"
echo "t=$((SECONDS - t0)) s"
tiny_sanitize 60 build/tests/gpu/test_mega_prefix_san san
echo "t=$((SECONDS - t0)) s"
run_digests "16 2 8192" "64 2 8192"
echo "t=$((SECONDS - t0)) s"
[ $((SECONDS - t0)) -lt 150 ] && gpu_tests $((300 - (SECONDS - t0))) test_mega_prefix
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
