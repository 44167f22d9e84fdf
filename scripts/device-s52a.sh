#!/bin/bash
# Prepared in session 51, not run: whether the racecheck hazards of the TN 64 and 128 kernels
# (F1's row, topk.cuh:665/671 and :110/112; the instruction words, mega.cu:451 against the
# reads after the loop's __syncthreads) are racecheck's reading of named barrier 1, which F1's
# row uses with 384 threads and the GEMM consumers with 256. The SAN build with F1's row
# barrier on id 14 (free) against the SAN build as it is, racecheck on test_mega_prefix
# --tiny (its 64- and 128-token cases show the hazards), then the tiny test plain.
# Build here: SAN as in device-common.sh;
#   make -j2 BUILD=build-san EXTRA_NVCCFLAGS="$SAN" build-san/tests/gpu/test_mega_prefix
#   make -j2 BUILD=build-san14 EXTRA_NVCCFLAGS="$SAN -DMRT_TOPK_BAR=14" build-san14/tests/gpu/test_mega_prefix
#   cp build-san/tests/gpu/test_mega_prefix build/tests/gpu/test_mega_prefix_san
#   cp build-san14/tests/gpu/test_mega_prefix build/tests/gpu/test_mega_prefix_san14
#   sh scripts/pack-builds.sh build/tests/gpu/test_mega_prefix_san build/tests/gpu/test_mega_prefix_san14
# Run: timeout 200 bash scripts/device-s52a.sh   (carry build-pack)
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
unpack_builds
{
cat "$O/device.txt"
sanitize racecheck 80 san build/tests/gpu/test_mega_prefix_san --tiny
sanitize racecheck 80 san14 build/tests/gpu/test_mega_prefix_san14 --tiny
gpu_tests 60 "test_mega_prefix_san14 --tiny"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
