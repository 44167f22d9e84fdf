#!/bin/bash
# Session 15, run 2 (after run 1 = scripts/device-next.sh: -DMRT_CVT_SELECT taken as the only
# conversion, -DMRT_MEGA_IQ_INPUTS_FIRST 0.4-1.3 us faster, within about the spread):
#   1. iq again, A B A B A B A B against the new default (serial, cmp, mega) and critical-path;
#   2. what an A0 row's 8.6-10.8 us are (one CTA, 384 threads, a 6144-wide row; the standalone
#      op takes 4.1 us): every op alone in the megakernel (--ops X: its time without the others'
#      traffic), A0 alone at M=16 / 128 / 256 (one row a task, then two: a cold first row shows
#      as the second row being cheaper), the A0 probe (-DMRT_MEGA_A0_PROBE: load round trip,
#      reduction, normalization + stores) alone and in the step, and ncu's stall reasons on
#      the A0-only megakernel (every sample is an A0 row's).
# Run: timeout 570 bash scripts/device-s15b.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant iq -DMRT_MEGA_IQ_INPUTS_FIRST megartp &
build_variant a0p -DMRT_MEGA_A0_PROBE megartp &
build_or_exit build/megartp
wait
echo "builds $((SECONDS - t0)) s"
{
ab_bench serial,cmp,mega build build-iq
mv "$O/bench-serial,cmp,mega-build-1.md" "$O/ab1-build-1.md"; mv "$O/bench-serial,cmp,mega-build-2.md" "$O/ab1-build-2.md"
ab_bench serial,cmp,mega build build-iq
cp_bench build build-iq
echo "t=$((SECONDS - t0)) s"
mega_traces 200 build build-a0p
python3 scripts/trace_phases.py "$O/trace-build-a0p.json" "input ready" "weights issued" visible "compute done" | head -3
for op in A0 B0 C0 B1 D1 D0 E1 D2 F1; do
    [ $((SECONDS - t0)) -gt 330 ] && break
    timeout 30 build/megartp trace glm5-prefix --backend mega --ops $op -o "$O/alone-$op.json" > "$O/alone-$op.txt" 2>&1
    echo "alone $op rc=$? $(grep -E "^  $op " "$O/alone-$op.txt")"
done
for m in 16 128 256; do
    [ $((SECONDS - t0)) -gt 360 ] && break
    timeout 30 build-a0p/megartp trace glm5-prefix --backend mega --ops A0 --m $m -o "$O/a0p-$m.json" > "$O/a0p-$m.txt" 2>&1
    echo "A0 alone probe M=$m rc=$? $(grep -E '^  A0 ' "$O/a0p-$m.txt")"
    python3 scripts/trace_phases.py "$O/a0p-$m.json" "input ready" "weights issued" visible "compute done" | tail -1
done
echo "t=$((SECONDS - t0)) s"
if [ $((SECONDS - t0)) -lt 380 ]; then
    timeout 150 ncu --kernel-name regex:mrt_mega_kernel --launch-skip 10 --launch-count 1 \
        --section SourceCounters --section WarpStateStats -o "$O/a0" \
        build/megartp bench glm5-prefix --m 128 --modes mega --reps 10 --ops A0 > "$O/ncu.log" 2>&1
    echo "ncu rc=$? $(grep -E '==PROF==|==ERROR==' "$O/ncu.log" | tail -3 | tr '\n' ' ')"
    ncu --import "$O/a0.ncu-rep" --page source --csv --print-source sass > "$O/src.csv" 2> "$O/src.err"
    python3 scripts/sass_stalls.py "$O/src.csv" 40 > "$O/stalls.txt" 2>&1
    head -60 "$O/stalls.txt"
    ncu --import "$O/a0.ncu-rep" --page details --csv > "$O/details.csv" 2>&1
    grep -E 'Warp Cycles Per Issued|Issued Ipc|Duration|Registers' "$O/details.csv" | head -8
    gzip -k "$O/src.csv"
fi
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
