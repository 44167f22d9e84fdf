#!/bin/bash
# Session 32, run 3 (2026-12-01): run 2 found MRT_MEGA_STAGES=4 (every GEMM ring at most 4
# stages) 1.9-4.4 us faster at five shapes, D0 alone capped no faster: which ops' depth it is
# (B0, D1), and 5 / 6 stages, at M=16 KV=8192 twice; the best candidates at four more shapes.
# Run: timeout 400 bash scripts/device-s32c.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_or_exit build/megartp
stages_at() { # CFG "M B KV": mega_at with MRT_MEGA_STAGES=CFG (none: unset)
    local c=$1 l
    l=s-$(echo "$c" | tr ',=' '_-')
    if [ "$c" = none ]; then mega_at build "$l" "$2"; else MRT_MEGA_STAGES=$c mega_at build "$l" "$2"; fi
}
{
echo "builds $((SECONDS - t0)) s"
for rep in 1 2; do
    for c in none 4 5 6 B0=4 D1=4 B0=4,D1=4 D1=2 B0=4,D1=2 B0=3,D1=3 B0=4,D1=4,D0=6; do stages_at "$c" "16 2 8192"; done
done
for sh in "16 2 65536" "64 2 1024" "128 2 8192" "64 2 65536" "1 1 1024"; do
    for c in none 4 5 B0=4,D1=4; do stages_at "$c" "$sh"; done
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
