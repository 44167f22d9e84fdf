#!/bin/bash
# Session 21 run 6 (2026-11-30): E1 in 256-key tasks (-DMRT_IL_CHUNK=256, host C: 64 tasks at
# M=16 KV=8192 instead of 128) with the indexer branch on its own workers (session 20's
# partition P1: --split D1=2 --place D1=0-63,E1=0-63,F1=0-15,D0=64-131,D2=64-131), so E1 is
# one round on 64 workers instead of two. What a 256-key E1 task takes now (7.1 us for 128
# keys; ~24 us in session 1's megakernel), from the traces.
# Run: timeout 400 bash scripts/device-s21f.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant_c c256 -DMRT_IL_CHUNK=256 megartp &
build_or_exit build/megartp
wait
{
echo "builds $((SECONDS - t0)) s"; grep -E "FAILED| error" "$O/build-c256.log" | head -5
P1="--split D1=2 --place D1=0-63,E1=0-63,F1=0-15,D0=64-131,D2=64-131"
for r in 1 2; do
    mega_at build/ default-$r "16 2 8192"
    mega_at build/ P1-$r "16 2 8192" $P1
    mega_at build-c256/ c256-$r "16 2 8192"
    mega_at build-c256/ c256P1-$r "16 2 8192" $P1
done
mega_trace build-c256 c256P1 $P1
timeout 60 build-c256/megartp run glm5-prefix --backend mega $P1 > "$O/run-c256.txt" 2>&1
echo "run c256 P1 rc=$? $(tail -1 "$O/run-c256.txt")"
for sh in "1 1 8192" "16 2 1024" "64 2 8192" "16 2 65536"; do
    [ $((SECONDS - t0)) -gt 330 ] && break
    mega_at build/ default "$sh"
    mega_at build-c256/ c256P1 "$sh" $P1
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
