#!/bin/bash
# Session 10, run 5 (2026-11-30): every lane of the scale-writing warps arrives on the GEMM's
# scales barrier (run 4's 16 racecheck hazards, each a consumer read of the scales against the
# loaders' stores, ordered only through __syncwarp and lane 0's arrival). Tests of the GEMM
# users (standalone, serial + cmp, megakernel), then racecheck and synccheck of the
# reduced-size step without clusters (build-san2), then one step benchmark.
# Run: timeout 330 bash scripts/device-s10d.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant san2 "-DMRT_SPIN_LIMIT_CYCLES=2000000000000LL -DMRT_A0_CLUSTER=1 -DMRT_GEMM_NO_CLUSTER" tests/gpu/test_serial &
build_or_exit
wait
echo "builds $((SECONDS - t0)) s"
{
gpu_tests 90 "test_serial --quick" test_mega_prefix test_mega
sanitize racecheck 60 tiny build-san2/tests/gpu/test_serial --tiny
grep -E "^=========     at " "$O/racecheck-tiny.log" | sed 's/+0x[0-9a-f]*//' | sort | uniq -c | head -8
sanitize synccheck 40 tiny build-san2/tests/gpu/test_serial --tiny
echo "t=$((SECONDS - t0)) s"
timeout 40 build/megartp bench glm5-prefix --modes serial,cmp,mega > "$O/bench.md" 2>&1
echo "bench rc=$? $(grep -E 'step, |same-bytes' "$O/bench.md" | tr -s ' ' | cut -c1-90 | tr '\n' ' ')"
left=$((320 - (SECONDS - t0)))
[ $left -gt 20 ] && gpu_tests $left test_gemm_fp8
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
