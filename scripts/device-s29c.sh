#!/bin/bash
# Session 29, run 3: A0's rows in slices (--split A0=S: each slice a task that sums the whole
# row and normalizes, quantizes and stores its own 128-groups; add_rmsnorm_quant.c / .cuh).
# An A0 row is bound by its SM's issue rate (6.7 us a row in the step, most of it the second
# pass), on the M=16 critical path first. old.tar = 2d7fca1 (before the slices: the default
# code's A0 now reads its group range from the payload). test_mega_prefix on the new code (its
# new plans: A0=4 at M=16, A0=16 at M=1), racecheck of the reduced step (with A0=2), then the
# A B: old / new default, the sliced plans with the default's policy and tuning given.
# Run: timeout 560 bash scripts/device-s29c.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_old 6 build/megartp &
build_variant san "$SAN" tests/gpu/test_mega_prefix &
build_or_exit build/megartp build/tests/gpu/test_mega_prefix
wait
CP16="--policy critical-path --chunk E1=256"
{
echo "builds $((SECONDS - t0)) s"
gpu_tests 200 test_mega_prefix
sanitize racecheck 120 a0s build-san/tests/gpu/test_mega_prefix --tiny
echo "t=$((SECONDS - t0)) s"
mega_at /tmp/old/build old "16 2 8192"
mega_at build new "16 2 8192"
for s in 2 4 8; do mega_at build a0s$s "16 2 8192" $CP16 --split A0=$s,D1=2; done
mega_at build new2 "16 2 8192"
mega_at build a0s4b "16 2 8192" $CP16 --split A0=4,D1=2
mega_trace build a0s4-16-8192 --m 16 --batch 2 --kv 8192 $CP16 --split A0=4,D1=2 | grep -E "^  [A-F][0-9] |critical"
mega_trace build default-16-8192 | grep -E "^  [A-F][0-9] |critical"
echo "t=$((SECONDS - t0)) s"
mega_at /tmp/old/build old "1 1 8192"
mega_at build new "1 1 8192"
for s in 4 8 16; do mega_at build a0s$s "1 1 8192" --policy critical-path --split A0=$s; done
mega_at build new "1 1 1024"
mega_at build a0s8 "1 1 1024" --policy roundrobin --split A0=8
mega_at build new "16 2 65536"
mega_at build a0s4 "16 2 65536" --policy critical-path --split A0=4,D1=2
mega_at build a0s4 "16 2 1024" --policy roundrobin --split A0=4,D1=2
mega_at build new "16 2 1024"
for sh in "64 2 8192" "128 2 1024"; do
    mega_at /tmp/old/build old "$sh"
    mega_at build new "$sh"
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
