#!/bin/bash
# Session 47 run 3 (H200 wanted; run 2 was an H100): old (build-old/ = 02059a2) / new (E1 on
# three warpgroups) mega at six shapes, twice; E1's phases at M=128 KV=65536 from traces of the
# new tree and its -DMRT_MEGA_IL_STOP=1 / 2 / 3 builds (loads; + MMAs; + epilogue math without
# the stores), and of the old tree.
# Run: sh scripts/pack-builds.sh build build-old build-s1 build-s2 build-s3; timeout 400 bash scripts/device-s47c.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
unpack_builds
{
cat "$O/device.txt"
mega_ab "128 2 65536" "64 2 65536" "16 2 8192" "16 2 65536" "1 1 65536" "128 2 1024"
echo "t=$((SECONDS - t0)) s"
for b in build-old build build-s1 build-s2 build-s3; do
    mega_trace $b $b --m 128 --batch 2 --kv 65536 | grep -E "trace|^  E1|critical"
done
echo "t=$((SECONDS - t0)) s"
mega_ab "128 2 65536" "64 2 65536" "16 2 8192" "16 2 65536" "1 1 65536" "128 2 1024"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
