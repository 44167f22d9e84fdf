#!/bin/bash
# Session 22 run 5 (2026-11-30): F1 slices with fewer round trips (the merge reads the 65 G
# values it needs of each slice at once, coarse then fine, and each slice's pairs in one pass;
# a slice's G goes out in whole rows). old.tar: git archive ce5acea. GPU tests, A B against
# that build at the shapes where slices run, --split F1=4 at M=16 KV=8192, traces.
# Then the sanitizers on the reduced-size step (with F1 in 3 slices) while time is left.
# Run: timeout 440 bash scripts/device-s22f.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
mkdir -p /tmp/old && tar -xf old.tar -C /tmp/old
(cd /tmp/old && make -j6 build/megartp > "$O/build-old.log" 2>&1 || echo "old build FAILED") &
build_variant san "$SAN" tests/gpu/test_mega_prefix &
build_or_exit build/megartp build/tests/gpu/test_mega_prefix build/tests/gpu/test_index_ops
wait
{
echo "builds $((SECONDS - t0)) s"
gpu_tests 90 "test_index_ops --quick"
gpu_tests 150 test_mega_prefix
for sh in "1 1 65536" "16 2 65536" "64 2 65536"; do
    mega_at /tmp/old/build old "$sh"
    mega_at build new "$sh"
done
for p in 1 2 4; do
    mega_at /tmp/old/build old-F1=$p "16 2 8192" --split F1=$p
    mega_at build new-F1=$p "16 2 8192" --split F1=$p
done
mega_trace build s1-65536 --m 1 --batch 1 --kv 65536
mega_trace build s16-8192-F1=4 --m 16 --batch 2 --kv 8192 --split F1=4
echo "t=$((SECONDS - t0)) s"
for tool in memcheck racecheck synccheck; do
    [ $((SECONDS - t0)) -gt 360 ] && break
    sanitize $tool 50 new build-san/tests/gpu/test_mega_prefix --tiny
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
