#!/bin/bash
# Session 29 run 2 (written 2026-12-01, end of session 28, as device-next2.sh): the prepared
# -DMRT_MEGA_FIN_STATIC_FIRST=1 (mega_gemm.cuh: the member completing a reduce group's ticket
# runs jobs 0 .. G-1 unclaimed; the claim word hands out the rest). Builds sfs (with its
# test_mega_prefix), its sanitizer build (racecheck and memcheck on the reduced step), fp2 /
# sfsfp2 = -DMRT_MEGA_FIN_PROBE=2 without / with it (group 0's first job: claim returned,
# loads landed, epilogue done; a static job's "claim returned" is its start). Then the A B at
# 6 shapes. Session 29 added the default's racecheck (run 1 took D0's rows' factors once a
# tile, 38ccc01: its test_mega_prefix ran as the qbr build, its sanitizers had not).
# Run: timeout 500 bash scripts/device-s29b.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant sfs -DMRT_MEGA_FIN_STATIC_FIRST=1 "megartp tests/gpu/test_mega_prefix" &
build_variant sfssan "$SAN -DMRT_MEGA_FIN_STATIC_FIRST=1" tests/gpu/test_mega_prefix &
build_variant san "$SAN" tests/gpu/test_mega_prefix &
build_variant fp2 -DMRT_MEGA_FIN_PROBE=2 megartp &
build_variant sfsfp2 "-DMRT_MEGA_FIN_PROBE=2 -DMRT_MEGA_FIN_STATIC_FIRST=1" megartp &
build_or_exit build/megartp
wait
PH='"compute done" "weights issued" visible "input ready" published'
{
echo "builds $((SECONDS - t0)) s"
build_tests 150 test_mega_prefix sfs
for b in build-fp2 build-sfsfp2 build build-sfs; do
    l=${b#build-}; [ $b = build ] && l=default
    mega_trace $b $l-16-8192 | grep -E "^  (A0|B0|D1|E1|F1) |critical"
    eval python3 scripts/trace_phases.py "$O/trace-$l-16-8192.json" $PH | grep -E "^(op|B0|D1) "
done
for sh in "16 2 8192" "128 2 1024" "16 2 8192" "1 1 8192" "64 2 8192" "16 2 65536"; do
    for b in build build-sfs; do mega_at $b ${b#build-} "$sh"; done
done
echo "t=$((SECONDS - t0)) s"
sanitize racecheck 100 default build-san/tests/gpu/test_mega_prefix --tiny
sanitize racecheck 100 sfs build-sfssan/tests/gpu/test_mega_prefix --tiny
sanitize memcheck 100 sfs build-sfssan/tests/gpu/test_mega_prefix --tiny
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
