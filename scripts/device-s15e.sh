#!/bin/bash
# Session 15, run 5: run 4 measured session 14's placement (--split D1=2 --place
# D1=0-63,E1=0-63,F1=0-15,D0=64-131,D2=64-131) at 85.4-85.5 us against 91.5-91.9 for the default
# plan (session 14: 93.6 against 95.9). Before anything is made of it: what the split costs
# serial and cmp today (A B A B at M=16), whether it holds at the other shapes of [E] (M = 1,
# 64, 128 at KV=8192, M=16 at KV=65536) and under critical-path (split only), and its trace.
# Run: timeout 400 bash scripts/device-s15e.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_or_exit build/megartp
echo "build $((SECONDS - t0)) s"
P="--split D1=2 --place D1=0-63,E1=0-63,F1=0-15,D0=64-131,D2=64-131"
{
for r in 1 2; do
    timeout 60 build/megartp bench glm5-prefix --modes serial,cmp,mega > "$O/m16-default-$r.md" 2>&1
    echo "M=16 default $r rc=$? $(grep -E 'step, ' "$O/m16-default-$r.md" | tr -s ' ' | cut -c1-70 | tr '\n' ' ')"
    timeout 60 build/megartp bench glm5-prefix --modes serial,cmp,mega $P > "$O/m16-part-$r.md" 2>&1
    echo "M=16 partition $r rc=$? $(grep -E 'step, ' "$O/m16-part-$r.md" | tr -s ' ' | cut -c1-70 | tr '\n' ' ')"
done
timeout 60 build/megartp bench glm5-prefix --modes mega --policy critical-path --split D1=2 > "$O/m16-cp-split.md" 2>&1
echo "M=16 critical-path --split D1=2 rc=$? $(grep -E 'step, mega' "$O/m16-cp-split.md" | tr -s ' ' | cut -c1-70)"
for s in "1 1 8192" "64 2 8192" "128 2 8192" "16 2 65536"; do
    set -- $s
    [ $((SECONDS - t0)) -gt 300 ] && break
    timeout 60 build/megartp bench glm5-prefix --m $1 --batch $2 --kv $3 --modes mega --reps 50 > "$O/s-$1-$3-default.md" 2>&1
    echo "M=$1 KV=$3 default rc=$? $(grep -E 'step, mega' "$O/s-$1-$3-default.md" | tr -s ' ' | cut -c1-70)"
    timeout 60 build/megartp bench glm5-prefix --m $1 --batch $2 --kv $3 --modes mega --reps 50 $P > "$O/s-$1-$3-part.md" 2>&1
    echo "M=$1 KV=$3 partition rc=$? $(grep -E 'step, mega' "$O/s-$1-$3-part.md" | tr -s ' ' | cut -c1-70)"
done
timeout 30 build/megartp trace glm5-prefix --backend mega $P -o "$O/trace-part.json" > "$O/trace-part.txt" 2>&1
echo "trace partition rc=$?"; sed -n "/^  op /,/critical path/p" "$O/trace-part.txt"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
