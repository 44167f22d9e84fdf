#!/bin/bash
# Session 5, run 5 (2026-11-29): the one-CTA top-k reads the row twice and emits from bitmaps
# (run 4 showed the count/write passes over the row slow at KV = 65536). F1 tests and timings,
# mega = serial, the step, the KV = 65536 shapes, racecheck of the F1 kernels.
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_or_exit
echo "build $((SECONDS - t0)) s"
{
for t in test_index_ops test_mega_prefix "test_serial --quick" test_mega; do
    set -- $t
    timeout 200 build/tests/gpu/$t > "$O/$1.log" 2>&1; echo "$t rc=$? $(tail -1 "$O/$1.log")"; grep FAIL "$O/$1.log" | head -5
done
grep -E "TIME F1 1 CTA" "$O/test_index_ops.log" | cut -c1-150
timeout 60 build/megartp bench glm5-prefix --modes serial,cmp,mega > "$O/bench.md" 2>&1; echo "bench rc=$?"
grep -E "^\| " "$O/bench.md"
timeout 30 build/megartp trace glm5-prefix --backend mega -o "$O/trace-mega.json" > "$O/trace-mega.txt" 2>&1
sed -n 4,14p "$O/trace-mega.txt"
for s in "1 1 65536" "16 2 65536"; do
    set -- $s
    timeout 60 build/megartp bench glm5-prefix --m $1 --batch $2 --kv $3 --modes serial,mega --reps 30 > "$O/sweep-$1-$3.md" 2>&1
    echo "sweep M=$1 KV=$3 rc=$? $(grep -E 'F1|step, |same-bytes' "$O/sweep-$1-$3.md" | tr -s ' ' | cut -c1-90 | tr '\n' ' ')"
done
timeout 60 compute-sanitizer --tool racecheck build/tests/gpu/test_index_ops --tiny > "$O/racecheck-index.log" 2>&1
echo "racecheck index_ops --tiny rc=$? $(grep -E 'RACECHECK SUMMARY' "$O/racecheck-index.log" | tail -1) $(tail -1 "$O/racecheck-index.log")"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
