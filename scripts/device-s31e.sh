#!/bin/bash
# Session 31, run 5 (2026-12-01), on the final tree (run 4's checks passed):
# 1. run 4's whole bench put mega at 68.59 us (serial, cmp, mega in one process, 200 replays)
#    where mega alone measured 65.8-66.1: the whole bench twice and mega alone twice.
# 2. The event poll's sleep now that every finalization job adds to its events
#    (-DMRT_MEGA_POLL_NS=50 against 100), M=16 KV=8192 and 1024, twice.
# 3. Where a finalization's time goes now (-DMRT_MEGA_FIN_PROBE=2, M=16 KV=8192).
# Run: timeout 330 bash scripts/device-s31e.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant p50 -DMRT_MEGA_POLL_NS=50 megartp &
build_variant fp2 -DMRT_MEGA_FIN_PROBE=2 megartp &
build_or_exit build/megartp
wait
{
echo "builds $((SECONDS - t0)) s"
for rep in 1 2; do
    timeout 90 build/megartp bench glm5-prefix --modes serial,cmp,mega > "$O/bench-all-$rep.md" 2>&1
    echo "bench all rc=$? $(grep -E 'step, |same-bytes' "$O/bench-all-$rep.md" | tr -s ' ' | cut -c1-100 | tr '\n' ' ')"
    timeout 90 build/megartp bench glm5-prefix --modes mega > "$O/bench-mega-$rep.md" 2>&1
    echo "bench mega rc=$? $(grep -E 'step, |same-bytes' "$O/bench-mega-$rep.md" | tr -s ' ' | cut -c1-100 | tr '\n' ' ')"
done
for rep in 1 2; do ab_shapes "build build-p50" "16 2 8192" "16 2 1024"; done
echo "t=$((SECONDS - t0)) s"
mega_trace build-fp2 fp2-16-8192 | grep -E "^  (B0|D1) |critical"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
