#!/bin/bash
# Session 30, run 6: the final tree's plan rule below 16 rows (A0 in 32 tasks, B0 in 3 K splits
# at M=2..16): test_serial (its digests against bench/test_serial-digests.txt: serial takes the
# plan's splits, so M=8's may move with B0's) and `megartp run` mega and serial at M=2, 4, 8
# KV=8192 (every output against the naive reference; mega and serial one digest). A short run:
# the session's device time was nearly spent.
# Run: timeout 280 bash scripts/device-s30g.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_or_exit build/megartp build/tests/gpu/test_serial
{
echo "builds $((SECONDS - t0)) s"
for m in 2 4 8; do
    for be in mega serial; do
        timeout 60 build/megartp run glm5-prefix --backend $be --m $m --batch 2 --kv 8192 > "$O/run-$be-$m.txt" 2>&1
        echo "run $be M=$m rc=$? $(grep -c ' pass$' "$O/run-$be-$m.txt") pass; $(tail -1 "$O/run-$be-$m.txt"); $(grep -h 'output digest' "$O/run-$be-$m.txt")"
    done
done
gpu_tests 150 "test_serial"
grep "serial digest" "$O/test_serial.log" > "$O/digests.txt"
diff bench/test_serial-digests.txt "$O/digests.txt" && echo "digests same"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
