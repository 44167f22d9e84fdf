#!/bin/bash
# Session 39 run 2 (2026-12-02). (1) The placement above 16 tokens: run 1 measured roundrobin
# 12-16 us faster than critical-path (auto's pick) at M=32 KV=65536 and M=64 KV=32768 / 65536,
# 2-4 at M=64 KV=16384, level at M=128 KV=32768, with the tuned tiling: the step under each
# policy with the tiling tuning picks, at M 24..128 around KV 8192..65536. (2) E1's tasks
# after a GEMM on their worker take ~5.5 us more than after another E1 (run 1's traces, M=16
# and 64 KV=65536, either policy): traces of E1's tile cut after its loads
# (-DMRT_MEGA_IL_STOP=1, build-stop1/) and without its keys (-DMRT_ILW_DIAG_NOKEYS,
# build-nokeys/), a plan --json beside each. HEAD's megartp (build/) and the two variants,
# built on this machine (nvcc 13.0, sm_90a), packed by scripts/pack-builds.sh and carried.
# Run: timeout 560 bash scripts/device-s39b.sh
. "$(dirname "$0")/device-common.sh"
unpack_builds
t0=$SECONDS
{
for b in build build-stop1 build-nokeys; do
    for sh in "16 2 65536" "64 2 65536" "16 2 8192"; do
        plan_trace $b $b "$sh" | grep -E "^trace|^  E1 |critical"
    done
done
echo "t=$((SECONDS - t0)) s"
for sh in "24 2 8192" "32 2 8192" "48 2 8192" "24 2 16384" "32 2 16384" "48 2 16384" "96 2 16384" "128 2 16384" \
    "24 2 32768" "32 2 32768" "48 2 32768" "96 2 32768" "24 2 65536" "48 2 65536" "96 2 65536"; do
    [ $((SECONDS - t0)) -gt 520 ] && break
    s=($sh)
    tuned=$(build/megartp plan glm5-prefix --m ${s[0]} --batch ${s[1]} --kv ${s[2]} --json |
        python3 -c 'import json, sys; print(json.load(sys.stdin)["tuned"])')
    echo "M=${s[0]} KV=${s[2]}: tuned '$tuned'"
    mega_at build rr "$sh" $tuned --policy roundrobin
    mega_at build cp "$sh" $tuned --policy critical-path
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
