#!/bin/bash
# Session 38 run 1 (2026-12-02): D1's split at few tokens (MEGAKERNEL.md session 37 next step
# 1: at M=1 KV=8192 D1 in one split measured 54.04 us against the tuned plan's 56.51, and the
# cost model prices it the other way). HEAD's megartp built on this machine and carried
# (build/megartp). The step at M = 1, 2, 4, 8 and KV 1024 / 8192 / 65536 with the default plan,
# D1 in 2 and in 1 split; a few other splits at M=1 KV=8192; then a plan --json and a trace of
# each default and D1=1 plan (the cost model's refit data, scripts/fit_costs.py).
# Run: timeout 560 bash scripts/device-s38a.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
{
for sh in "1 1 8192" "1 1 1024" "1 1 65536" "2 2 1024" "2 2 8192" "2 2 65536" "4 2 1024" "4 2 8192" "4 2 65536" \
    "8 2 1024" "8 2 8192" "8 2 65536"; do
    mega_at build default "$sh"
    mega_at build d1-2 "$sh" --split D1=2
    mega_at build d1-1 "$sh" --split D1=1
done
echo "t=$((SECONDS - t0)) s"
mega_at build b0-2 "1 1 8192" --split B0=2
mega_at build b1-8 "1 1 8192" --split B1=8
mega_at build d1-1-b0-2 "1 1 8192" --split D1=1,B0=2
mega_at build d1-1-rr "1 1 8192" --split D1=1 --policy roundrobin
mega_at build default-again "1 1 8192"
mega_at build d1-1-again "1 1 8192" --split D1=1
echo "t=$((SECONDS - t0)) s"
for sh in "1 1 1024" "1 1 8192" "1 1 65536" "2 2 8192" "4 2 8192" "8 2 1024" "8 2 8192" "8 2 65536" \
    "16 2 8192" "2 2 1024" "4 2 1024" "2 2 65536" "4 2 65536"; do
    [ $((SECONDS - t0)) -gt 520 ] && break
    for opts in "" "--split D1=1"; do
        tag=$([ -z "$opts" ] && echo default || echo d1-1)
        plan_trace build "$tag" "$sh" $opts | grep -E "^trace|critical"
    done
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
