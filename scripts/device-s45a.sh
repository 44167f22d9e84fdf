#!/bin/bash
# Session 45 run 1: why the indexer chain (D1 -> E1 -> F1) ends later when D0 is tall.
# Traces (JSON kept for offline analysis) at M=16 KV=8192 of the default plan in the default
# build (build/, e76af4c), the default plan in the tall build (build-tall/, the same code with
# -DMRT_MEGA_TALL=1: its E1 tile function compiles with more spills, 144 / 372 bytes against
# 92 / 212 at TN 16, though its PTX is identical) and --block-n D0=256 with a 3-stage D0 ring
# in the tall build; then the three A B'd with mega_at, twice.
# Run: sh scripts/pack-builds.sh build build-tall; timeout 400 bash scripts/device-s45a.sh  (carry build-pack)
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
unpack_builds
{
for i in 1 2; do
    mega_trace build dflt$i | grep -E "^  (A0|B0|B1|C0|D1|D0|D2|E1|F1) |critical|span"
    mega_trace build-tall tdflt$i | grep -E "^  (A0|B0|B1|C0|D1|D0|D2|E1|F1) |critical|span"
    MRT_MEGA_STAGES=D0=3 mega_trace build-tall d0t3-$i --block-n D0=256 | grep -E "^  (A0|B0|B1|C0|D1|D0|D2|E1|F1) |critical|span"
done
echo "t=$((SECONDS - t0)) s"
for s in "16 2 8192" "16 2 65536" "16 2 8192" "16 2 1024"; do
    mega_at build dflt "$s"
    mega_at build-tall tdflt "$s"
    MRT_MEGA_STAGES=D0=3 mega_at build-tall d0t3 "$s" --block-n D0=256
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
