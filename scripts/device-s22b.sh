#!/bin/bash
# Session 22 run 1 (2026-11-30): F1 rows over several workers (topk.c / topk.cuh: a row's
# slices on their own workers, the row's last slice merges). Builds this tree and, from
# old.tar (git archive of the commit before it), the previous megartp; GPU tests
# (test_index_ops --quick with the slice variants 11/12, test_mega_prefix: mega = serial bytes
# with the default F1 slices, --split F1=16 on 4 workers, F1=1), then the default plan of
# each build at the 12 shapes of [E] and this build's --split F1=1 (the old plan).
# Run: timeout 570 bash scripts/device-s22b.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
mkdir -p /tmp/old && tar -xf old.tar -C /tmp/old
(cd /tmp/old && make -j8 build/megartp > "$O/build-old.log" 2>&1 || echo "old build FAILED") &
build_or_exit build/megartp build/tests/gpu/test_mega_prefix build/tests/gpu/test_index_ops
wait
{
echo "builds $((SECONDS - t0)) s"
gpu_tests 120 "test_index_ops --quick"
gpu_tests 240 "test_mega_prefix"
echo "t=$((SECONDS - t0)) s"
for sh in "16 2 8192" "1 1 65536" "16 2 65536" "64 2 65536" "1 1 8192" "64 2 8192" "128 2 65536" "1 1 1024" \
    "16 2 1024" "64 2 1024" "128 2 1024" "128 2 8192"; do
    [ $((SECONDS - t0)) -gt 520 ] && break
    mega_at /tmp/old/build old "$sh"
    mega_at build new "$sh"
    mega_at build new-F1=1 "$sh" --split F1=1
done
mega_at build new "16 2 8192"
mega_at /tmp/old/build old "16 2 8192"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
