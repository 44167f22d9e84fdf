#!/bin/bash
# Session 5, run 4 (2026-11-29): uploads / poison / reload on the executor's stream (the
# replay failure of run 3), the new F1 under racecheck, the step, and the shape sweep.
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_or_exit
echo "build $((SECONDS - t0)) s"
{
for t in test_mega_prefix test_mega "test_serial --quick" test_trace_gpu; do
    set -- $t
    timeout 150 build/tests/gpu/$t > "$O/$1.log" 2>&1; echo "$t rc=$? $(tail -1 "$O/$1.log")"; grep FAIL "$O/$1.log" | head -5
done
timeout 60 build/megartp bench glm5-prefix --modes serial,cmp,mega > "$O/bench.md" 2>&1; echo "bench rc=$?"
grep -E "^\| " "$O/bench.md"
timeout 30 build/megartp trace glm5-prefix --backend mega -o "$O/trace-mega.json" > "$O/trace-mega.txt" 2>&1
sed -n 4,14p "$O/trace-mega.txt"
timeout 90 compute-sanitizer --tool racecheck build/tests/gpu/test_index_ops --tiny > "$O/racecheck-index.log" 2>&1
echo "racecheck index_ops --tiny rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$O/racecheck-index.log" | tail -1) $(tail -1 "$O/racecheck-index.log")"
for s in "64 2 1024" "16 2 65536" "64 2 65536" "128 2 65536" "1 1 65536" "16 2 1024"; do
    set -- $s
    [ $((SECONDS - t0)) -gt 330 ] && break
    timeout 60 build/megartp bench glm5-prefix --m $1 --batch $2 --kv $3 --modes serial,mega --reps 30 > "$O/sweep-$1-$3.md" 2>&1
    echo "sweep M=$1 KV=$3 rc=$? $(grep -E 'step, |same-bytes' "$O/sweep-$1-$3.md" | tr -s ' ' | cut -c1-90 | tr '\n' ' ')"
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
