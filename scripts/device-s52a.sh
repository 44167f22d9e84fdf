#!/bin/bash
# Session 52 run 1. (a) Whether the racecheck hazards of the TN 64 and 128 kernels (F1's row,
# topk.cuh:665/671 and :110/112; the instruction words, mega.cu:451 against the reads after
# the loop's __syncthreads) are racecheck's reading of named barrier 1, which F1's row uses
# with 384 threads and the GEMM consumers with 256: the SAN build with F1's row barrier on id
# 14 (free) against the SAN build as it is, racecheck on test_mega_prefix --tiny (its 64- and
# 128-token cases show the hazards), then the tiny test plain. (b) B0's and D1's split at
# large M (session 51: B0's finalization waits ~13.6 us for its 4 members at M=128), default
# plans against --split, two rounds.
# Build here: SAN as in device-common.sh;
#   make -j2 BUILD=build-san EXTRA_NVCCFLAGS="$SAN" build-san/tests/gpu/test_mega_prefix
#   make -j2 BUILD=build-san14 EXTRA_NVCCFLAGS="$SAN -DMRT_TOPK_BAR=14" build-san14/tests/gpu/test_mega_prefix
#   cp build-san/tests/gpu/test_mega_prefix build/tests/gpu/test_mega_prefix_san
#   cp build-san14/tests/gpu/test_mega_prefix build/tests/gpu/test_mega_prefix_san14
#   sh scripts/pack-builds.sh build build/tests/gpu/test_mega_prefix_san build/tests/gpu/test_mega_prefix_san14
# Run: timeout 560 bash scripts/device-s52a.sh   (carry build-pack)
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
unpack_builds
{
cat "$O/device.txt"
sanitize racecheck 100 san build/tests/gpu/test_mega_prefix_san --tiny
sanitize racecheck 100 san14 build/tests/gpu/test_mega_prefix_san14 --tiny
gpu_tests 60 "test_mega_prefix_san14 --tiny"
echo "t=$((SECONDS - t0)) s"
# the tuned plans spelled out (an explicit --split turns tuning off): M=128 KV=1024 D1=2,
# M=64 KV=8192 D1=2 and E1 chunks of 256
for round in 1 2; do
    for s in "128 2 1024|" "64 2 8192|--chunk E1=256"; do
        sh=${s%%|*} ch=${s#*|}
        mega_at build default "$sh"
        for sp in D1=2 D1=2,B0=2 D1=2,B0=3 D1=2,B0=6 D1=4; do
            [ $((SECONDS - t0)) -lt 500 ] && mega_at build "$sp" "$sh" --split "$sp" $ch
        done
    done
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
