#!/bin/bash
# Session 21 run 4 (2026-11-30): 30 clusters of 4 fit on the H200 (run 3), so clusters run at
# 120 workers. The cluster build was 7.9-8.2 us slower than the default without using its
# clusters (128 workers, runs 2-3). Here: at 120 workers, the cluster build with its clusters
# against the default (A B A B), both traces (what a cluster group's computed -> published
# became), the cluster build's test at 120 workers, and the default at 128 / 132 beside.
# Run: timeout 560 bash scripts/device-s21d.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant c4 -DMRT_MEGA_CLUSTER=4 "megartp" &
build_or_exit build/megartp
wait
{
echo "builds $((SECONDS - t0)) s"; grep -E "FAILED| error" "$O/build-c4.log" | head -5
timeout 60 build-c4/megartp run glm5-prefix --backend mega --workers 120 --split D1=4 > "$O/run-c4.txt" 2>&1
echo "run c4 120 rc=$?"; tail -2 "$O/run-c4.txt" | cut -c1-200
for r in 1 2; do
    mega_at build/ default132-$r "16 2 8192"
    mega_at build/ default120-$r "16 2 8192" --workers 120 --split D1=4
    mega_at build-c4/ c4-120-$r "16 2 8192" --workers 120 --split D1=4
done
for b in build build-c4; do
    mega_trace $b $b --workers 120 --split D1=4
done
for sh in "1 1 8192" "16 2 1024" "64 2 8192" "128 2 8192"; do
    [ $((SECONDS - t0)) -gt 400 ] && break
    mega_at build/ default120 "$sh" --workers 120 --split D1=4
    mega_at build-c4/ c4-120 "$sh" --workers 120 --split D1=4
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
