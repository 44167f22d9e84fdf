#!/bin/bash
# Session 13 run 3 (2026-11-30). The default after runs 1-2 (one full barrier a stage, plain
# progress stores; 0722657: barrier offsets compacted) tested again, then --place (f9bd59f):
# does keeping D0's and D2's tiles (48 MB of weights, off the critical path) away from the
# workers that run D1 and E1 (on it) shorten the step? Run 2's trace: E1's input ready at
# 53 us, its tasks visible only at 44-73 behind D0's tiles (done 72), E1 done 82, F1 95.
# Then traces (JSON kept) and the [E] shape sweep for the record.
# Run: timeout 580 bash scripts/device-s13c.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_or_exit
echo "build $((SECONDS - t0)) s"
{
gpu_tests 120 test_mega_prefix "test_gemm_fp8 --quick" "test_serial --quick" test_mega
echo "t=$((SECONDS - t0)) s"
ab_bench serial,cmp,mega build
P=("" "--place D1=0-63,E1=0-63,D0=64-131,D2=64-131" "--place D1=0-87,E1=0-87,D0=88-131,D2=88-131"
   "--place D1=0-43,E1=0-43,D0=44-131,D2=44-131" "--place E1=0-63,D0=64-131,D2=64-131"
   "--place D0=64-131,D2=64-131" "--split D1=2 --place D1=0-63,E1=0-63,D0=64-131,D2=64-131"
   "--place D0=88-131,D2=88-131" "--order A0,B0,C0,B1,D1,E1,D0,D2,F1 --place D0=64-131,D2=64-131")
for r in 1 2; do
    for i in "${!P[@]}"; do
        timeout 60 build/megartp bench glm5-prefix --modes mega ${P[$i]} > "$O/place-$i-$r.md" 2>&1
        echo "place $i round $r rc=$? [${P[$i]}] $(grep -E 'step, mega' "$O/place-$i-$r.md" | tr -s ' ' | cut -c1-90)"
    done
done
echo "t=$((SECONDS - t0)) s"
timeout 60 build/megartp run glm5-prefix --backend mega ${P[1]} > "$O/run-place1.txt" 2>&1
echo "run mega ${P[1]} rc=$? $(tail -1 "$O/run-place1.txt")"
for i in 0 1 2 4; do
    timeout 30 build/megartp trace glm5-prefix --backend mega ${P[$i]} -o "$O/trace-place$i.json" > "$O/trace-place$i.txt" 2>&1
    echo "trace place $i rc=$?"; sed -n 4,14p "$O/trace-place$i.txt"
done
echo "t=$((SECONDS - t0)) s"
e_sweep 470 540
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
