#!/bin/bash
# Session 51 run 1: where the large-M steps go (M=128 KV=1024 is 4.7x the same-bytes read and
# slower than serial; the finalizations' one-warp row jobs run in ~5 rounds there): serial,
# cmp and mega with serial's per-op table at M=128 KV=1024 and M=64 KV=8192, and the
# megakernel's trace at both (per-op phases, critical path).
# Run: sh scripts/pack-builds.sh build; timeout 200 bash scripts/device-s51a.sh   (carry build-pack)
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
unpack_builds
{
cat "$O/device.txt"
for s in "128 2 1024" "64 2 8192"; do
    set -- $s
    timeout 90 build/megartp bench glm5-prefix --m $1 --batch $2 --kv $3 --modes serial,cmp,mega > "$O/bench-$1-$3.md" 2>&1
    echo "bench M=$1 KV=$3 rc=$?"; cat "$O/bench-$1-$3.md" | head -60
    mega_trace build "m$1-kv$3" --m $1 --batch $2 --kv $3
    echo "t=$((SECONDS - t0)) s"
done
} 2>&1 | tee "$O/summary.txt"
