#!/bin/bash
# Session 30, run 1 (written as device-next.sh at the end of session 29; session 29's
# runs are scripts/device-s29a.sh .. s29e.sh; its final tree passed every GPU check in run 5).
# 1. M=16 plans with A0's rows in slices where every first GEMM tile still gets a worker of its
#    own (session 29: 4 slices = 64 tasks beside B0 84 + C0 16 + B1 16 put 64 GEMM tiles
#    behind a slice, 1.6 us slower under critical-path; A0 2 slices + B0 split 3 = 32 + 63 +
#    16 + 16 = 127 tasks; A0 2 slices + C0 and B1 in 8 tasks each = 32 + 84 + 8 + 8 = 132),
#    plan options only, beside the default; at KV=8192 (critical-path) and KV=1024
#    (roundrobin, where 4 slices were 2.0-2.3 us faster twice).
# 2. The finalization's first phase (-DMRT_MEGA_FIN_PROBE=1: computed -> the CTA knows the
#    group complete = its ticket's acq_rel round trip and the group wait; -> group 0's first
#    job done), B0's and D1's on the M=16 critical path (session 29 run 2: not the claim).
# Run: timeout 500 bash scripts/device-s30a.sh (at d2884e8)
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant fp1 -DMRT_MEGA_FIN_PROBE=1 megartp &
build_or_exit build/megartp
wait
CP="--policy critical-path --chunk E1=256"
RR="--policy roundrobin"
{
echo "builds $((SECONDS - t0)) s"
for rep in 1 2; do
    mega_at build default "16 2 8192"
    mega_at build a2b3 "16 2 8192" $CP --split A0=2,B0=3,D1=2
    mega_at build a2c8 "16 2 8192" $CP --split A0=2,C0=8,B1=8,D1=2
    mega_at build a4 "16 2 8192" $CP --split A0=4,D1=2
done
for rep in 1 2; do
    mega_at build default "16 2 1024"
    mega_at build a4rr "16 2 1024" $RR --split A0=4,D1=2
    mega_at build a2b3rr "16 2 1024" $RR --split A0=2,B0=3,D1=2
    mega_at build a2b3cp "16 2 1024" --policy critical-path --split A0=2,B0=3,D1=2
done
mega_trace build a2b3-16-8192 --m 16 --batch 2 --kv 8192 $CP --split A0=2,B0=3,D1=2 | grep -E "^  [A-F][0-9] |critical"
echo "t=$((SECONDS - t0)) s"
PH='"compute done" "weights issued" visible published'
mega_trace build-fp1 fp1-16-8192 | grep -E "^  (A0|B0|D1|E1|F1) |critical"
eval python3 scripts/trace_phases.py "$O/trace-fp1-16-8192.json" $PH | grep -E "^(op|B0|D1) "
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
