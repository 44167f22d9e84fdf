#!/bin/bash
# Session 42 run 4 (2026-12-02): run 3's scales by TMA with the box started on 16 bytes. Run 3
# (device-s42d.sh) ended in "illegal instruction" wherever a tile's first K block was not a
# multiple of 4 (B1's splits of 3 K blocks: test_gemm_fp8's first B1 case, every GLM-5 step),
# while every case with 4-aligned starts passed (test_gemm_fp8's B0 at 7 M, the reduced step
# under the sanitizers); now the box starts at kb0 rounded down to 4 and the tile's K blocks
# sit up to 3 columns into its rows (gemm_core.cuh mrt_gemm_sx_col). Built here: the tree and
# its sanitizer build; carried: build-head/megartp (8283a19, built on the development machine).
# 1. checks: test_gemm_fp8, test_mega_prefix, test_serial (digests against the record), test_mega;
#    `megartp run` serial / cmp / mega;
# 2. A B, mega: the target shape twice, M=1 / 64 KV=8192, M=128 KV=1024 from build-head and build;
# 3. the sanitizers on the reduced step (last: what time is left).
# Run: timeout 420 bash scripts/device-s42e.sh   (carry build-pack)
. "$(dirname "$0")/device-common.sh"
unpack_builds
t0=$SECONDS
build_variant san "$SAN" tests/gpu/test_mega_prefix &
build_or_exit build/megartp build/tests/gpu/test_mega_prefix build/tests/gpu/test_mega build/tests/gpu/test_serial \
    build/tests/gpu/test_gemm_fp8
wait
{
echo "builds $((SECONDS - t0)) s"
gpu_checks bench/test_serial-digests.txt "test_gemm_fp8" "test_mega_prefix" "test_serial" "test_mega"
echo "t=$((SECONDS - t0)) s"
for s in "16 2 8192" "16 2 8192" "1 1 8192" "64 2 8192" "128 2 1024"; do ab_shapes "build-head build" "$s"; done
echo "t=$((SECONDS - t0)) s"
mega_tiny_sanitize 100 build-san final
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
