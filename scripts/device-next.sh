#!/bin/bash
# The next session's first device run (written 2026-11-30, end of session 14). Session 14
# ended at mega 94.7-95.9 us (M=16 KV=8192, roundrobin), 158.5-159.1 (M=64), 240.9-241.4
# (M=128); bench/RESULTS.md "Session 14". Its last change, the critical-path policy's cost
# model pricing the tokens past an M=16 tile (86d8e40), is host code measured only in another
# form (run 6: every token priced, 167.6 / 257.0 us at M=64 / 128 against 182.8 / 315.4 for
# the old model and 159.1 / 241.4 roundrobin); plans at M <= 16 are the old model's. This run:
# test_mega_prefix (both policies, all 12 shapes: the critical-path plans at M >= 64 are new),
# critical-path against roundrobin at M = 1, 16, 64, 128 (KV=8192), traces at M=64 / 128 under
# critical-path, then the [E] sweep under both policies. Also one experiment (compile-checked,
# default PTX identical): iq = -DMRT_MEGA_IQ_INPUTS_FIRST, an INDEX_Q finalization job loads
# its row inputs before the split planes (D1's computed -> published is 8.8 us on the critical
# path; run 2's probe: claim + one job 5.4 us), with its test_mega_prefix and an A B.
# Run: timeout 570 bash scripts/device-next.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant iq -DMRT_MEGA_IQ_INPUTS_FIRST "megartp build-iq/tests/gpu/test_mega_prefix" &
build_or_exit build/megartp build/tests/gpu/test_mega_prefix
wait
echo "builds $((SECONDS - t0)) s"
{
gpu_tests 150 test_mega_prefix
build_tests 150 test_mega_prefix iq
ab_bench serial,cmp,mega build build-iq
mega_traces 300 build build-iq
for s in "1 1 8192" "16 2 8192" "64 2 8192" "128 2 8192"; do
    set -- $s
    for pol in critical-path roundrobin critical-path roundrobin; do
        timeout 40 build/megartp bench glm5-prefix --m $1 --batch $2 --kv $3 --modes mega --reps 30 --policy $pol \
            > "$O/pol-$1-$pol.md" 2>&1
        echo "M=$1 $pol rc=$? $(grep -E 'step, mega' "$O/pol-$1-$pol.md" | tr -s ' ' | cut -c1-90)"
    done
done
for m in 64 128; do
    timeout 30 build/megartp trace glm5-prefix --m $m --batch 2 --kv 8192 --backend mega --policy critical-path \
        -o "$O/trace-m$m-cp.json" > "$O/trace-m$m-cp.txt" 2>&1
    echo "trace M=$m critical-path rc=$?"; sed -n "/^  op /,/critical path/p" "$O/trace-m$m-cp.txt"
done
echo "t=$((SECONDS - t0)) s"
e_sweep 450 550
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
