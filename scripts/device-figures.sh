#!/bin/bash
# One device run for the recorded figures of issues [E] and [G]: a trace of each GPU executor
# (M=16 batch 2 KV=8192, JSON + HTML), the GPU trace test, racecheck of a small mega step,
# analysis (d) (tile-level events vs whole-op pairing: mega step at M 16/128/256), and the
# megakernel's shape sweep against serial and the same-bytes read. Logs: device-common.sh.
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_or_exit
echo "build $((SECONDS - t0)) s"
{
for b in serial cmp mega; do
    timeout 60 build/megartp trace glm5-prefix --backend $b -o "$O/trace-$b.json" --html "$O/trace-$b.html" \
        > "$O/trace-$b.txt" 2>&1; echo "trace $b rc=$?"; sed -n 2p "$O/trace-$b.txt"
done
timeout 60 build/tests/gpu/test_trace_gpu > "$O/test_trace_gpu.log" 2>&1; echo "test_trace_gpu rc=$? $(tail -1 "$O/test_trace_gpu.log")"
timeout 100 compute-sanitizer --tool racecheck build/tests/gpu/test_mega_prefix --quick > "$O/racecheck.log" 2>&1
echo "racecheck mega rc=$? $(grep -E 'RACECHECK SUMMARY' "$O/racecheck.log" | tail -1)"; grep -E "FAIL" "$O/racecheck.log" | head -3
for m in 16 128 256; do
    for pr in auto whole; do
        timeout 60 build/megartp bench glm5-prefix --m $m --pairing $pr --modes mega --reps 60 > "$O/pair-$m-$pr.md" 2>&1
        echo "pairing M=$m $pr rc=$?: $(grep -E 'step, (serial|mega)|same-bytes' "$O/pair-$m-$pr.md" | awk -F'|' '{printf "%s %s; ", $2, $4}')"
    done
done
for s in "1 1 65536" "16 2 1024" "16 2 65536" "64 2 65536" "128 2 65536" "64 2 1024"; do
    set -- $s
    timeout 60 build/megartp bench glm5-prefix --m $1 --batch $2 --kv $3 --modes serial,mega --reps 60 > "$O/sweep-$1-$3.md" 2>&1
    echo "sweep M=$1 kv=$3 rc=$?: $(grep -E 'step, (serial|mega)|same-bytes' "$O/sweep-$1-$3.md" | awk -F'|' '{printf "%s %s (x%s); ", $2, $4, $7}')"
done
} 2>&1 | tee "$O/summary.txt"
