#!/bin/bash
# Session 22 run 3 (2026-11-30): F1 slices write only the pairs the merge can read (digits at
# or above the slice's own k-th largest). GPU tests (test_index_ops --quick: variants 11/12;
# test_mega_prefix), then slices a row against one task a row at the 12 shapes of [E]
# (--split F1=1 / 2 / 4 / 8 / 16 where they apply) and traces.
# Run: timeout 560 bash scripts/device-s22d.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_or_exit build/megartp build/tests/gpu/test_mega_prefix build/tests/gpu/test_index_ops
{
echo "builds $((SECONDS - t0)) s"
gpu_tests 120 "test_index_ops --quick"
gpu_tests 240 "test_mega_prefix"
echo "t=$((SECONDS - t0)) s"
for sh in "1 1 65536" "16 2 65536" "64 2 65536" "128 2 65536"; do
    for p in 1 4 8 16; do mega_at build F1=$p "$sh" --split F1=$p; done
done
for sh in "16 2 8192" "1 1 8192" "64 2 8192"; do
    for p in 1 2 4; do mega_at build F1=$p "$sh" --split F1=$p; done
done
mega_trace build s1-65536 --m 1 --batch 1 --kv 65536
mega_trace build s16-8192 --m 16 --batch 2 --kv 8192 --split F1=4
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
