#!/bin/bash
# Session 21 run 3 (2026-11-30): run 2's cluster build launched no clusters at 128 workers
# (the loader found fewer than 32 clusters of 4 resident, figure not logged) and was 7-8 us
# slower without them (its second inlined copy of the finalization job, now one call site).
# Here: how many clusters of 4 fit (the bench line says), then the largest multiple of 4
# workers that fits, mega with and without clusters there (A B A B), the cluster build's
# trace and tests, the other shapes.
# Run: timeout 560 bash scripts/device-s21c.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant c4 -DMRT_MEGA_CLUSTER=4 "megartp tests/gpu/test_mega_prefix" &
build_or_exit build/megartp
wait
{
echo "builds $((SECONDS - t0)) s"; grep -E "FAILED| error" "$O/build-c4.log" | head -5
mega_at build-c4/ probe "16 2 8192" --workers 128 --reps 10
fit=$(grep -oE '\(([0-9]+) fit\)' "$O/at-probe-16-8192.md" | grep -oE '[0-9]+' | head -1)
W=128; [ -n "$fit" ] && [ "$fit" -gt 0 ] && [ $((fit * 4)) -lt 128 ] && W=$((fit * 4))
echo "clusters of 4 that fit: ${fit:-all 32}; workers $W"
timeout 60 build-c4/megartp run glm5-prefix --backend mega --workers $W > "$O/run-c4.txt" 2>&1
echo "run c4 $W rc=$?"; tail -4 "$O/run-c4.txt" | cut -c1-200
for r in 1 2; do
    mega_at build/ default132-$r "16 2 8192"
    mega_at build/ default$W-$r "16 2 8192" --workers $W
    mega_at build-c4/ c4-$W-$r "16 2 8192" --workers $W
done
mega_trace build-c4 c4 --workers $W
mega_trace build d --workers $W
timeout 200 build-c4/tests/gpu/test_mega_prefix > "$O/test_mega_prefix-c4.log" 2>&1
echo "test_mega_prefix c4 rc=$? $(tail -1 "$O/test_mega_prefix-c4.log")"; grep -E "FAIL" "$O/test_mega_prefix-c4.log" | head -5
for sh in "1 1 8192" "16 2 1024" "64 2 8192" "128 2 8192"; do
    [ $((SECONDS - t0)) -gt 500 ] && break
    mega_at build/ default$W "$sh" --workers $W
    mega_at build-c4/ c4-$W "$sh" --workers $W
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
