#!/bin/bash
# Session 22 run 2 (2026-11-30): run 1's F1-slices build was ~10 us slower than the old one
# with the old plan (--split F1=1). The kernel body now computes the group ticket inside the
# F1 call instead of before the switch; A B against the old build (old.tar) and a build with
# the slice code left out (-DMRT_MEGA_NO_TOPK_SLICES); traces of the default plan (F1 slices).
# (The switch was removed after the session: a rerun builds noslices as the default.)
# Run: timeout 500 bash scripts/device-s22c.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
mkdir -p /tmp/old && tar -xf old.tar -C /tmp/old
(cd /tmp/old && make -j6 build/megartp > "$O/build-old.log" 2>&1 || echo "old build FAILED") &
build_variant noslices -DMRT_MEGA_NO_TOPK_SLICES megartp &
build_or_exit build/megartp
wait
{
echo "builds $((SECONDS - t0)) s"
for sh in "16 2 8192" "1 1 1024" "16 2 1024"; do
    mega_at /tmp/old/build old "$sh"
    mega_at build-noslices noslices "$sh" --split F1=1
    mega_at build new-F1=1 "$sh" --split F1=1
    mega_at build new "$sh"
done
mega_trace build s16 --m 16 --batch 2 --kv 8192
mega_trace build s16-F1=1 --m 16 --batch 2 --kv 8192 --split F1=1
mega_trace build s1-65536 --m 1 --batch 1 --kv 65536
mega_trace build s1-8192 --m 1 --batch 1 --kv 8192
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
