#!/bin/bash
# Session 12, run 2. Run 1 (device-next.sh): mega 97.7 roundrobin / 96.0 critical-path, D0's
# and D1's tiles take one worker each, so D0 (input ready at 34 us, as D1's) waits behind D1
# on every worker, and E1 behind D0. Here: (1) D1 in fewer, longer tasks (--split D1=2, D1=1)
# so D0's tiles get the other workers at 34 us, both policies, serial and cmp beside (they
# take the plan's split); (2) a deeper GEMM ring (-DMRT_GEMM_MAX_STAGES=12: B0's 12 K blocks a
# split all issued before its input, D0's 16 in 12 + 4 refills) with mega = serial bytes
# (test_mega_prefix); (3) the probe build's trace (k-loop end / store end of each GEMM tile).
# Run: timeout 560 bash scripts/device-s12b.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant st12 -DMRT_GEMM_MAX_STAGES=12 "megartp build-st12/tests/gpu/test_mega_prefix" &
build_variant probe -DMRT_MEGA_PROBE megartp &
build_or_exit
wait
echo "builds $((SECONDS - t0)) s"
{
for sp in D1=2 D1=1; do
    for be in serial mega; do
        timeout 60 build/megartp run glm5-prefix --backend $be --split $sp > "$O/run-$be-$sp.txt" 2>&1
        echo "run $be --split $sp rc=$? $(tail -1 "$O/run-$be-$sp.txt")"
    done
done
# split x policy, mega with serial and cmp beside
for r in 1 2; do
    for sp in none D1=2 D1=1; do
        sa=(); [ $sp != none ] && sa=(--split $sp)
        for pol in roundrobin critical-path; do
            f="$O/bench-split-$sp-$pol-$r.md"
            timeout 60 build/megartp bench glm5-prefix --modes serial,cmp,mega --reps 100 --policy $pol "${sa[@]}" > "$f" 2>&1
            echo "split $sp $pol round $r rc=$? $(grep -E 'step, ' "$f" | tr -s ' ' | cut -c1-70 | tr '\n' ' ')"
        done
    done
done
echo "t=$((SECONDS - t0)) s"
for sp in D1=2 D1=1; do
    for pol in roundrobin critical-path; do
        timeout 30 build/megartp trace glm5-prefix --backend mega --split $sp --policy $pol -o "$O/trace-$sp-$pol.json" > "$O/trace-$sp-$pol.txt" 2>&1
        echo "trace --split $sp $pol rc=$?"; sed -n 4,14p "$O/trace-$sp-$pol.txt"
    done
done
echo "t=$((SECONDS - t0)) s"
build_tests 150 test_mega_prefix st12
ab_bench serial,cmp,mega build build-st12
mega_traces 500 build-st12 build-probe
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
