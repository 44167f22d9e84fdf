#!/bin/bash
# Session 16, run 5. (1) The finalization probe (-DMRT_MEGA_FIN_PROBE) on today's default, M=16:
# B0's and D1's computed -> group complete -> first job done -> published, for the next cut
# (both ~8 us from the last member's computed to the unit published, on the critical path).
# (2) Helping longer (-DMRT_MEGA_HELP_NS=40000 against the default 10 us) at M = 16 / 64 / 128:
# at M=16 every member of a group computes within ~4 us of the others, at M >= 64 B0's and
# D1's members spread further and may leave before their group completes.
# Run: timeout 570 bash scripts/device-s16e.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant finp -DMRT_MEGA_FIN_PROBE megartp &
build_variant help40k -DMRT_MEGA_HELP_NS=40000 megartp &
build_or_exit build/megartp
wait
echo "builds $((SECONDS - t0)) s"
{
for r in 1 2; do
    for m in 16 64 128; do
        for b in build build-help40k; do
            timeout 60 $b/megartp bench glm5-prefix --m $m --batch 2 --kv 8192 --modes mega > "$O/m$m-$b-$r.md" 2>&1
            echo "M=$m $b round $r rc=$? $(grep -E 'step, mega' "$O/m$m-$b-$r.md" | tr -s ' ' | cut -c1-110)"
        done
    done
done
for b in build build-finp; do
    timeout 30 $b/megartp trace glm5-prefix --backend mega -o "$O/trace-$b.json" > "$O/trace-$b.txt" 2>&1
    echo "trace $b rc=$?"; sed -n "/^  op /,/critical path/p" "$O/trace-$b.txt"
done
python3 scripts/trace_phases.py "$O/trace-build-finp.json" "compute done" "weights issued" visible published
for m in 64 128; do
    for b in build build-help40k; do
        timeout 30 $b/megartp trace glm5-prefix --m $m --backend mega -o "$O/trace-$b-m$m.json" > "$O/trace-$b-m$m.txt" 2>&1
        echo "trace M=$m $b rc=$?"; sed -n "/^  op /,/critical path/p" "$O/trace-$b-m$m.txt"
    done
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
