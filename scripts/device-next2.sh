#!/bin/bash
# The next session's second device run (written 2026-11-30, end of session 14): put the flags
# of device-next.sh's winners in FLAGS (e.g. "-DMRT_CVT_SELECT"); with them: test_mega_prefix,
# test_mega (watchdog, NoOp cost), compute-sanitizer on the reduced-size step ([E] criterion
# 3), then the [E] shape sweep under both policies.
# Run: timeout 570 bash scripts/device-next2.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
FLAGS=""
SAN="-DMRT_SPIN_LIMIT_CYCLES=2000000000000LL -DMRT_A0_CLUSTER=1 -DMRT_GEMM_NO_CLUSTER"
build_variant san "$SAN $FLAGS" tests/gpu/test_mega_prefix &
build_or_exit build/megartp build/tests/gpu/test_mega_prefix build/tests/gpu/test_mega EXTRA_NVCCFLAGS="$FLAGS"
wait
echo "builds $((SECONDS - t0)) s"
{
gpu_tests 150 test_mega_prefix test_mega
mega_tiny_sanitize 30 build-san default
echo "t=$((SECONDS - t0)) s"
e_sweep 420 550
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
