#!/bin/bash
# Session 33, run 6: the chain link by link. Run 3 found the chain alone (no D0 / D2) 59.2-59.6
# us, 4 us under the step: its links are slow in themselves. Each prefix of the chain planned
# alone (`--ops`), measured under serial, cmp and mega in one bench (the same ops, the same
# tiling), and traced under mega: what each link adds in each executor.
# Binary from this machine's build (carried): build/megartp.
# Run: timeout 400 bash scripts/device-s33f.sh   (carry: build/megartp)
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
{
[ -x build/megartp ] || build_or_exit build/megartp
n=0
for args in "--ops A0" "--ops A0,B0,C0,B1" "--ops A0,B0,C0,B1,D1 --split D1=2" \
    "--ops A0,B0,C0,B1,D1,E1 --split D1=2 --chunk E1=256" "--ops A0,B0,C0,B1,D1,E1,F1 --split D1=2 --chunk E1=256" \
    "--split D1=2 --chunk E1=256"; do
    n=$((n + 1))
    f="$O/prefix-$n.md"
    timeout 90 build/megartp bench glm5-prefix --modes serial,cmp,mega $args > "$f" 2>&1
    echo "[$args] rc=$?"; grep -E 'step, |same-bytes' "$f" | tr -s ' ' | cut -c1-110
    mega_trace build prefix-$n $args | grep -E "^  (A0|B0|C0|B1|D1|E1|F1) |critical|span"
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
