#!/bin/bash
# Session 27, run 1 (as device-next.sh stood at the end of session 26; session 26's
# runs are scripts/device-s26a.sh .. s26e.sh). Session 26's final tree changed F1's pass 0
# once more after its last GPU test (the unaligned path's batch: kv % 4 != 0 rows, which
# test_index_ops runs), so: GPU tests first (test_mega_prefix: mega = serial bytes;
# test_serial's digests against bench/test_serial-digests.txt, session 26's; test_mega;
# test_index_ops --quick), `megartp run` on the three executors (one digest); then the
# prepared -DMRT_MEGA_IL_EARLY_LOOKUP=1 (mega.cu: the wgmma E1 tile issues its first pass's
# block-table lookups before it waits for its events; compile-checked, the default build's
# PTX unchanged): its test_mega_prefix, the A B against the default, a trace; serial / cmp /
# mega with the read; the sanitizers on the reduced step (the final tree, then racecheck of
# the switch); F1's pass 0 with and without its shared atomics (-DMRT_MEGA_TOPK_STOP=1, and
# with -DMRT_TOPK_DIAG_NO_HIST: the trace's F1 input -> computed of each); the 12-shape sweep
# of the default until the time is spent.
# -DMRT_MEGA_IL_EARLY_LOOKUP was measured in this run and removed (e45e1a1): the tree no longer
# builds it.
# Run: timeout 590 bash scripts/device-s27a.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant early -DMRT_MEGA_IL_EARLY_LOOKUP=1 "megartp tests/gpu/test_mega_prefix" &
build_variant san "$SAN" tests/gpu/test_mega_prefix &
build_variant esan "$SAN -DMRT_MEGA_IL_EARLY_LOOKUP=1" tests/gpu/test_mega_prefix &
build_variant stop1 -DMRT_MEGA_TOPK_STOP=1 megartp &
build_variant stop1nh "-DMRT_MEGA_TOPK_STOP=1 -DMRT_TOPK_DIAG_NO_HIST" megartp &
build_gpu_tests
wait
{
echo "builds $((SECONDS - t0)) s"
gpu_checks bench/test_serial-digests.txt
echo "t=$((SECONDS - t0)) s"
build_tests 150 test_mega_prefix early
for sh in "16 2 8192" "16 2 8192" "64 2 8192" "128 2 8192" "128 2 1024" "16 2 65536" "1 1 8192"; do
    mega_at build default "$sh"
    mega_at build-early early "$sh"
done
mega_trace build-early early-16-8192 | grep -E "^  [A-F][0-9] |critical"
mega_trace build-stop1 stop1-16-8192 | grep -E "^  F1 "
mega_trace build-stop1nh stop1nh-16-8192 | grep -E "^  F1 "
step_shapes serial,cmp,mega build "16 2 8192"
echo "t=$((SECONDS - t0)) s"
[ $((SECONDS - t0)) -lt 420 ] && mega_tiny_sanitize 100 build-san final
[ $((SECONDS - t0)) -lt 480 ] && sanitize racecheck 100 early build-esan/tests/gpu/test_mega_prefix --tiny
echo "t=$((SECONDS - t0)) s"
sweep_until 570 build sweep
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
