#!/bin/bash
# Session 27, run 3: plan options against the tuned default plan, no code change (the tree is
# e45e1a1's code). Phase 1 at M=16 KV=8192: each candidate (a change on top of the tuned
# --split / --chunk, composed by scripts/plan_args.py) once, the default three times between
# them. Phase 2: the three fastest candidates against the default, alternated, at M=16
# KV=8192 (twice) and five more shapes; a trace of the fastest. Phase 3: [E]'s 12 shapes
# under roundrobin until the deadline.
# Run: timeout 560 bash scripts/device-s27c.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_or_exit build/megartp
echo "builds $((SECONDS - t0)) s" | tee "$O/summary.txt"
CANDS="split:B0=2 split:B0=3 split:B0=6 split:D1=4 split:D1=1 chunk:E1=128 chunk:E1=512 split:F1=2 policy:roundrobin
split:B1=8 split:C0=8 split:B1=8+split:C0=8 policy:critical-path"
# cand_at "M B KV" DELTA TAG: the candidate at the shape (args from the default's log there)
cand_at() {
    local s=($1) d=$2 tag=$3 args
    args=$(python3 scripts/plan_args.py "$O/at-base$tag-${s[0]}-${s[2]}.md" "$d")
    mega_at build "c$tag-$(echo "$d" | tr ':=+' '__-')" "$1" $args
}
{
sh="16 2 8192"
mega_at build base "$sh"
n=0
for d in $CANDS; do
    cand_at "$sh" "$d" ""
    n=$((n + 1)); [ $((n % 5)) = 0 ] && mega_at build base "$sh"
done
mega_at build base "$sh"
echo "t=$((SECONDS - t0)) s"
# the three fastest candidates by median at M=16 KV=8192
TOP=$(for d in $CANDS; do
    f="$O/at-c-$(echo "$d" | tr ':=+' '__-')-16-8192.md"
    v=$(grep -E 'step, mega' "$f" 2>/dev/null | sed -E 's/.*\*\*([0-9.]+)\*\* \(p10.*/\1/')
    [ -n "$v" ] && echo "$v $d"
done | sort -n | head -3 | cut -d' ' -f2)
echo "top: $TOP"
for sh in "16 2 8192" "1 1 8192" "16 2 1024" "64 2 8192" "128 2 1024" "16 2 65536" "16 2 8192"; do
    [ $((SECONDS - t0)) -gt 430 ] && break
    s=($sh)
    mega_at build base2 "$sh"
    for d in $TOP; do cand_at "$sh" "$d" 2; done
done
echo "t=$((SECONDS - t0)) s"
best=$(echo "$TOP" | head -1)
args=$(python3 scripts/plan_args.py "$O/at-base2-16-8192.md" "$best")
mega_trace build best-16-8192 $args | grep -E "^  [A-F][0-9] |critical"
sweep_until 520 build rr --policy roundrobin
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee -a "$O/summary.txt"
