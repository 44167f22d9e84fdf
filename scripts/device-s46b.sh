#!/bin/bash
# Session 46 run 2: where the large shapes go (mega 0.55-0.75x the read's rate, slower than
# serial at M >= 64): a mega trace (per op, the critical path) at M=128 KV=65536, M=64
# KV=65536, M=128 KV=1024, M=16 KV=65536, serial's at M=128 KV=65536, and serial / cmp / mega
# at M=128 and M=64 KV=65536.
# Run: sh scripts/pack-builds.sh build; timeout 300 bash scripts/device-s46b.sh   (carry build-pack)
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
unpack_builds
{
for s in "128 2 65536" "64 2 65536" "128 2 1024" "16 2 65536"; do
    set -- $s
    mega_trace build m$1-$3 --m $1 --batch $2 --kv $3
done
timeout 40 build/megartp trace glm5-prefix --backend serial --m 128 --batch 2 --kv 65536 -o "$O/trace-serial-128-65536.json" > "$O/trace-serial-128-65536.txt" 2>&1
sed -n "/^  op /,/critical path/p" "$O/trace-serial-128-65536.txt"
echo "t=$((SECONDS - t0)) s"
for s in "128 2 65536" "64 2 65536"; do
    set -- $s
    timeout 90 build/megartp bench glm5-prefix --m $1 --batch $2 --kv $3 --modes serial,cmp,mega > "$O/bench-$1-$3.md" 2>&1
    echo "bench M=$1 KV=$3 rc=$?"; grep -E "^\| (\*\*step|same)" "$O/bench-$1-$3.md"
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
