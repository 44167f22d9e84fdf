#!/bin/bash
# Session 17 run 6 (2026-11-30, the session's last ~300 s of device time): [E]'s evidence on
# the tree as it lands: one instruction slot (the slots measured and not taken, runs 1-5), the
# finalization's scratch in the dynamic shared memory, the event wait's watchdog bound at
# half the tile watchdog's, -DMRT_MEGA_EARLY_CLAIM removed. test_mega_prefix, test_mega
# (NoOp cost, the watchdog message), the sanitizers on the reduced-size step, the step
# benchmark (M=16 twice, M=128) and a trace.
# Run: timeout 240 bash scripts/device-s17f.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
mega_builds
{
gpu_tests 90 test_mega_prefix
gpu_tests 60 test_mega
grep NoOp "$O/test_mega.log" | tail -1
mega_tiny_sanitize 40 build-san new
for s in "16 2 8192" "128 2 8192" "16 2 8192"; do
    set -- $s
    timeout 40 build/megartp bench glm5-prefix --m $1 --batch $2 --kv $3 --modes serial,cmp,mega > "$O/bench-$1-$3.md" 2>&1
    echo "M=$1 KV=$3 rc=$? $(grep -E 'step, |same-bytes' "$O/bench-$1-$3.md" | tr -s ' ' | cut -c1-90 | tr '\n' ' ')"
done
mega_traces 230 build
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
