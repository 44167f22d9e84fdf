#!/bin/bash
# Session 5, run 2 (2026-11-29): roundrobin takes small ops first (C0, B1 ahead of B0); E1 /
# topk on their own named barrier ids (racecheck); what topk's sort costs (-DMRT_TOPK_NOSORT,
# a diagnostic build whose output order is wrong: timing only).
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant nosort -DMRT_TOPK_NOSORT megartp &
build_or_exit
wait
echo "builds $((SECONDS - t0)) s"
{
for t in test_mega_prefix test_mega "test_index_ops --quick" "test_serial --quick"; do
    set -- $t
    timeout 150 build/tests/gpu/$t > "$O/$1.log" 2>&1; echo "$t rc=$? $(tail -1 "$O/$1.log")"; grep FAIL "$O/$1.log" | head -5
done
for b in build build-nosort; do
    timeout 60 $b/megartp bench glm5-prefix --modes serial,cmp,mega > "$O/bench-$b.md" 2>&1; echo "$b bench rc=$?"
    grep -E "^\| (F1|E1|\*\*step|same)" "$O/bench-$b.md"
    timeout 30 $b/megartp trace glm5-prefix --backend mega -o "$O/trace-mega-$b.json" > "$O/trace-mega-$b.txt" 2>&1
    sed -n 4,14p "$O/trace-mega-$b.txt"
done
timeout 150 compute-sanitizer --tool racecheck build/tests/gpu/test_mega_prefix --quick > "$O/racecheck.log" 2>&1
echo "racecheck rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$O/racecheck.log" | tail -1)"
grep -E "^========= Error" -A1 "$O/racecheck.log" | cut -c1-200 | head -30
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
