#!/bin/bash
# Session 32, run 4 (2026-12-01): the megakernel's GEMM rings at most 4 stages by default
# (MRT_MEGA_RING_STAGES, mega_table.cu; runs 2-3 measured it through the environment). The
# default against MRT_MEGA_STAGES=8 (the old depth) at M=16 KV=8192 twice, a malformed
# MRT_MEGA_STAGES refused, final_checks (test_mega_prefix, test_serial against the digests,
# test_mega, test_index_ops, `megartp run` serial / cmp / mega, the three sanitizers on the
# reduced step), the whole bench, a trace, then [E]'s 12 shapes until the time is spent.
# Run: timeout 580 bash scripts/device-s32d.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
final_builds
{
echo "builds $((SECONDS - t0)) s"
for rep in 1 2; do
    mega_at build ring4 "16 2 8192"
    MRT_MEGA_STAGES=8 mega_at build ring8 "16 2 8192"
done
MRT_MEGA_STAGES=D0=9 timeout 30 build/megartp bench glm5-prefix --modes mega > "$O/bad-env.txt" 2>&1
echo "MRT_MEGA_STAGES=D0=9 rc=$? $(grep -i stages "$O/bad-env.txt" | head -2)"
final_checks
timeout 90 build/megartp bench glm5-prefix --modes serial,cmp,mega > "$O/bench-16-8192.md" 2>&1
echo "bench rc=$? $(grep -E 'step, |same-bytes' "$O/bench-16-8192.md" | tr -s ' ' | cut -c1-110 | tr '\n' ' ')"
mega_trace build final-16-8192 | grep -E "^  (A0|B0|D1|E1|F1) |critical"
echo "t=$((SECONDS - t0)) s"
sweep_until 560 build sweep
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
