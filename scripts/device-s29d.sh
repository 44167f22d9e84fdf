#!/bin/bash
# Session 29, run 4: A0's rows in slices by default below 16 rows (16 tasks in all;
# add_rmsnorm_quant.c default_cfg, plan.c halving). old.tar = 2d7fca1 (rows whole, before the
# slices' code). test_serial (the standalone A0 kernels' new range checks: same digests),
# test_mega_prefix (M=1 and M=4 default plans sliced, the sweep), racecheck of the reduced
# step (its M=4 default plan now in 4 slices a row), then the A B old / new at M = 1, 2, 4, 8
# and at M=16 (unchanged plan).
# Run: timeout 500 bash scripts/device-s29d.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_old 6 build/megartp &
build_variant san "$SAN" tests/gpu/test_mega_prefix &
build_or_exit build/megartp build/tests/gpu/test_mega_prefix build/tests/gpu/test_serial
wait
{
echo "builds $((SECONDS - t0)) s"
gpu_tests 200 test_mega_prefix test_serial
sanitize racecheck 120 a0d build-san/tests/gpu/test_mega_prefix --tiny
echo "t=$((SECONDS - t0)) s"
for sh in "1 1 8192" "1 1 1024" "1 1 65536" "2 2 8192" "4 2 8192" "8 2 8192" "16 2 8192" "1 1 8192" "4 2 1024"; do
    mega_at /tmp/old/build old "$sh"
    mega_at build new "$sh"
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
