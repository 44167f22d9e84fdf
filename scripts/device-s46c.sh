#!/bin/bash
# Session 46 run 3: F1 at KV=65536 in the megakernel (run 2: M=128 a row 79 us in one task,
# the step's last 110 us after E1): more slices a row than the default rule's (rows x slices
# at most the workers), by --split, no code change.
# Run: timeout 300 bash scripts/device-s46c.sh   (carry build-pack from run 2)
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
unpack_builds
{
for f in 1 2 4; do mega_at build f1s$f "128 2 65536" --split F1=$f; done
for f in 2 4 8; do mega_at build f1s$f "64 2 65536" --split F1=$f; done
mega_trace build m128-f1s2 --m 128 --batch 2 --kv 65536 --split F1=2
mega_trace build m128-f1s4 --m 128 --batch 2 --kv 65536 --split F1=4
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
