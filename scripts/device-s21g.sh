#!/bin/bash
# Session 21 run 7 (2026-11-30): the plan option --chunk (E1's keys a task) on the default
# build: test_mega_prefix with the chunked indexer partition (mega = serial bytes, 100
# replays), then that plan (--chunk E1=256 --split D1=2 --place D1=0-63,E1=0-63,F1=0-15,
# D0=64-131,D2=64-131) against the default plan at the 12 shapes of [E].
# Run: timeout 420 bash scripts/device-s21g.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_or_exit build/megartp build/tests/gpu/test_mega_prefix
{
echo "build $((SECONDS - t0)) s"
timeout 200 build/tests/gpu/test_mega_prefix > "$O/test_mega_prefix.log" 2>&1
echo "test_mega_prefix rc=$? $(tail -1 "$O/test_mega_prefix.log")"; grep -E "FAIL" "$O/test_mega_prefix.log" | head -5
C="--chunk E1=256 --split D1=2 --place D1=0-63,E1=0-63,F1=0-15,D0=64-131,D2=64-131"
for sh in "16 2 8192" "1 1 1024" "1 1 8192" "1 1 65536" "16 2 1024" "16 2 65536" "64 2 1024" "64 2 8192" \
    "64 2 65536" "128 2 1024" "128 2 8192" "128 2 65536"; do
    [ $((SECONDS - t0)) -gt 390 ] && break
    mega_at build/ default "$sh"
    mega_at build/ chunkP1 "$sh" $C
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
