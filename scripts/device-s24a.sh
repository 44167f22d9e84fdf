#!/bin/bash
# Session 24 run 1 (2026-11-30): (1) the three sanitizers on the reduced step, owed since
# d11bb1c (E1's 8 resident groups); (2) where an E1 tile's 13 us go at M=16 KV=8192 (and
# M=128): the step traced with E1 stopped after its loads / MMAs / math (-DMRT_MEGA_IL_STOP),
# and E1 in 128- and 512-key tasks; (3) the SM clock while the megakernel benchmark runs;
# (4) traces and plans of the 12 shapes for the cost model's refit (scripts/fit_costs.py).
# Run: timeout 560 bash scripts/device-s24a.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant san "$SAN" tests/gpu/test_mega_prefix &
for s in 1 2 3; do build_variant il$s -DMRT_MEGA_IL_STOP=$s megartp & done
build_or_exit build/megartp
wait
{
echo "builds $((SECONDS - t0)) s"
mega_tiny_sanitize 150 build-san d11bb1c
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv -lms 100 \
    > "$O/clocks.csv" 2>&1 &
smi=$!
mega_at build default "16 2 8192"
kill $smi
echo "SM clock during the bench (MHz): $(awk -F, 'NR > 1 {print $2}' "$O/clocks.csv" | sort | uniq -c | sort -rn | head -4 | tr -s ' ' | tr '\n' ';')"
for sh in "16 2 8192" "128 2 8192"; do
    set -- $sh
    for b in build build-il1 build-il2 build-il3; do
        mega_trace $b "$(basename $b)-$1-$3" --m $1 --batch $2 --kv $3 | grep -E "^  (E1|F1) "
    done
done
for c in 128 512; do
    mega_trace build "E1=$c-16-8192" --policy critical-path --split D1=2 --chunk E1=$c | grep -E "^  (D1|E1|F1) |span"
done
refit_traces 480
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
