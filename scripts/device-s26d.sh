#!/bin/bash
# Session 26 run 4: why run 3's F1 tree (364b863) was slower at M=128 KV <= 8192 (174.4
# against 169.7 us at KV=1024, 191.4 against 188.8 at KV=8192) while faster elsewhere: old
# (old.tar = 4a7ffe1), new, nostage (-DMRT_TOPK_STAGE_EMIT=0) and loads1 (-DMRT_TOPK_LOADS=1:
# pass 0 one float4 a thread at a time again, in the new loop) at M=128 KV=1024 and 8192, two
# rounds, and traces of old and new at M=128 KV=1024 (F1's input -> computed, the critical
# path). Run: timeout 300 bash scripts/device-s26d.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_old 6 build/megartp &
build_variant nostage -DMRT_TOPK_STAGE_EMIT=0 megartp &
build_variant loads1 -DMRT_TOPK_LOADS=1 megartp &
build_or_exit build/megartp
wait
{
echo "builds $((SECONDS - t0)) s"
for r in 1 2; do
    for sh in "128 2 1024" "128 2 8192"; do
        mega_at /tmp/old/build old-$r "$sh"
        mega_at build new-$r "$sh"
        mega_at build-nostage nostage-$r "$sh"
        mega_at build-loads1 loads1-$r "$sh"
    done
done
echo "t=$((SECONDS - t0)) s"
mega_trace /tmp/old/build old-128-1024 --m 128 --batch 2 --kv 1024 | grep -E "^  [A-F][0-9] |critical"
mega_trace build new-128-1024 --m 128 --batch 2 --kv 1024 | grep -E "^  [A-F][0-9] |critical"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
