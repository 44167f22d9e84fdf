#!/bin/bash
# Session 27, run 2: three exact experiments, each behind a switch (default 0), A B in one run
# against the default build and against e45e1a1 (old.tar: the tree before the E1 prefetch's
# kernel argument, to see that argument alone):
#   pf   -DMRT_MEGA_E1_PREFETCH=1  the A0 tasks prefetch E1's key-cache blocks into L2 (mega.cu)
#   qaw  -DMRT_MEGA_QA_W_FIRST=1   QKV_A q jobs load their norm weights before the planes (mega_gemm.cuh)
#   scan -DMRT_TOPK_EMIT_ONE_SCAN=1 F1's emit: one packed scan instead of two (topk.cuh)
#   all  the three together: its test_mega_prefix (mega = serial bytes) and test_index_ops --quick
# then traces (default, all) and the long-context shapes for pf.
# The three switches were measured (bench/RESULTS.md session 27 run 2), not taken, and never
# committed: this script records what ran; the tree no longer builds them.
# Run: git archive e45e1a1 -o old.tar; timeout 560 bash scripts/device-s27b.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
ALL="-DMRT_MEGA_E1_PREFETCH=1 -DMRT_MEGA_QA_W_FIRST=1 -DMRT_TOPK_EMIT_ONE_SCAN=1"
build_tree old 3 build/megartp &
build_variant pf -DMRT_MEGA_E1_PREFETCH=1 megartp &
build_variant qaw -DMRT_MEGA_QA_W_FIRST=1 megartp &
build_variant scan -DMRT_TOPK_EMIT_ONE_SCAN=1 megartp &
build_variant all "$ALL" "megartp tests/gpu/test_mega_prefix tests/gpu/test_index_ops" &
build_or_exit build/megartp
wait
{
echo "builds $((SECONDS - t0)) s"
build_tests 150 test_mega_prefix all
timeout 150 build-all/tests/gpu/test_index_ops --quick > "$O/test_index_ops-all.log" 2>&1
echo "all test_index_ops --quick rc=$? $(tail -1 "$O/test_index_ops-all.log")"; grep FAIL "$O/test_index_ops-all.log" | head -5
echo "t=$((SECONDS - t0)) s"
B="build /tmp/old/build build-pf build-qaw build-scan build-all"
for sh in "16 2 8192" "128 2 1024" "16 2 8192" "16 2 65536" "64 2 8192" "1 1 8192" "128 2 8192"; do
    for b in $B; do
        l=${b#build-}; [ "$b" = /tmp/old/build ] && l=old
        mega_at $b $l "$sh"
    done
done
echo "t=$((SECONDS - t0)) s"
mega_trace build default-16-8192 | grep -E "^  [A-F][0-9] |critical"
mega_trace build-all all-16-8192 | grep -E "^  [A-F][0-9] |critical"
mega_trace build-pf pf-16-65536 --m 16 --batch 2 --kv 65536 | grep -E "^  [A-F][0-9] |critical"
mega_trace build default-16-65536 --m 16 --batch 2 --kv 65536 | grep -E "^  [A-F][0-9] |critical"
for sh in "64 2 65536" "128 2 65536" "1 1 65536"; do
    [ $((SECONDS - t0)) -gt 520 ] && break
    for b in build build-pf build-all; do mega_at $b ${b#build-} "$sh"; done
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
