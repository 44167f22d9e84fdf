#!/bin/bash
# Prepared in session 49 for the next session's first device call (not yet run):
#  1. test_mega_prefix (all 104 cases) on the committed default (session 49's run 6 skipped it:
#     its time guard);
#  2. the SASS of E1's tile functions (mrt_mega_il_tile_rel<0 / 1>, from build/src/cuda/mega.o)
#     and of the wgmma probe (scripts/wgmma_probe.cu): the head sums' instructions a unit
#     (~237 a warp by the probe's timing against 128 for the relu and the weighted sum);
#  3. `wgmma_probe --epi`: the head sums as fmax + fma (the tile's), as two fmas on |x| (FMA
#     pipe only), and half of each, alone and with the chains;
#  4. A B: the release's tiles inline in E1's function (build-ro/: -DMRT_MEGA_ILW_REL_OUTER=1)
#     against the default (behind a call), two rounds at three shapes.
# Run: (build-ro: cp -a build build-ro; rm -f build-ro/src/cuda/mega.o build-ro/libmegartp.a
#      build-ro/megartp; make BUILD=build-ro EXTRA_NVCCFLAGS=-DMRT_MEGA_ILW_REL_OUTER=1 build-ro/megartp)
#      sh scripts/pack-builds.sh build build-ro build/tests/gpu/test_mega_prefix;
#      timeout 360 bash scripts/device-s50a.sh   (carry build-pack, build/src/cuda/mega.o, build/wgmma_probe)
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
unpack_builds
{
cat "$O/device.txt"
timeout 60 build/wgmma_probe --epi > "$O/probe.txt" 2>&1
echo "probe rc=$?"; grep -E "MODE (1|5) EPI" "$O/probe.txt"
mega_sass
awk '/\.text\./{on = index($0, "il_tile") > 0} on' "$O/sass/mega.sass" | gzip > "$O/sass/il_tile.sass.gz"
rm -f "$O"/sass/*.cubin "$O/sass/mega.sass"
cuobjdump -sass build/wgmma_probe | gzip > "$O/sass/wgmma_probe.sass.gz"
ls -l "$O/sass"
echo "t=$((SECONDS - t0)) s"
shapes=("128 2 65536" "64 2 65536" "16 2 8192")
ab_shapes "build build-ro" "${shapes[@]}"
ab_shapes "build-ro build" "${shapes[@]}"
echo "t=$((SECONDS - t0)) s"
gpu_tests 200 test_mega_prefix
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
