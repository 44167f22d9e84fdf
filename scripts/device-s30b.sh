#!/bin/bash
# Session 30, run 2 (written as device-next2.sh at the end of session 29): the prepared
# -DMRT_MEGA_A0_EARLY_PUB=1 (mega.cu: an A0 task releases x8 and sx, B0's and B1's input,
# before its x stores, which it keeps in shared memory until then; its other publication after
# the instruction as before). Session 29 run 3's trace: an A0 row's computed -> published 2.08
# us with the row's 30 KB of stores before the release. Builds ep (megartp, test_mega_prefix)
# and its sanitizer build; test_mega_prefix, racecheck and memcheck of the reduced step; the A
# B at 6 shapes (M=16 twice); traces at M=16 KV=8192 with and without.
# Run: timeout 500 bash scripts/device-s30b.sh (at d2884e8; the switch was removed after)
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant ep -DMRT_MEGA_A0_EARLY_PUB=1 "megartp tests/gpu/test_mega_prefix" &
build_variant epsan "$SAN -DMRT_MEGA_A0_EARLY_PUB=1" tests/gpu/test_mega_prefix &
build_or_exit build/megartp
wait
{
echo "builds $((SECONDS - t0)) s"
build_tests 200 test_mega_prefix ep
# M=256: A0 tasks of two rows (the early release after the last row's x8), against the naive
# reference (`megartp run` checks every output)
timeout 120 build-ep/megartp run glm5-prefix --backend mega --m 256 --batch 2 --kv 1024 > "$O/run-ep-256.txt" 2>&1
echo "run ep M=256 rc=$? $(grep -E 'pass|FAIL|within|error' "$O/run-ep-256.txt" | tail -2 | tr '\n' ' ')"
for sh in "16 2 8192" "1 1 8192" "64 2 8192" "128 2 1024" "16 2 65536" "16 2 8192"; do
    mega_at build default "$sh"
    mega_at build-ep ep "$sh"
done
for b in build build-ep; do
    l=${b#build-}; [ $b = build ] && l=default
    mega_trace $b $l-16-8192 | grep -E "^  [A-F][0-9] |critical"
done
echo "t=$((SECONDS - t0)) s"
sanitize racecheck 120 ep build-epsan/tests/gpu/test_mega_prefix --tiny
sanitize memcheck 120 ep build-epsan/tests/gpu/test_mega_prefix --tiny
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
