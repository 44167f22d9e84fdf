#!/bin/bash
# Session 20 run 7 (2026-11-30): event and group polls with several loads in flight
# (mrt_mega_poll, MRT_MEGA_POLLS): one relaxed load at a time sees a count up to a round trip
# (and the sleep) late, on every edge of the critical path. build = one load (the poll loops
# as one helper), p2 / p4 = 2 / 4 in flight, base = 1181267's code (base-tree/, a copy of the
# commit, not committed).
# The experiment's code is 3d76a78, reverted in a035163 (p2 +0.9, p4 +1.9 us at M=16 KV=8192;
# bench/RESULTS.md session 20 run 7): to run this again, check out 3d76a78 first.
# Run: timeout 330 bash scripts/device-s20g.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant p2 -DMRT_MEGA_POLLS=2 megartp &
build_variant p4 -DMRT_MEGA_POLLS=4 "megartp build-p4/tests/gpu/test_mega_prefix" &
(make -C base-tree -j16 build/megartp > "$O/build-base.log" 2>&1 || echo "base build FAILED") &
build_or_exit build/megartp
wait
ln -sfn base-tree/build build-base
echo "builds $((SECONDS - t0)) s"
{
ab_bench mega build build-p2 build-p4 build-base
ab_shapes "build build-p4 build-base" "64 2 8192" "1 1 8192"
[ $((SECONDS - t0)) -lt 230 ] && build_tests 90 test_mega_prefix p4
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
