#!/bin/bash
# Session 14, run 2 (written 2026-11-30). Where the two group finalizations on the critical
# path go (B0's and D1's computed -> published: 8 us each, unchanged by keeping the sums in
# shared memory, run 1), and two cuts:
#   fsum   = -DMRT_EPI_FUSED_SUM: the epilogues sum the split planes as they read them, beside
#            their other row inputs (no sum -> barrier -> read back), serial and mega
#   whold1 = -DMRT_MEGA_WHOLD=1: D0's weight loads wait for its input (no prefetch beside B0's
#            and D1's finalizations); whold3 = D0's and D1's
#   fprobe / fsprobe = -DMRT_MEGA_FIN_PROBE (default / fsum): a member's finalization split
#            into ticket + wait for the group, claim + first job, the rest (trace phases)
#   fold   = -DMRT_FOLD_TEMPLATE: session 12's carried cleanup (two in-order warp folds as one
#            template), A B only
# Then session 13's prepared placement sweep and traces at M=64 / 128 (cost model data).
# Run: timeout 570 bash scripts/device-s14b.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant fsum -DMRT_EPI_FUSED_SUM "megartp build-fsum/tests/gpu/test_mega_prefix build-fsum/tests/gpu/test_serial" &
build_variant whold1 -DMRT_MEGA_WHOLD=1 "megartp" &
build_variant whold3 -DMRT_MEGA_WHOLD=3 "megartp" &
build_variant fprobe -DMRT_MEGA_FIN_PROBE "megartp" &
build_variant fsprobe "-DMRT_MEGA_FIN_PROBE -DMRT_EPI_FUSED_SUM" "megartp" &
build_variant fold -DMRT_FOLD_TEMPLATE "megartp build-fold/tests/gpu/test_mega_prefix" &
build_or_exit build/megartp
wait
echo "builds $((SECONDS - t0)) s"
{
build_tests 120 test_mega_prefix fsum
build_tests 60 "test_serial --quick" fsum
echo "t=$((SECONDS - t0)) s"
ab_bench serial,cmp,mega build build-fsum build-whold1 build-whold3 build-fold
cp_bench build build-fsum build-whold1 build-whold3
echo "t=$((SECONDS - t0)) s"
mega_traces 330 build build-fsum build-whold1 build-whold3
for b in fprobe fsprobe; do
    timeout 30 build-$b/megartp trace glm5-prefix --backend mega -o "$O/trace-$b.json" > "$O/trace-$b.txt" 2>&1
    echo "probe $b rc=$? (compute done -> group ready -> first job done -> published)"
    python3 scripts/trace_phases.py "$O/trace-$b.json" "compute done" "weights issued" visible published | grep -E "^op|^B0|^D1|^B1"
done
echo "t=$((SECONDS - t0)) s"
build_tests 120 test_mega_prefix fold
echo "t=$((SECONDS - t0)) s"
P=("" "--split D1=2 --place D1=0-63,E1=0-63,D0=64-131,D2=64-131"
   "--split D1=2 --place D1=0-63,E1=0-63,F1=0-15,D0=64-131,D2=64-131"
   "--order A0,B0,C0,B1,D1,E1,D0,D2,F1 --place F1=116-131,D0=0-115,D2=0-115"
   "--split D1=2 --order A0,B0,C0,B1,D1,E1,D0,D2,F1 --place D1=0-63,E1=0-63,D0=64-131,D2=64-131")
for i in "${!P[@]}"; do
    [ $((SECONDS - t0)) -gt 480 ] && break
    timeout 60 build/megartp bench glm5-prefix --modes mega ${P[$i]} > "$O/place-$i.md" 2>&1
    echo "place $i rc=$? [${P[$i]}] $(grep -E 'step, mega' "$O/place-$i.md" | tr -s ' ' | cut -c1-90)"
done
echo "t=$((SECONDS - t0)) s"
for s in "64 2 8192" "128 2 8192"; do
    set -- $s
    for pol in roundrobin critical-path; do
        [ $((SECONDS - t0)) -gt 530 ] && break 2
        f="$O/trace-m$1-$pol.txt"
        timeout 30 build/megartp trace glm5-prefix --m $1 --batch $2 --kv $3 --backend mega --policy $pol \
            -o "$O/trace-m$1-$pol.json" > "$f" 2>&1
        echo "trace M=$1 KV=$3 $pol rc=$?"; sed -n "/^  op /,/critical path/p" "$f"
    done
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
