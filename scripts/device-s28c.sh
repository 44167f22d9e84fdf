#!/bin/bash
# Session 28, run 3: how long the step's first GEMM tiles (slot 0: B0, C0, B1) hold their
# weight loads back (MRT_MEGA_FIRST_WEIGHTS_NS, mega_gemm.cuh; 2000 since session 11, when 4000
# measured level with it on a 112-us step). A0's row (first op, critical path) takes 5.5 us
# input -> computed and 2.7 computed -> published in the step (session 28 run 1's trace),
# against 3.7 us for its whole standalone kernel: its loads and the release of its stores meet
# ~17 MB of weight requests. Builds fw0 / fw1000 / fw3500 / fw5000 beside the default (2000);
# a trace each at M=16 KV=8192 (A0 / B0 rows), then the A B at 7 shapes.
# Run: timeout 450 bash scripts/device-s28c.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
FW="0 1000 3500 5000"
for n in $FW; do build_variant fw$n -DMRT_MEGA_FIRST_WEIGHTS_NS=$n megartp & done
build_or_exit build/megartp
wait
{
echo "builds $((SECONDS - t0)) s"
for b in build build-fw0 build-fw1000 build-fw3500 build-fw5000; do
    l=${b#build-}; [ $b = build ] && l=fw2000
    mega_trace $b $l-16-8192 | grep -E "^  (A0|B0|D1) |critical"
done
for sh in "16 2 8192" "1 1 8192" "64 2 8192" "128 2 1024" "16 2 65536" "16 2 8192" "1 1 1024"; do
    for b in build build-fw0 build-fw1000 build-fw3500 build-fw5000; do
        l=${b#build-}; [ $b = build ] && l=fw2000
        mega_at $b $l "$sh"
    done
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
