#!/bin/bash
# Session 32, run 2 (2026-12-01): the GEMM rings' depth against the step's memory latency.
# Every GEMM tile streams up to 8 stages (16 KB of weights each) before its input is ready, so
# ~130 tiles can hold ~17 MB in flight (~4 us at the HBM's rate): the chain's one-shot loads
# (E1's lookups and keys, F1's row, the finalizations' planes) queue behind them (session 24:
# round trips of ~2.5 us under the step's load). MRT_MEGA_STAGES (environment, per op since
# this session) caps the depth; no rebuild. M=16 KV=8192 A B twice, three more shapes for the
# per-op caps, traces of the default and D0=2.
# Run: timeout 400 bash scripts/device-s32b.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_or_exit build/megartp
CFGS=(none 2 3 4 D0=2 D0=4 D0=2,D2=2 D0=3,D2=2,B1=2)
stages_at() { # CFG "M B KV": mega_at with MRT_MEGA_STAGES=CFG (none: unset)
    local c=$1 l
    l=s-$(echo "$c" | tr ',=' '_-')
    if [ "$c" = none ]; then mega_at build "$l" "$2"; else MRT_MEGA_STAGES=$c mega_at build "$l" "$2"; fi
}
{
echo "builds $((SECONDS - t0)) s"
for rep in 1 2; do for c in "${CFGS[@]}"; do stages_at "$c" "16 2 8192"; done; done
for sh in "16 2 1024" "64 2 8192" "128 2 1024" "1 1 8192"; do
    for c in none D0=2 D0=4 4 D0=2,D2=2; do stages_at "$c" "$sh"; done
done
echo "t=$((SECONDS - t0)) s"
mega_trace build none-16-8192 | grep -E "^  (A0|B0|D1|D0|E1|D2|F1) |critical|span"
MRT_MEGA_STAGES=D0=2 mega_trace build d02-16-8192 | grep -E "^  (A0|B0|D1|D0|E1|D2|F1) |critical|span"
MRT_MEGA_STAGES=4 mega_trace build all4-16-8192 | grep -E "^  (A0|B0|D1|D0|E1|D2|F1) |critical|span"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
