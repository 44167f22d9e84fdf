#!/bin/bash
# Session 31, run 4 (2026-12-01): the final tree's checks and [E]'s figures. Since run 3 the
# finalization jobs signal themselves (98b92b2: the measured switch's PTX, 48aa31fe) and auto
# takes critical-path up to 16 tokens a task (8aa507c: plans only). final_checks (test_mega_prefix,
# test_serial against the digests, test_mega's watchdog and NoOp, test_index_ops, `megartp run`
# serial / cmp / mega, the three sanitizers on the reduced step), the whole bench at M=16
# KV=8192 (serial, cmp, mega, the read), a trace, then [E]'s 12 shapes until the time is spent.
# Run: timeout 560 bash scripts/device-s31d.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
final_builds
{
echo "builds $((SECONDS - t0)) s"
final_checks
timeout 90 build/megartp bench glm5-prefix --modes serial,cmp,mega > "$O/bench-16-8192.md" 2>&1
echo "bench rc=$? $(grep -E 'step, |same-bytes' "$O/bench-16-8192.md" | tr -s ' ' | cut -c1-110 | tr '\n' ' ')"
mega_trace build final-16-8192 | grep -E "^  (A0|B0|D1|E1|F1) |critical"
echo "t=$((SECONDS - t0)) s"
sweep_until 540 build sweep
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
