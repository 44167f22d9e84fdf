#!/bin/bash
# Session 47 run 7: serial and cmp with the final tree's E1 tile (its standalone kernels keep 2
# warpgroups; the tile's loop was rewritten around the warpgroup count) against 02059a2's, at
# M=128 KV=65536 (per op) and the default shape (serial, cmp, mega beside the read).
# Run: sh scripts/pack-builds.sh build build-old; timeout 200 bash scripts/device-s47g.sh   (carry build-pack)
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
unpack_builds
{
cat "$O/device.txt"
sc_ab "128 2 65536" build-old build build-old build
ab_bench "serial,cmp,mega" build-old build
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
