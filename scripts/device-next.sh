#!/bin/bash
# The next session's first device run (written 2026-11-30, end of session 19): where E1's
# time goes. Session 19 ended at mega 80.4-81.7 us (M=16 KV=8192, roundrobin), serial 72.8,
# cmp 50.9 (bench/RESULTS.md "Session 19"); its trace's critical path is A0 -> B0 -> D1 -> E1
# -> F1, E1 7.3 us from input to computed for one pass of 128 keys (its 16 KB of keys, two
# token groups' 32 KB of queries, two m64n128 wgmma chains and their head sums). Prepared
# (default PTX identical): -DMRT_MEGA_IL_STOP=N, E1 tiles stopping after phase N (1 the loads,
# 2 the wgmmas, 3 the head sums without the stores); each build's step trace (E1 input ->
# computed) and E1 alone (`--ops E1`).
# Run: timeout 570 bash scripts/device-next.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant il1 -DMRT_MEGA_IL_STOP=1 megartp &
build_variant il2 -DMRT_MEGA_IL_STOP=2 megartp &
build_variant il3 -DMRT_MEGA_IL_STOP=3 megartp &
build_or_exit build/megartp
wait
echo "builds $((SECONDS - t0)) s"
{
mega_traces 400 build build-il1 build-il2 build-il3
for b in build build-il1 build-il2 build-il3; do
    timeout 30 $b/megartp trace glm5-prefix --backend mega --ops E1 -o "$O/trace-E1-$b.json" > "$O/trace-E1-$b.txt" 2>&1
    echo "E1 alone $b rc=$?"; grep -E "^  (op|E1) " "$O/trace-E1-$b.txt"
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
