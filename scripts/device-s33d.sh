#!/bin/bash
# Session 33, run 4: auto's placement margin with 4-stage rings (run 3: critical-path 3.4 us
# faster at M=64 KV=8192, where auto takes roundrobin at an estimate ratio of 0.990), at ten
# shapes of more than 16 tokens whose ratios lie near the 97% margin or whose KV was not in
# run 3: the default plan and the other placement with the same tuned tiling, twice. Then the
# chain alone (`--ops` without D0 / D2) with E1 in 128-key tasks against 256, traced; and
# -DMRT_MEGA_IL_WARM (diagnostic, 09d695b, removed after this run: an E1 tile runs dry on the other request's keys before its
# wait, so its code is warm in the SM's instruction caches and its data is not) against the
# default, on the chain alone (where E1's tiles wait ~13 us for D1) and the whole step, traced:
# what cold code costs E1's link. Binaries from this machine's builds (carried).
# Run: timeout 570 bash scripts/device-s33d.sh   (carry: build/megartp, build-warm/megartp)
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
{
[ -x build/megartp ] || build_or_exit build/megartp
# "M B KV|the other placement with the default's tiling" (auto's pick and estimates: the plan)
rows=("24 2 4096|--policy critical-path --split D1=2 --chunk E1=256"
    "32 2 8192|--policy roundrobin --split D1=2 --chunk E1=256"
    "48 2 8192|--policy roundrobin --split D1=2 --chunk E1=256"
    "64 2 8192|--policy critical-path --split D1=2 --chunk E1=256"
    "64 2 16384|--policy roundrobin --split D1=2 --chunk E1=256"
    "96 2 4096|--policy critical-path --split D1=2"
    "96 2 8192|--policy critical-path --split D1=2 --chunk E1=256"
    "128 2 4096|--policy roundrobin --split D1=2 --chunk E1=256"
    "48 2 65536|--policy roundrobin --split D1=2"
    "96 2 65536|--policy roundrobin --split D1=2")
for r in 1 2; do
    for row in "${rows[@]}"; do
        s=${row%%|*}
        set -- $s
        [ $r = 1 ] && echo "$s: $(build/megartp plan glm5-prefix --m $1 --batch $2 --kv $3 | grep placement: | cut -c1-110)"
        mega_at build default "$s"
        mega_at build other "$s" ${row#*|}
    done
done
echo "t=$((SECONDS - t0)) s"
s="16 2 8192"
chain="A0,B0,C0,B1,D1,E1,F1"
for r in 1 2; do
    mega_at build chain "$s" --ops $chain --split D1=2 --chunk E1=256
    mega_at build chain-e1-128 "$s" --ops $chain --split D1=2
done
mega_trace build chain-e1-128-16-8192 --ops $chain --split D1=2 | grep -E "^  (A0|B0|D1|E1|F1) |critical|span"
for r in 1 2; do
    mega_at build chain "$s" --ops $chain --split D1=2 --chunk E1=256
    mega_at build-warm chain-warm "$s" --ops $chain --split D1=2 --chunk E1=256
    mega_at build full "$s"
    mega_at build-warm full-warm "$s"
done
mega_trace build chain-16-8192 --ops $chain --split D1=2 --chunk E1=256 | grep -E "^  (A0|B0|D1|E1|F1) |critical|span"
mega_trace build-warm chain-warm-16-8192 --ops $chain --split D1=2 --chunk E1=256 | grep -E "^  (A0|B0|D1|E1|F1) |critical|span"
mega_trace build-warm full-warm-16-8192 | grep -E "^  (A0|B0|D1|D0|E1|D2|F1) |critical|span"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
