#!/bin/bash
# Session 49 run 4: E1's key buffers released by mbarriers instead of a CTA barrier a pass, the
# keys one stream over the tile's group chunks (-DMRT_ILW_RELEASE, index_logits_wg.cuh): =1
# warp 0 issues pass q + STAGES - 1's keys at pass q's start (build-r1/: 2 buffers;
# build-r1s3/: 3), =2 after its own units of pass q (build-r2s3/, 3 buffers); 3 buffers with the
# barriers (build-s3/, -DMRT_MEGA_ILW_STAGES=3); build/ = the tree's default (barriers, 2).
# Checks: `megartp run` digests of each variant's mega against build/'s serial;
# test_mega_prefix of build-r2s3 (copied as test_mega_prefix_r2s3) and compute-sanitizer
# (memcheck, racecheck, synccheck) on its --tiny case. Then A B at five shapes, E1's task in
# traces at M=128 KV=65536.
# Run: cp build-r2s3/tests/gpu/test_mega_prefix build/tests/gpu/test_mega_prefix_r2s3;
#      sh scripts/pack-builds.sh build build-s3 build-r1 build-r1s3 build-r2s3 \
#        build/tests/gpu/test_mega_prefix_r2s3; timeout 590 bash scripts/device-s49b.sh
#      (carry build-pack, build/src/cuda/mega.o, build/wgmma_probe)
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
unpack_builds
{
cat "$O/device.txt"
DIGEST_RUNS="build:serial build:mega build-s3:mega build-r1:mega build-r1s3:mega build-r2s3:mega" \
    run_digests "128 2 65536" "16 2 8192"
DIGEST_RUNS="build:serial build-r2s3:mega" run_digests "1 1 1024" "16 2 65536" "64 2 8192"
gpu_tests 150 test_mega_prefix_r2s3
tiny_sanitize r2s3 build/tests/gpu/test_mega_prefix_r2s3 150   # (arguments in the wrong order: nothing ran; tiny_sanitize LIMIT BINARY NAME)
echo "t=$((SECONDS - t0)) s"
shapes=("128 2 65536" "64 2 65536" "16 2 8192" "16 2 65536" "1 1 1024")
ab_shapes "build build-s3 build-r1 build-r1s3 build-r2s3" "${shapes[@]}"
echo "t=$((SECONDS - t0)) s"
ab_shapes "build build-r1s3 build-r2s3" "${shapes[@]}"
echo "t=$((SECONDS - t0)) s"
for b in build build-r1s3 build-r2s3; do
    trace_phases_at $b $b "128 2 65536" "E1" "input ready" "compute done"
done
echo "t=$((SECONDS - t0)) s"
# SASS: the tile's function (build/src/cuda/mega.o, carried) and the wgmma probe's kernels
mega_sass
awk '/\.text\./{on = index($0, "il_tile_wg") > 0} on' "$O/sass/mega.sass" | gzip > "$O/sass/il_tile_wg.sass.gz"
rm -f "$O"/sass/*.cubin "$O/sass/mega.sass"
cuobjdump -sass build/wgmma_probe | gzip > "$O/sass/wgmma_probe.sass.gz"
ls -l "$O/sass"
} 2>&1 | tee "$O/summary.txt"
