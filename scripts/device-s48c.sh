#!/bin/bash
# Session 48 run 3: the megakernel without C7510 (every wgmma tile inlined in the kernel body:
# -DMRT_MEGA_INLINE_GEMM=128 -DMRT_MEGA_INLINE_E1, so no call holds a wgmma and ptxas keeps
# E1's chains pipelined), with the ring (build-noser/) and without (build-noser0/), against
# build-base/ (f8a0343's tile, tiles called); the ring alone (build/) and with E1 alone inlined
# (build-inle1/) at the long shape. E1's task in traces (and loads + wgmmas, build-noser2/);
# the bytes of the inlined build (`megartp run` digests against build/'s serial).
# build/ here is the tree with -DMRT_ILW_RING=1 (the ring is off by default).
# (Not run in session 48: the device was refused four times.)
# Run: sh scripts/pack-builds.sh build build-base build-noser build-noser0 build-noser2 build-inle1;
#      timeout 500 bash scripts/device-s48c.sh   (carry build-pack)
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
unpack_builds
{
cat "$O/device.txt"
shapes=("128 2 65536" "64 2 65536" "16 2 8192" "1 1 1024")
ab_shapes "build-base build-noser build-noser0" "${shapes[@]}"
ab_shapes "build build-inle1" "128 2 65536"
ab_shapes "build-base build-noser" "${shapes[@]}"
echo "t=$((SECONDS - t0)) s"
for b in build-noser build-noser0 build-noser2; do
    trace_phases_at $b $b "128 2 65536" "E1|D0|B0|F1" "input ready" "compute done"
done
trace_phases_at build-base build-base "128 2 65536" "E1|D0|B0|F1" "input ready" "compute done"
echo "t=$((SECONDS - t0)) s"
DIGEST_RUNS="build:serial build-noser:mega" run_digests "128 2 65536" "16 2 8192"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
