#!/bin/bash
# Session 32, run 5 (2026-12-01): around the 4-stage rings (run 4's tree). The first GEMM tiles'
# weight hold (MRT_MEGA_FIRST_WEIGHTS_NS, 2 us, tuned with 8-stage rings in session 28) at 0, 1
# and 3.5 us against 2, and per-op ring depths around 4 (MRT_MEGA_STAGES), at M=16 KV=8192 twice
# and three more shapes.
# Run: timeout 500 bash scripts/device-s32e.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
for h in 0 1000 3500; do build_variant h$h -DMRT_MEGA_FIRST_WEIGHTS_NS=$h megartp & done
build_or_exit build/megartp
wait
stages_at() { # CFG "M B KV": mega_at of build/ with MRT_MEGA_STAGES=CFG
    MRT_MEGA_STAGES=$1 mega_at build "s-$(echo "$1" | tr ',=' '_-')" "$2"
}
{
echo "builds $((SECONDS - t0)) s"
for rep in 1 2; do ab_shapes "build build-h0 build-h1000 build-h3500" "16 2 8192"; done
ab_shapes "build build-h0 build-h1000 build-h3500" "1 1 1024" "64 2 8192" "128 2 1024"
echo "t=$((SECONDS - t0)) s"
for rep in 1 2; do
    mega_at build ring4 "16 2 8192"
    for c in B0=6 B0=5 D1=6 D1=3 D0=3 D0=5 B0=6,D1=6; do stages_at "$c" "16 2 8192"; done
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
