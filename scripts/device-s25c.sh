#!/bin/bash
# Session 25 run 3 (2026-12-01): the finalization jobs' split sums in shared memory (no
# reduced buffer written and read back; run 2's other two changes, positions copied and
# claims ahead, measured no better or worse and are out) against old.tar (git archive of
# HEAD before it) at the 12 shapes, the GPU tests and sanitizers on it, and a finalization
# job by phase (-DMRT_MEGA_FIN_PROBE=2: claim returned, loads landed, epilogue done) at
# M = 16, 64, 128 KV=8192.
# Run: timeout 590 bash scripts/device-s25c.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_old 4 &
build_variant fprobe2 -DMRT_MEGA_FIN_PROBE=2 megartp &
build_variant san "$SAN" tests/gpu/test_mega_prefix &
build_or_exit build/megartp build/tests/gpu/test_mega_prefix build/tests/gpu/test_mega build/tests/gpu/test_serial \
    build/tests/gpu/test_gemm_fp8
wait
{
echo "builds $((SECONDS - t0)) s"
gpu_tests 150 "test_mega_prefix" "test_serial" "test_gemm_fp8" "test_mega"
grep -h "NoOp" "$O/test_mega.log" | tail -1
mega_tiny_sanitize 150 build-san new
echo "t=$((SECONDS - t0)) s"
for r in 1 2 3; do
    mega_at /tmp/old/build old-$r "16 2 8192"
    mega_at build new-$r "16 2 8192"
done
for sh in "1 1 1024" "1 1 8192" "1 1 65536" "16 2 1024" "16 2 65536" "64 2 1024" "64 2 8192" "64 2 65536" \
    "128 2 1024" "128 2 8192" "128 2 65536"; do
    mega_at /tmp/old/build old "$sh"
    mega_at build new "$sh"
done
echo "t=$((SECONDS - t0)) s"
mega_trace build new-16-8192 | grep -E "^  [A-F][0-9] |critical"
for sh in "16 2 8192" "64 2 8192" "128 2 8192"; do
    trace_phases_at build-fprobe2 fprobe2 "$sh" "B0|B1|D1|D0" "compute done" "weights issued" visible "input ready" published
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
