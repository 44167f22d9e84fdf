#!/bin/bash
# Session 45 run 2: run 1's tall-D0 plan lost its gain to placement (one F1 row behind a D0
# tile and a D2 on a worker whose B0 finalization ran 7 us; D2's two tasks a D0 worker end
# 14 us after D0). Here the same plan with F1's rows kept on the A0 workers (--place F1=0-15,
# which run A0 -> D1 -> E1), D0's ring at 3 and 4 tall stages, against the default, at M=16
# KV=8192 / 1024 and M=1 KV=8192, and traces of the first. Binaries of run 1.
# Run: timeout 300 bash scripts/device-s45b.sh   (carry build-pack of run 1)
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
unpack_builds
T="--policy critical-path --split D1=2 --chunk E1=256 --block-n D0=256 --place F1=0-15"
{
MRT_MEGA_STAGES=D0=3 mega_trace build-tall p1s3 $T | grep -E "^  (A0|B0|B1|C0|D1|D0|D2|E1|F1) |critical|span"
MRT_MEGA_STAGES=D0=4 mega_trace build-tall p1s4 $T | grep -E "^  (A0|B0|B1|C0|D1|D0|D2|E1|F1) |critical|span"
echo "t=$((SECONDS - t0)) s"
for s in "16 2 8192" "16 2 1024" "16 2 8192" "1 1 8192"; do
    mega_at build dflt "$s"
    MRT_MEGA_STAGES=D0=3 mega_at build-tall p1s3 "$s" $T
    MRT_MEGA_STAGES=D0=4 mega_at build-tall p1s4 "$s" $T
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
