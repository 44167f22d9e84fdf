#!/bin/bash
# Session 44 run 4: tall D0 tiles with deeper rings. Run 3 had a tall D0 tile take 16.0 us
# input -> computed against 8.5 for a 128-row one: the megakernel's rings hold at most
# MRT_MEGA_RING_BYTES (64 KB) of weights, so 2 tall stages, the same bytes in flight an SM,
# the same ~30 GB/s. Here D0's ring at 3 and 4 tall stages (MRT_MEGA_STAGES=D0=N, no
# rebuild), and the default old / new again where run 3 saw them differ (M=16 KV=65536 +4.8,
# KV=8192 +0.3). The binaries of run 3 (carried build-pack).
# Run: timeout 400 bash scripts/device-s44d.sh   (carry build-pack of run 3)
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
unpack_builds
{
for s in "16 2 8192" "16 2 1024" "1 1 8192"; do
    mega_at build dflt "$s"
    mega_at build d0t "$s" --block-n D0=256
    MRT_MEGA_STAGES=D0=3 mega_at build d0t3 "$s" --block-n D0=256
    MRT_MEGA_STAGES=D0=4 mega_at build d0t4 "$s" --block-n D0=256
done
echo "t=$((SECONDS - t0)) s"
for s in "16 2 65536" "16 2 65536" "16 2 8192"; do
    mega_at build-old old "$s"
    mega_at build dflt "$s"
done
echo "t=$((SECONDS - t0)) s"
MRT_MEGA_STAGES=D0=4 mega_trace build d0t4 --block-n D0=256 | grep -E "^  (A0|B0|B1|C0|D1|D0|D2|E1|F1) |critical|span"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
