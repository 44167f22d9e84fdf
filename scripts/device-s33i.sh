#!/bin/bash
# Session 33, run 9 (written as the next session's device-next.sh, run at the end of session
# 33; runs 1-8 are scripts/device-s33a.sh .. s33h.sh, the final tree checked in run 8). E1's
# 128-key tasks were 1.8 us faster with the chain alone and 0.8 slower in the step (their
# workers busy with D0's tiles): traces of both chunks in the step and alone, to see which E1
# tasks start late and behind what. No build beyond build/megartp (carried from a local build).
# Run: timeout 300 bash scripts/device-s33i.sh   (carry: build/megartp)
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
{
[ -x build/megartp ] || build_or_exit build/megartp
chain="A0,B0,C0,B1,D1,E1,F1"
for e in 256 128; do
    mega_at build step-e$e "16 2 8192" --split D1=2 --chunk E1=$e
    mega_trace build step-e$e --split D1=2 --chunk E1=$e | grep -E "^  (D1|D0|E1|D2|F1) |critical|span"
    mega_trace build chain-e$e --ops $chain --split D1=2 --chunk E1=$e | grep -E "^  (D1|E1|F1) |critical|span"
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
