#!/bin/bash
# Session 40 run 3 (2026-12-02): E1's loads by TMA in the megakernel (index_logits_wg.cuh
# TMA = true: warp 0 issues a pass's keys as one TMA box and one bulk copy of scales per cache
# block, a token group's queries as one box and its head weights as one bulk copy; every
# thread waits on mbarriers). build/ is the tree with it, build-s40base/ c25e5dd's (the same
# code with the cp.async copies); both built on this machine (nvcc 13.0, sm_90a), packed, with
# build/'s test_mega_prefix and test_mega (tests-*.gz). Checks first (mega = serial bytes, the
# watchdog), then A B at 7 shapes twice and E1's phases in a trace of each.
# Run: timeout 500 bash scripts/device-s40c.sh
. "$(dirname "$0")/device-common.sh"
unpack_builds
t0=$SECONDS
{
mega_checks_carried
for r in 1 2; do
    ab_shapes "build-s40base build" "16 2 8192" "1 1 8192" "16 2 65536" "64 2 8192" "128 2 1024" "64 2 65536" "1 1 65536"
done
echo "t=$((SECONDS - t0)) s"
for b in build-s40base build; do
    trace_phases_at $b $b "16 2 8192" "E1|F1|D2" "input ready" "compute done"
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
