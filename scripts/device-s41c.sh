#!/bin/bash
# Session 41 run 3 (2026-12-02): the activation scales gathered by cp.async (gemm_core.cuh
# mrt_gemm_gather_sx: every copy of a lane in flight at once, where 16 loads a lane went in
# dependent rounds: run 2's probe had D0 at M=128 ~10 us from its input to K block 0, ~2 at
# M=16). Nothing is built here: carry build-pack (build/: the change; build-base/: c015928;
# build/tests/gpu/ test_gemm_fp8, test_mega_prefix, test_serial, test_mega and
# test_mega_prefix_san, the sanitizer build of test_mega_prefix, all of the change).
#  1. checks: the four GPU tests, test_serial's digests against bench/test_serial-digests.txt,
#     `megartp run` serial / cmp / mega, the sanitizers on the reduced step;
#  2. A B: the 12 shapes from each build, then the target shape, M=128 KV=1024 and M=64
#     KV=8192 again; serial at M=128 KV=1024 and M=16 KV=8192 from each; a trace at M=128.
# Run: timeout 590 bash scripts/device-s41c.sh
. "$(dirname "$0")/device-common.sh"
unpack_builds
t0=$SECONDS
{
gpu_checks bench/test_serial-digests.txt "test_mega_prefix" "test_serial" "test_mega" "test_gemm_fp8"
tiny_sanitize 100 build/tests/gpu/test_mega_prefix_san final
echo "t=$((SECONDS - t0)) s"
mega_sweep build-base base
mega_sweep build new
for s in "16 2 8192" "128 2 1024" "64 2 8192"; do ab_shapes "build-base build" "$s"; done
step_shapes serial "build-base build" "128 2 1024" "16 2 8192"
echo "t=$((SECONDS - t0)) s"
mega_trace build new-128-1024 --m 128 --batch 2 --kv 1024
mega_trace build new-16-8192
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
