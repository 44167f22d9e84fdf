#!/bin/bash
# Session 6, run a (2026-11-29): where the serial and cmp steps' time goes, kernel by kernel:
# `megartp trace glm5-prefix --backend serial|cmp` at M=16 batch 2 KV=8192 (text summary
# with per-op times, gaps and the critical path; JSON for per-kernel durations).
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_or_exit
echo "build $((SECONDS - t0)) s"
{
for b in serial cmp; do
    timeout 60 build/megartp trace glm5-prefix --backend $b -o "$O/trace-$b.json" > "$O/trace-$b.txt" 2>&1
    echo "trace $b rc=$?"; cat "$O/trace-$b.txt"
done
} 2>&1 | tee "$O/summary.txt"
