#!/bin/bash
# Session 5, first run (2026-11-29): device-next.sh (verifies the compile-only commits after
# 64c8017), then racecheck of the serial + cmp step (test_serial --sanitize: one small step of
# each, no replays) and of the small megakernel step, full logs kept, then the shape sweep.
set -u
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
t0=$SECONDS
O=/tmp/megartp-logs5; rm -rf $O; mkdir -p $O
make -j8 BUILD=build-san EXTRA_NVCCFLAGS=-DMRT_SPIN_LIMIT_CYCLES=2000000000000LL build-san/tests/gpu/test_serial \
    build-san/tests/gpu/test_mega_prefix > $O/build-san.log 2>&1 || echo "san build FAILED" &
bash scripts/device-next.sh   # its logs: $OUT/logs.tgz
wait
{
timeout 200 compute-sanitizer --tool racecheck build-san/tests/gpu/test_serial --sanitize > "$O/race-serial.log" 2>&1
echo "racecheck serial+cmp rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$O/race-serial.log" | tail -1) t=$((SECONDS - t0))"
grep -E "FAIL|passed" "$O/race-serial.log" | head -5
timeout 100 compute-sanitizer --tool racecheck build-san/tests/gpu/test_mega_prefix --quick > "$O/race-mega.log" 2>&1
echo "racecheck mega rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$O/race-mega.log" | tail -1) t=$((SECONDS - t0))"
for s in "1 1 65536" "16 2 1024" "16 2 65536" "64 2 1024" "64 2 65536" "128 2 65536"; do
    set -- $s
    [ $((SECONDS - t0)) -gt 480 ] && break
    timeout 60 build/megartp bench glm5-prefix --m $1 --batch $2 --kv $3 --modes serial,mega --reps 40 > "$O/sweep-$1-$3.md" 2>&1
    echo "sweep M=$1 KV=$3 rc=$? $(grep -E 'step, |same-bytes' "$O/sweep-$1-$3.md" | tr -s ' ' | cut -c1-90 | tr '\n' ' ')"
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary5.txt"
[ -n "${OUT:-}" ] && tar czf "$OUT/logs5.tgz" -C "$O" .
