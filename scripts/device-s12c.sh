#!/bin/bash
# Session 12, run 3: where a GEMM tile's k-loop time goes. Run 2's probe: B0's k-loop takes
# ~8.8 us after its input for 12 K blocks, 8 of them in shared memory before the input; the
# 12-stage ring (all 12 resident) was no faster. Probe (-DMRT_GEMM_PROBE): each fp8 tile's K
# block 0 and last K block data-ready times (consumer side), as trace phases, summarized by
# scripts/trace_phases.py: input -> K block 0 ready (activation TMA + scales), K block 0 ->
# last ready, last ready -> computed. Also one op alone (--ops D0, --ops D1, --ops B0) on
# the megakernel and on serial (the standalone kernel), and two queue orders.
# Run: timeout 400 bash scripts/device-s12c.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_with gp -DMRT_GEMM_PROBE megartp
{
PH=("input ready" "weights issued" visible "compute done" published)
timeout 30 build-gp/megartp trace glm5-prefix --backend mega -o "$O/trace-gp.json" > "$O/trace-gp.txt" 2>&1
echo "trace gp rc=$?"; python3 scripts/trace_phases.py "$O/trace-gp.json" "${PH[@]}"
for op in B0 D1 D0; do
    for be in mega serial; do
        timeout 30 build/megartp trace glm5-prefix --backend $be --ops $op -o "$O/trace-$op-$be.json" > "$O/trace-$op-$be.txt" 2>&1
        echo "trace --ops $op $be rc=$?"; sed -n 1,6p "$O/trace-$op-$be.txt" | grep -v '^$'
    done
    timeout 30 build-gp/megartp trace glm5-prefix --backend mega --ops $op -o "$O/trace-$op-gp.json" > "$O/trace-$op-gp.txt" 2>&1
    echo "trace --ops $op gp rc=$?"; python3 scripts/trace_phases.py "$O/trace-$op-gp.json" "${PH[@]}"
done
echo "t=$((SECONDS - t0)) s"
ORD=A0,B0,C0,B1,D1,E1,F1,D0,D2
for r in 1 2; do
    for pol in roundrobin critical-path; do
        for o in default $ORD; do
            oa=(); [ $o != default ] && oa=(--order $o)
            f="$O/bench-order-$pol-$r-${o:0:7}.md"
            timeout 40 build/megartp bench glm5-prefix --modes mega --reps 100 --policy $pol "${oa[@]}" > "$f" 2>&1
            echo "order $o $pol round $r rc=$? $(grep -E 'step, mega' "$f" | tr -s ' ' | cut -c1-100)"
        done
    done
done
timeout 30 build/megartp trace glm5-prefix --backend mega --order $ORD --policy critical-path -o "$O/trace-order.json" > "$O/trace-order.txt" 2>&1
echo "trace --order $ORD critical-path rc=$?"; sed -n 4,14p "$O/trace-order.txt"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
