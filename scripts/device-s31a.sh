#!/bin/bash
# Session 31 run 1 (written 2026-12-01, end of session 30; session 30's runs
# are scripts/device-s30a.sh .. s30g.sh).
# 1. The final tree's checks: session 30's last rule change (A0 in 32 tasks at M=2..8, e69e553)
#    ran `megartp run` mega = serial at M=2, 4, 8 and test_serial (run 6), but neither
#    test_mega_prefix (its M=4 default plan: 8 slices now) nor the sanitizers on the reduced
#    step (`--tiny`, M=4: its default plan now 8 slices a row, 4 in run 3's check).
# 2. auto's placement at KV=1024: the cost model prices roundrobin and critical-path equal
#    there and takes roundrobin (critical-path only below 97%); at M=16 critical-path measured
#    60.2-60.5 us against roundrobin's 61.1-61.5 (session 30 runs 1, 3). At each KV=1024 shape
#    auto's plan and the other placement with tuning's picks (--policy turns tuning off: its
#    splits given; auto takes critical-path at M=64 and 128), twice, to see whether the tie
#    should go to critical-path.
# Run: timeout 560 bash scripts/device-s31a.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
final_builds
{
echo "builds $((SECONDS - t0)) s"
final_checks
for rep in 1 2; do
    for s in "1 1 1024" "2 2 1024" "4 2 1024" "8 2 1024" "16 2 1024" "64 2 1024" "128 2 1024"; do
        set -- $s
        split=""; [ "$1" != 1 ] && split="--split D1=2"
        other=critical-path; [ "$1" -ge 64 ] && other=roundrobin # auto's pick is the other one
        mega_at build auto "$s"
        mega_at build $other "$s" --policy $other $split
    done
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
