#!/bin/bash
# Session 23 run 6 (2026-11-30): [E]'s evidence on the session's last commit (the default plan
# now auto + tuning): the byte test (test_mega_prefix: the 12 shapes under both policies and
# the default plan, 1000 replays at M=16), the watchdog test and NoOp, the three sanitizers on
# the reduced-size step (roundrobin, --split F1=3, critical-path), and `make run` (the main
# job: serial, cmp, mega at M=16 KV=8192 on the default plan).
# Run: timeout 580 bash scripts/device-s23g.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
{
mega_builds
gpu_tests 200 test_mega_prefix
gpu_tests 60 test_mega
grep NoOp "$O/test_mega.log" | tail -1
timeout 60 make run > "$O/make-run.txt" 2>&1
echo "make run rc=$? $(grep -E 'step, |same-bytes|^glm5' "$O/make-run.txt" | tr -s ' ' | cut -c1-110 | tr '\n' ' ')"
echo "t=$((SECONDS - t0)) s"
mega_tiny_sanitize 110 build-san new
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
