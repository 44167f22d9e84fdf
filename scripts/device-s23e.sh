#!/bin/bash
# Session 23 run 4 (2026-11-30): the tuned default plan (policy auto with tuning: the indexer
# branch in fewer, larger tasks where the cost model prices that >= 5% lower). mega = serial
# bytes with it (test_mega_prefix), the 12 shapes, serial / cmp / mega at the target shape,
# one step against the naive reference, a trace.
# Run: timeout 560 bash scripts/device-s23e.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_or_exit build/megartp build/tests/gpu/test_mega_prefix
{
echo "builds $((SECONDS - t0)) s"
gpu_tests 240 "test_mega_prefix"
for sh in "16 2 8192" "1 1 1024" "1 1 8192" "1 1 65536" "16 2 1024" "16 2 65536" "64 2 1024" "64 2 8192" \
    "64 2 65536" "128 2 1024" "128 2 8192" "128 2 65536"; do
    [ $((SECONDS - t0)) -gt 440 ] && break
    mega_at build default "$sh"
done
mega_at build no-tune "16 2 8192" --no-tune
step_shapes serial,cmp,mega build "16 2 8192"
timeout 60 build/megartp run glm5-prefix --backend mega > "$O/run-mega.txt" 2>&1
echo "run mega rc=$? $(grep -c 'ok' "$O/run-mega.txt") $(tail -1 "$O/run-mega.txt")"
mega_trace build default-16-8192 | tail -1
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
