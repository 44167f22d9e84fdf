#!/bin/bash
# Session 35 run 4 (2026-12-01): E1's tile in the megakernel with 4 key buffers instead of 2
# (build-s4: -DMRT_ILW_STAGES=4, three passes of keys in flight ahead of the one multiplied;
# run 1 put E1's keys at 8.6 us of an 18.5-us task at M=16 KV=65536, where a task has 4+
# passes) against 8c9a4c7 (build-old). Digests at three shapes; the A B at eight shapes; E1's
# phases at two. Nothing is built here: carry build-old/megartp and build-s4/megartp (local
# builds, sm_90a).
# Run: timeout 300 bash scripts/device-s35d.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
{
for s in "16 2 65536" "64 2 65536" "16 2 8192"; do
    set -- $s
    for b in build-old build-s4; do
        timeout 60 $b/megartp run glm5-prefix --m $1 --batch $2 --kv $3 --backend mega > "$O/run-$b-$1-$3.txt" 2>&1
        echo "run $b M=$1 KV=$3 rc=$? $(grep -c ' pass$' "$O/run-$b-$1-$3.txt") pass; $(grep 'output digest' "$O/run-$b-$1-$3.txt")"
    done
done
ab_shapes "build-old build-s4" "16 2 65536" "16 2 65536" "1 1 65536" "64 2 65536" "128 2 65536" "16 2 8192" "16 2 8192" \
    "128 2 8192" "1 1 8192"
ab_traces "build-old build-s4" "16 2 65536"
for b in build-old build-s4; do
    python3 scripts/trace_phases.py "$O/trace-$b-16-65536.json" visible "weights issued" "input ready" "compute done" published | grep -E "tasks|^(E1|F1) " | sed "s/^/$b: /"
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
