#!/bin/bash
# Session 45 run 3: B0's tiles are on both chains (A0 -> B0 -> D0 -> D2 and -> D1 -> E1 -> F1)
# and their input -> computed (7.4-7.9 us for 16 K blocks) is the k-loop streaming 192 KB
# after the input at ~0.5 us a K block (4 stages, 64 KB in flight). Deeper rings for B0 alone,
# and for D0 / D1 alone, by MRT_MEGA_STAGES (no rebuild; the default build of run 1), A B
# against the default at M=16 KV=8192 and 1024, M=1 KV=8192; traces of B0=8.
# Run: timeout 300 bash scripts/device-s45c.sh   (carry build-pack of run 1)
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
unpack_builds
{
MRT_MEGA_STAGES=B0=8 mega_trace build b0s8 | grep -E "^  (A0|B0|B1|C0|D1|D0|D2|E1|F1) |critical|span"
MRT_MEGA_STAGES=B0=8,D0=8 mega_trace build b0d0s8 | grep -E "^  (A0|B0|B1|C0|D1|D0|D2|E1|F1) |critical|span"
echo "t=$((SECONDS - t0)) s"
for s in "16 2 8192" "16 2 1024" "1 1 8192" "16 2 8192"; do
    mega_at build dflt "$s"
    MRT_MEGA_STAGES=B0=6 mega_at build b0s6 "$s"
    MRT_MEGA_STAGES=B0=8 mega_at build b0s8 "$s"
    MRT_MEGA_STAGES=B0=8,D0=8 mega_at build b0d0s8 "$s"
    MRT_MEGA_STAGES=D0=8 mega_at build d0s8 "$s"
    MRT_MEGA_STAGES=D1=8 mega_at build d1s8 "$s"
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
