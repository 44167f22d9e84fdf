#!/bin/bash
# The next session's first device run (written 2026-12-01, end of session 25; the script
# this file held, session 24's, ran as scripts/device-s25a.sh). Session 25 measured its final
# tree (f02e5fd) at 7 of the 12 shapes only: this run is the baseline on the tree as it is.
# GPU tests (test_mega_prefix: mega = serial bytes at the 12 shapes; test_serial's digests;
# test_mega with the NoOp cost), `megartp run` on the three GPU executors (one digest), the three sanitizers on the reduced step, the default plan at
# the 12 shapes ([E]'s sweep, x the read), serial / cmp / mega at M=16 KV=8192, a trace there,
# and the finalization jobs by phase (-DMRT_MEGA_FIN_PROBE=2) at M = 16 and 128, the
# baseline for docs/MEGAKERNEL.md session 25's "Next" item 1; then that item's prepared
# build, -DMRT_MEGA_IQ_PAIRS=1 (INDEX_Q's one-warp groups two jobs a claim; compile-checked,
# never run): its test_mega_prefix (mega = serial bytes), the A B against the default and its
# D1 by phase.
# Run: timeout 590 bash scripts/device-s26a.sh (session 26 run 1, as device-next.sh was written)
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant fprobe2 -DMRT_MEGA_FIN_PROBE=2 megartp &
build_variant pairs -DMRT_MEGA_IQ_PAIRS=1 "megartp tests/gpu/test_mega_prefix" &
build_variant pprobe "-DMRT_MEGA_IQ_PAIRS=1 -DMRT_MEGA_FIN_PROBE=2" megartp &
build_variant san "$SAN" tests/gpu/test_mega_prefix &
build_or_exit build/megartp build/tests/gpu/test_mega_prefix build/tests/gpu/test_mega build/tests/gpu/test_serial
wait
{
echo "builds $((SECONDS - t0)) s"
gpu_tests 150 "test_mega_prefix" "test_serial" "test_mega"
grep -h "NoOp" "$O/test_mega.log" | tail -1
grep "serial digest" "$O/test_serial.log" > "$O/digests.txt"
run_backends serial cmp mega # megartp run's output digest: the three must print the same one
grep -h "output digest" "$O"/run-*.txt | sort | uniq -c
mega_tiny_sanitize 150 build-san final
echo "t=$((SECONDS - t0)) s"
mega_sweep build default
step_shapes serial,cmp,mega build "16 2 8192"
mega_trace build default-16-8192 | grep -E "^  [A-F][0-9] |critical"
for sh in "16 2 8192" "128 2 8192"; do
    trace_phases_at build-fprobe2 fprobe2 "$sh" "B0|D1" "compute done" "weights issued" visible "input ready" published
done
echo "t=$((SECONDS - t0)) s"
build_tests 150 test_mega_prefix pairs
for sh in "16 2 8192" "16 2 8192" "64 2 8192" "128 2 8192" "128 2 1024" "16 2 65536"; do
    mega_at build default "$sh"
    mega_at build-pairs pairs "$sh"
done
for sh in "16 2 8192" "128 2 8192"; do
    trace_phases_at build-pprobe pprobe "$sh" "D1" "compute done" "weights issued" visible "input ready" published
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
