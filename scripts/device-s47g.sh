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
for b in build-old build build-old build; do
    timeout 60 $b/megartp bench glm5-prefix --m 128 --batch 2 --kv 65536 --modes serial,cmp > "$O/sc-$b.md" 2>&1
    echo "$b M=128 KV=65536 rc=$? $(grep -E 'step, ' "$O/sc-$b.md" | tr -s ' ' | cut -c1-90 | tr '\n' ' ')"
    grep -E "^\| E1" "$O/sc-$b.md" | head -2 | cut -c1-100
done
ab_bench "serial,cmp,mega" build-old build
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
