#!/bin/bash
# Session 25 run 5 (2026-12-01): INDEX_Q's finalization epilogue (D1's, on the critical path)
# took 3.0-3.4 us a job with its loads landed, warm or cold (run 4, -DMRT_MEGA_FIN_PROBE=3):
# chains of shuffles, fp64 square roots and divisions on one warp. Now: its gate partials and
# q_a block sums added from shared memory (loads all in flight) instead of a shuffle each, the
# two wI factors from the host, and one-warp groups' max and fp64 sums through lane 0's
# shuffles instead of shared memory between barriers (QKV_A's q jobs too). The same operands
# in the same order: the same bytes, checked here against old.tar (761aa8b) by test_serial's
# digests at 20 shapes. GPU tests, the sanitizers on the reduced step, the A B, the epilogue
# by phase again.
# Run: timeout 540 bash scripts/device-s25e.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_old 6 build/megartp build/tests/gpu/test_serial &
build_variant fprobe3 -DMRT_MEGA_FIN_PROBE=3 megartp &
build_variant san "$SAN" tests/gpu/test_mega_prefix &
build_or_exit build/megartp build/tests/gpu/test_mega_prefix build/tests/gpu/test_mega build/tests/gpu/test_serial \
    build/tests/gpu/test_gemm_fp8
wait
{
echo "builds $((SECONDS - t0)) s"
gpu_tests 150 "test_serial" "test_mega_prefix" "test_gemm_fp8" "test_mega"
grep -h "NoOp" "$O/test_mega.log" | tail -1
timeout 150 /tmp/old/build/tests/gpu/test_serial > "$O/test_serial-old.log" 2>&1
echo "old test_serial rc=$? $(tail -1 "$O/test_serial-old.log")"
grep "serial digest" "$O/test_serial-old.log" > "$O/digests-old.txt"
grep "serial digest" "$O/test_serial.log" > "$O/digests-new.txt"
echo "digests: $(wc -l < "$O/digests-new.txt") new, $(wc -l < "$O/digests-old.txt") old, $(diff "$O/digests-old.txt" "$O/digests-new.txt" | grep -c '^>') differ"
echo "t=$((SECONDS - t0)) s"
for r in 1 2 3; do
    mega_at /tmp/old/build old-$r "16 2 8192"
    mega_at build new-$r "16 2 8192"
done
mega_tiny_sanitize 150 build-san new
echo "t=$((SECONDS - t0)) s"
for sh in "128 2 8192" "64 2 8192" "16 2 65536" "128 2 1024" "1 1 8192" "128 2 65536"; do
    mega_at /tmp/old/build old "$sh"
    mega_at build new "$sh"
done
echo "t=$((SECONDS - t0)) s"
for sh in "16 2 8192" "128 2 8192"; do
    trace_phases_at build-fprobe3 fprobe3 "$sh" "B0|D1" "compute done" visible "input ready" "weights issued" published
done
step_shapes serial,cmp,mega build "16 2 8192"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
