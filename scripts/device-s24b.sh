#!/bin/bash
# Session 24 run 2 (2026-11-30): E1's wgmma tile with (1) the quad reduce-scatter epilogue
# (one token a lane, no per-token branch: the stores were 4.2 of 13.5 us a tile at M=16
# KV=8192, run 1) and (2) keys first (its key copies before the wait for the queries; the
# plan's early waits, megartp_isa.h version 2). Builds this tree, build-kf0/ (keys first off,
# -DMRT_MEGA_E1_KEYS_FIRST=0), build-san/ and, from old.tar (git archive of HEAD before
# these), the previous megartp. GPU tests (test_index_ops --quick: the standalone variants
# on the new epilogue; test_mega_prefix: mega = serial bytes; test_mega), the sanitizers on
# the reduced step, the 12 shapes old / new / kf0, traces, and the refit's traces and plans.
# Run: timeout 590 bash scripts/device-s24b.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
mkdir -p /tmp/old && tar -xf old.tar -C /tmp/old
(cd /tmp/old && make -j6 build/megartp > "$O/build-old.log" 2>&1 || echo "old build FAILED") &
build_variant kf0 -DMRT_MEGA_E1_KEYS_FIRST=0 megartp &
build_variant san "$SAN" tests/gpu/test_mega_prefix &
build_or_exit build/megartp build/tests/gpu/test_mega_prefix build/tests/gpu/test_mega build/tests/gpu/test_index_ops
wait
{
echo "builds $((SECONDS - t0)) s"
gpu_tests 120 "test_index_ops --quick" "test_mega" "test_mega_prefix"
mega_tiny_sanitize 150 build-san new
echo "t=$((SECONDS - t0)) s"
for sh in "16 2 8192" "1 1 1024" "1 1 8192" "1 1 65536" "16 2 1024" "16 2 65536" "64 2 1024" "64 2 8192" \
    "64 2 65536" "128 2 1024" "128 2 8192" "128 2 65536"; do
    mega_at /tmp/old/build old "$sh"
    mega_at build new "$sh"
    mega_at build-kf0 kf0 "$sh"
done
echo "t=$((SECONDS - t0)) s"
for sh in "16 2 8192" "128 2 8192"; do
    set -- $sh
    mega_trace build "new-$1-$3" --m $1 --batch $2 --kv $3 | grep -E "^  (D1|E1|F1) |critical"
    mega_trace build-kf0 "kf0-$1-$3" --m $1 --batch $2 --kv $3 | grep -E "^  (E1|F1) |critical"
done
refit_traces 540
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
