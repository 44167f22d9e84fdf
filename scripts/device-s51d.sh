#!/bin/bash
# Session 51 run 4: are run 3's racecheck hazards (F1's row and the instruction words, in the
# TN 64 kernel of --tiny's new 64-token case) the 2-row jobs' or the kernel's? The same SAN
# build with the jobs off in that kernel (-DMRT_MEGA_IQ_ROWS_TN64=1: its code as before),
# racecheck on --tiny.
# Run: (test binary packed as build-pack/tests-test_mega_prefix_san1.gz.bin)
#      timeout 200 bash scripts/device-s51d.sh   (carry build-pack)
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
unpack_builds
{
cat "$O/device.txt"
sanitize racecheck 150 san1 build/tests/gpu/test_mega_prefix_san1 --tiny
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
