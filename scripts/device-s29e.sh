#!/bin/bash
# Session 29, run 5: the final tree's checks (A0's slices changed the megakernel's A0, the
# standalone A0 kernels' range checks and the default plans below M=16): the four GPU tests,
# the `megartp run` digests, the three sanitizers on the reduced step (its default plan now
# slices A0's rows); M=16 plans with A0's rows in slices under roundrobin (run 3: 2.3 us faster
# at KV=1024, 1.6 slower at KV=8192 under critical-path), plan options only; the 12-shape
# sweep until the time is spent.
# Run: timeout 470 bash scripts/device-s29e.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
final_builds
{
echo "builds $((SECONDS - t0)) s"
final_checks
RR="--policy roundrobin --chunk E1=256"
mega_at build default "16 2 8192"
mega_at build rr "16 2 8192" $RR --split D1=2
mega_at build rra0s4 "16 2 8192" $RR --split A0=4,D1=2
mega_at build rra0s2 "16 2 8192" $RR --split A0=2,D1=2
mega_at build default "16 2 1024"
mega_at build rra0s4 "16 2 1024" --policy roundrobin --split A0=4,D1=2
mega_at build rra0s2 "16 2 1024" --policy roundrobin --split A0=2,D1=2
echo "t=$((SECONDS - t0)) s"
sweep_until 440 build sweep
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
