#!/bin/bash
# Session 22 run 4 (2026-11-30): [E]'s evidence with F1 rows in slices by default where they
# pay (slices of >= 16384 keys: KV=65536 M <= 64): the byte test (test_mega_prefix: the 12
# shapes under both policies, --split F1=16 on 4 workers, 1000 replays at M=16), the watchdog
# test and NoOp, the slice variants of test_index_ops, the three sanitizers on the reduced-size
# step (with F1 in 3 slices), one step against the naive reference at M=16 KV=65536, then the
# default plan at the 12 shapes and --split F1=1 (one task a row, the old plan) where they differ.
# Run: timeout 560 bash scripts/device-s22e.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant san "$SAN" tests/gpu/test_mega_prefix &
build_or_exit build/megartp build/tests/gpu/test_mega_prefix build/tests/gpu/test_mega build/tests/gpu/test_index_ops
wait
{
echo "builds $((SECONDS - t0)) s"
gpu_tests 150 test_mega_prefix
gpu_tests 60 test_mega
grep NoOp "$O/test_mega.log" | tail -1
gpu_tests 90 "test_index_ops --quick"
mega_tiny_sanitize 80 build-san new
timeout 90 build/megartp run glm5-prefix --backend mega --m 16 --batch 2 --kv 65536 > "$O/run-mega-65536.txt" 2>&1
echo "run mega M=16 KV=65536 rc=$? $(grep -c ' pass$' "$O/run-mega-65536.txt") pass; $(tail -1 "$O/run-mega-65536.txt")"
echo "t=$((SECONDS - t0)) s"
for sh in "1 1 65536" "16 2 65536" "64 2 65536"; do
    mega_at build default "$sh"
    mega_at build F1=1 "$sh" --split F1=1
done
mega_at build F1=4 "64 2 65536" --split F1=4
for sh in "16 2 8192" "1 1 1024" "1 1 8192" "16 2 1024" "64 2 1024" "64 2 8192" "128 2 1024" "128 2 8192" \
    "128 2 65536"; do
    [ $((SECONDS - t0)) -gt 530 ] && break
    mega_at build default "$sh"
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
