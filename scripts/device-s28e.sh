#!/bin/bash
# Session 28, run 5: a GEMM tile's fence.proxy.async.shared::cta moved from the tile's end (after
# its global stores; run 4 measured -0.5 / -0.7 us at M=16 KV=8192 without it) to the tile's
# start, before the barrier that precedes its TMA (mega_gemm.cuh), where it also orders the
# finalization's, A0's, E1's and F1's shared-memory writes. old.tar = eee7720 (the fence at
# the end). test_mega_prefix (mega = serial bytes) on the new code, the A B at 6 shapes.
# Run: timeout 215 bash scripts/device-s28e.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_old 6 build/megartp &
build_or_exit build/megartp build/tests/gpu/test_mega_prefix
wait
{
echo "builds $((SECONDS - t0)) s"
gpu_tests 100 test_mega_prefix
for sh in "16 2 8192" "1 1 8192" "64 2 8192" "128 2 1024" "16 2 65536" "16 2 8192"; do
    mega_at /tmp/old/build old "$sh"
    mega_at build new "$sh"
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
