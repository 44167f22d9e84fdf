#!/bin/bash
# Session 21 run 2 (2026-11-30): reduce groups finalized in thread-block clusters
# (-DMRT_MEGA_CLUSTER=4, src/cuda/mega_cluster.cuh). Session 20's trace put 7.2 us (B0's q
# units) and 8.3 us (D1's heads) between a group's last member computed and its event
# published, twice on the critical path. With 128 workers roundrobin deals B0's and D1's
# groups onto the four CTAs of one cluster; there they meet at cluster barriers instead of
# tickets, claims and done counts. Here: the cluster build's tests (bytes = serial, 1000
# replays at 128 workers in clusters), then mega at 128 workers with and without clusters
# (A B A B) beside the default 132 workers, the other shapes, and the cluster build's trace.
# Run: timeout 560 bash scripts/device-s21b.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant c4 -DMRT_MEGA_CLUSTER=4 "megartp tests/gpu/test_mega_prefix tests/gpu/test_mega" &
build_or_exit build/megartp
wait
{
echo "builds $((SECONDS - t0)) s"; grep -E "FAILED|error" "$O/build-c4.log" | head -5
ls build-c4/megartp build-c4/tests/gpu/test_mega_prefix > /dev/null || { grep -E "error" "$O/build-c4.log" | head; exit 1; }
timeout 60 build-c4/megartp run glm5-prefix --backend mega --workers 128 > "$O/run-c4.txt" 2>&1
echo "run c4 128 rc=$? $(grep -ciE 'within|ok' "$O/run-c4.txt") ok-lines; $(grep -iE 'fail|exceed|error' "$O/run-c4.txt" | head -3)"
for r in 1 2; do
    mega_at build/ default132-$r "16 2 8192"
    mega_at build/ default128-$r "16 2 8192" --workers 128
    mega_at build-c4/ c4-128-$r "16 2 8192" --workers 128
done
mega_trace build-c4 c4 --workers 128
timeout 200 build-c4/tests/gpu/test_mega_prefix > "$O/test_mega_prefix-c4.log" 2>&1
echo "test_mega_prefix c4 rc=$? $(tail -1 "$O/test_mega_prefix-c4.log")"; grep -E "FAIL" "$O/test_mega_prefix-c4.log" | head -5
timeout 60 build-c4/tests/gpu/test_mega > "$O/test_mega-c4.log" 2>&1
echo "test_mega c4 rc=$? $(tail -1 "$O/test_mega-c4.log")"
for sh in "1 1 8192" "1 1 1024" "16 2 1024" "16 2 65536" "64 2 8192" "128 2 8192"; do
    [ $((SECONDS - t0)) -gt 500 ] && break
    mega_at build/ default128 "$sh" --workers 128
    mega_at build-c4/ c4-128 "$sh" --workers 128
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
