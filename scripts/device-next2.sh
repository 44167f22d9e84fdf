#!/bin/bash
# The next session's second device run (written 2026-11-30, end of session 13): placements
# and orders, CLI only (session 13 run 3: --split D1=2 with D1, E1 on workers 0-63 and D0, D2
# on 64-131 was 2 us faster than the default), then traces at M=64 and 128 under both
# policies: the critical-path policy's cost model (schedule.c: a fixed cost per instruction
# kind, from M=16 traces) estimates M=128 KV=8192 at 143.8 us under both policies, measured
# 285 (roundrobin) and 358 (critical-path); per-op phases at larger M are what a cost per
# kind that scales with the tile's tokens needs. Put the winning build flags of
# device-next.sh in FLAGS to run it on them (and add its sanitizer run:
# mega_tiny_sanitize 90 build-san NAME with scripts/device-s13f.sh's flags plus FLAGS).
# Also the carried cleanup's A B: fold = -DMRT_FOLD_TEMPLATE (the fold factor's and INDEX_Q's
# gate sums through one template, mrt_warp_fold_in_order; same operations, different PTX).
# Level: make it the default and drop the two loops; slower: drop the template.
# Run: timeout 570 bash scripts/device-next2.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
FLAGS=""
build_variant fold "$FLAGS -DMRT_FOLD_TEMPLATE" "megartp build-fold/tests/gpu/test_mega_prefix build-fold/tests/gpu/test_serial" &
build_or_exit build/megartp EXTRA_NVCCFLAGS="$FLAGS"
wait
echo "builds $((SECONDS - t0)) s"
{
build_tests 120 test_mega_prefix fold
build_tests 60 "test_serial --quick" fold
ab_bench serial,cmp,mega build build-fold
echo "t=$((SECONDS - t0)) s"
P=("" "--split D1=2 --place D1=0-63,E1=0-63,D0=64-131,D2=64-131"
   "--split D1=2 --place D1=68-131,E1=68-131,D0=0-67,D2=0-67"
   "--split D1=2 --place D1=0-63,E1=0-63,F1=0-15,D0=64-131,D2=64-131"
   "--split D1=2 --place D1=0-63,E1=0-63,D0=64-131"
   "--split D1=2 --place D1=0-65,E1=0-65,D0=66-131,D2=66-131"
   "--order A0,B0,C0,B1,D1,E1,D0,D2,F1 --place F1=116-131,D0=0-115,D2=0-115"
   "--split D1=2 --order A0,B0,C0,B1,D1,E1,D0,D2,F1 --place D1=0-63,E1=0-63,D0=64-131,D2=64-131")
for r in 1 2; do
    for i in "${!P[@]}"; do
        [ $((SECONDS - t0)) -gt 420 ] && break 2
        timeout 60 build/megartp bench glm5-prefix --modes mega ${P[$i]} > "$O/place-$i-$r.md" 2>&1
        echo "place $i round $r rc=$? [${P[$i]}] $(grep -E 'step, mega' "$O/place-$i-$r.md" | tr -s ' ' | cut -c1-90)"
    done
done
echo "t=$((SECONDS - t0)) s"
for s in "64 2 8192" "128 2 8192" "16 2 8192"; do
    set -- $s
    for pol in roundrobin critical-path; do
        [ $((SECONDS - t0)) -gt 540 ] && break 2
        f="$O/trace-m$1-$pol.txt"
        timeout 30 build/megartp trace glm5-prefix --m $1 --batch $2 --kv $3 --backend mega --policy $pol \
            -o "$O/trace-m$1-$pol.json" > "$f" 2>&1
        echo "trace M=$1 KV=$3 $pol rc=$?"; sed -n "/^  op /,/critical path/p" "$f"
    done
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
