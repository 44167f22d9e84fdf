#!/bin/bash
# Session 17 run 2 (2026-11-30): why -DMRT_MEGA_TWO_SLOTS hung in 2 of its 4 bench processes in
# run 1 (83.26 us against 86.85 in the one round it finished). Its build here has the spin
# limit at 1 s (hangs cost seconds) and the new watchdog records: the slot copies' own record
# at a quarter of the limit, the event wait's at half (below the tile watchdog's), stuck
# tiles listed last. Then racecheck / synccheck of its reduced-size step, and test_mega on
# the default build (the watchdog message with the event wait's new bound).
# Run: timeout 570 bash scripts/device-s17b.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
SAN="-DMRT_SPIN_LIMIT_CYCLES=2000000000000LL -DMRT_A0_CLUSTER=1 -DMRT_GEMM_NO_CLUSTER"
build_variant 2s "-DMRT_MEGA_TWO_SLOTS -DMRT_SPIN_LIMIT_CYCLES=2000000000LL" "megartp build-2s/tests/gpu/test_mega_prefix" &
build_variant 2san "-DMRT_MEGA_TWO_SLOTS $SAN" "tests/gpu/test_mega_prefix" &
build_or_exit build/megartp build/tests/gpu/test_mega
wait
echo "builds $((SECONDS - t0)) s"
{
gpu_tests 60 test_mega
for r in 1 2 3 4 5 6 7 8 9 10; do
    [ $((SECONDS - t0)) -gt 300 ] && break
    timeout 40 build-2s/megartp bench glm5-prefix --modes mega > "$O/b2s-$r.md" 2>&1
    rc=$?
    echo "2s bench $r rc=$rc t=$((SECONDS - t0)) $(grep -E 'step, mega' "$O/b2s-$r.md" | tr -s ' ' | cut -c1-70)"
    [ $rc != 0 ] && grep -v "GEMM tile" "$O/b2s-$r.md" | head -12 | cut -c1-400
done
build_tests 120 test_mega_prefix 2s
for tool in racecheck synccheck; do
    [ $((SECONDS - t0)) -gt 420 ] && break
    sanitize $tool 100 2san build-2san/tests/gpu/test_mega_prefix --tiny
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
