#!/bin/bash
# Session 20 run 8 (2026-11-30): run 7's polls in flight lost (more poll traffic on the event
# lines); here the sleep between polls the other way and this way: build = 100 ns an event
# poll, 64 a group-ticket poll; s3 = 300 / 200; s03 = 30 / 20 (MRT_MEGA_POLL_NS,
# MRT_MEGA_HELP_POLL_NS).
# Run: timeout 280 bash scripts/device-s20h.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant s3 "-DMRT_MEGA_POLL_NS=300 -DMRT_MEGA_HELP_POLL_NS=200" megartp &
build_variant s03 "-DMRT_MEGA_POLL_NS=30 -DMRT_MEGA_HELP_POLL_NS=20" megartp &
build_or_exit build/megartp
wait
echo "builds $((SECONDS - t0)) s"
{
ab_bench mega build build-s3 build-s03
ab_shapes "build build-s3 build-s03" "64 2 8192"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
