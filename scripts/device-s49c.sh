#!/bin/bash
# Session 49 run 5: -DMRT_ILW_RELEASE=1 as the tree's default (build/: E1's key buffers
# released by mbarriers, the keys one stream over the group chunks, 2 buffers) against the
# previous default (build-base/: a CTA barrier a pass) and the release only where a pass has 7
# units or more (build-rt/, -DMRT_ILW_RELEASE_MIN_UNITS=7: not at M=16, whose passes have 4):
# A B C in two rounds at four shapes, E1's
# task in traces at M=128 KV=65536; compute-sanitizer (memcheck, racecheck, synccheck) on
# test_mega_prefix --tiny; `megartp run` digests at three more shapes (run 4 checked M=128
# KV=65536 and M=16 KV=8192).
# Run: sh scripts/pack-builds.sh build build-base build-rt build/tests/gpu/test_mega_prefix;
#      timeout 480 bash scripts/device-s49c.sh   (carry build-pack)
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
unpack_builds
{
cat "$O/device.txt"
shapes=("128 2 65536" "64 2 65536" "16 2 8192" "16 2 65536")
ab_shapes "build-base build build-rt" "${shapes[@]}"
ab_shapes "build-rt build build-base" "${shapes[@]}"
echo "t=$((SECONDS - t0)) s"
for b in build-base build build-rt; do
    trace_phases_at $b $b "128 2 65536" "E1" "input ready" "compute done"
done
mega_tiny_sanitize 90 build rel
echo "t=$((SECONDS - t0)) s"
DIGEST_RUNS="build:serial build:mega build-rt:mega" run_digests "1 1 1024" "16 2 65536" "64 2 8192"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
