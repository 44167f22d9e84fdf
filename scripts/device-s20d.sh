#!/bin/bash
# Session 20 run 4 (2026-11-30): run 3 measured the partitioned placement again on the new
# default (M=16 KV=8192): `--split D1=2 --place D1=0-63,E1=0-63,F1=0-15,D0=64-131,D2=64-131`
# 77.70 us against 79.1-80.6 (session 14: faster at M <= 16 KV=8192, 31-103 us slower at
# M >= 64 and KV=65536). Here: its variants at M=16 KV=8192 (A B A B), then the partition
# against the default at the other shapes, to see where a shape rule could take it.
# Run: timeout 570 bash scripts/device-s20d.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_or_exit build/megartp
echo "builds $((SECONDS - t0)) s"
# mega_args LABEL "M B KV" ARGS...: megartp bench --modes mega at the shape with the args
mega_args() {
    local l=$1 s=($2)
    shift 2
    timeout 40 build/megartp bench glm5-prefix --m ${s[0]} --batch ${s[1]} --kv ${s[2]} --modes mega "$@" \
        > "$O/pl-$l-${s[0]}-${s[2]}.md" 2>&1
    echo "M=${s[0]} KV=${s[2]} $l rc=$? $(grep -E 'step, mega' "$O/pl-$l-${s[0]}-${s[2]}.md" | tr -s ' ' | cut -c40-100)"
}
{
S="--split D1=2"
for r in 1 2; do
    mega_args default "16 2 8192"
    mega_args P1 "16 2 8192" $S --place D1=0-63,E1=0-63,F1=0-15,D0=64-131,D2=64-131
    mega_args P2 "16 2 8192" $S --place D1=0-63,E1=0-63,F1=0-15,D0=64-131
    mega_args P3 "16 2 8192" $S --place D1=0-63,E1=0-63,D0=64-131,D2=64-131
    mega_args P4 "16 2 8192" $S --place D1=0-71,E1=0-71,F1=0-15,D0=72-131,D2=72-131
    mega_args P5 "16 2 8192" $S --place D1=0-55,E1=0-55,F1=0-15,D0=56-131,D2=56-131
done
for sh in "1 1 1024" "1 1 8192" "1 1 65536" "16 2 1024" "16 2 65536" "64 2 1024" "64 2 8192" "128 2 1024" "128 2 8192"; do
    [ $((SECONDS - t0)) -gt 480 ] && break
    mega_args default "$sh"
    mega_args P1 "$sh" $S --place D1=0-63,E1=0-63,F1=0-15,D0=64-131,D2=64-131
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
