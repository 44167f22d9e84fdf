#!/bin/bash
# Session 39 run 1 (2026-12-02). (1) E1's tasks that start together when their input is
# published run ~35% slower than the same tasks later (session 38's traces, M=16 KV=65536:
# 131 tasks of 512 keys from 39.5-41.3 us all done at 58.1, the next 124 in 13 us): does the
# caches' block scatter cost it? HEAD's megartp (build/) against the same with the block table
# in order (build-ctg/: -DMRT_DIAG_BLOCKS_IN_ORDER, models/glm5_host.c), a plan + trace and
# the step at four shapes. (2) The placement at long context: the step under auto (the
# tuned plan) against roundrobin and critical-path with the same tiling, KV 16384..65536.
# Both binaries built on this machine (nvcc 13.0, sm_90a) and carried.
# Run: timeout 560 bash scripts/device-s39a.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
{
for sh in "16 2 65536" "64 2 65536" "16 2 8192" "1 1 65536"; do
    for b in build build-ctg; do
        plan_trace $b $b "$sh" | grep -E "^trace|^  (E1|D0|D2|F1) |critical"
    done
    mega_at build base "$sh"
    mega_at build-ctg ctg "$sh"
done
echo "t=$((SECONDS - t0)) s"
for sh in "16 2 65536" "64 2 65536" "1 1 65536" "2 2 65536" "4 2 65536" "8 2 65536" "32 2 65536" "128 2 65536" \
    "16 2 32768" "64 2 32768" "128 2 32768" "64 2 16384"; do
    [ $((SECONDS - t0)) -gt 500 ] && break
    s=($sh)
    tuned=$(build/megartp plan glm5-prefix --m ${s[0]} --batch ${s[1]} --kv ${s[2]} --json |
        python3 -c 'import json, sys; print(json.load(sys.stdin)["tuned"])')
    echo "M=${s[0]} KV=${s[2]}: tuned '$tuned'"
    mega_at build auto "$sh"
    mega_at build rr "$sh" $tuned --policy roundrobin
    mega_at build cp "$sh" $tuned --policy critical-path
done
echo "t=$((SECONDS - t0)) s"
for sh in "16 2 65536" "64 2 65536"; do
    [ $((SECONDS - t0)) -gt 530 ] && break
    s=($sh)
    tuned=$(build/megartp plan glm5-prefix --m ${s[0]} --batch ${s[1]} --kv ${s[2]} --json |
        python3 -c 'import json, sys; print(json.load(sys.stdin)["tuned"])')
    plan_trace build rr "$sh" $tuned --policy roundrobin | grep -E "^trace|critical"
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
