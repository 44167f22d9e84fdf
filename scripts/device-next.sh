#!/bin/bash
# The next session's first device run (written 2026-11-30, end of session 14). Session 14
# ended at mega 94.7-95.9 us (M=16 KV=8192, roundrobin), 158.5-159.1 (M=64), 240.9-241.4
# (M=128); bench/RESULTS.md "Session 14". Two experiments (compile-checked, default PTX
# identical), each with its tests and an A B against the default:
#   iq = -DMRT_MEGA_IQ_INPUTS_FIRST: an INDEX_Q finalization job loads its row inputs (RoPE
#        pair, gate partials, q_a block sums) before the split planes (D1's computed ->
#        published is 8.8 us on the critical path; claim + one job 5.4 us, session 14 run 2)
#   cs = -DMRT_CVT_SELECT: the bf16 / e4m3 conversions pick NaN's code by a select instead of
#        branching to the inlined reference routine (PTX: the megakernel 130k -> 102k
#        instructions, the A0 kernel 2790 -> 1214 with 37 branches instead of 288; one-shot
#        code waits on instruction fetch). test_numerics_gpu compares all 2^32 inputs.
# Then the critical-path policy under session 14's cost model (86d8e40: the tokens past an M=16
# tile priced; plans at M <= 16 unchanged, M >= 64 unmeasured) against roundrobin at M = 1,
# 16, 64, 128, and its traces at M=64 / 128. The [E] sweep and the winners' sanitizer run:
# scripts/device-next2.sh.
# Run: timeout 570 bash scripts/device-next.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant iq -DMRT_MEGA_IQ_INPUTS_FIRST "megartp build-iq/tests/gpu/test_mega_prefix" &
build_variant cs -DMRT_CVT_SELECT "megartp build-cs/tests/gpu/test_mega_prefix build-cs/tests/gpu/test_numerics_gpu build-cs/tests/gpu/test_serial" &
build_or_exit build/megartp build/tests/gpu/test_mega_prefix
wait
echo "builds $((SECONDS - t0)) s"
{
build_tests 60 test_numerics_gpu cs
build_tests 60 "test_serial --quick" cs
build_tests 150 test_mega_prefix iq cs
echo "t=$((SECONDS - t0)) s"
ab_bench serial,cmp,mega build build-iq build-cs
cp_bench build build-iq build-cs
mega_traces 330 build build-iq build-cs
echo "t=$((SECONDS - t0)) s"
for s in "1 1 8192" "16 2 8192" "64 2 8192" "128 2 8192"; do
    set -- $s
    for pol in critical-path roundrobin; do
        [ $((SECONDS - t0)) -gt 500 ] && break 2
        timeout 40 build/megartp bench glm5-prefix --m $1 --batch $2 --kv $3 --modes mega --reps 30 --policy $pol \
            > "$O/pol-$1-$pol.md" 2>&1
        echo "M=$1 $pol rc=$? $(grep -E 'step, mega' "$O/pol-$1-$pol.md" | tr -s ' ' | cut -c1-90)"
    done
done
for m in 64 128; do
    [ $((SECONDS - t0)) -gt 530 ] && break
    timeout 30 build/megartp trace glm5-prefix --m $m --batch 2 --kv 8192 --backend mega --policy critical-path \
        -o "$O/trace-m$m-cp.json" > "$O/trace-m$m-cp.txt" 2>&1
    echo "trace M=$m critical-path rc=$?"; sed -n "/^  op /,/critical path/p" "$O/trace-m$m-cp.txt"
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
