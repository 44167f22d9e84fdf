#!/bin/bash
# Session 11, run 5: INDEX_Q's group finalization (D1) in 64-thread groups (mrt_mega_fin_threads:
# a unit's 16 row jobs in one round of its members' 24 groups instead of two of 12; D1's
# computed -> published was 11.4 us in run 4's trace). Checks mega = serial bytes
# (test_mega_prefix) and the standalone INDEX_Q finalization (test_gemm_fp8 --quick), then
# the step against run 4's figures (mega 101.74 / 101.10 roundrobin, 99.93 critical-path),
# then racecheck, synccheck and memcheck of the reduced-size megakernel step (its INDEX_Q
# groups now meet at named barriers 2-7).
# Run: timeout 300 bash scripts/device-s11e.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant san2 "-DMRT_SPIN_LIMIT_CYCLES=2000000000000LL -DMRT_A0_CLUSTER=1 -DMRT_GEMM_NO_CLUSTER" \
    tests/gpu/test_mega_prefix &
build_or_exit build/megartp build/tests/gpu/test_mega_prefix build/tests/gpu/test_gemm_fp8 build/tests/gpu/test_serial
wait
echo "builds $((SECONDS - t0)) s"
{
gpu_tests 90 test_mega_prefix "test_serial --quick" "test_gemm_fp8 --quick"
for r in 1 2 3; do
    timeout 40 build/megartp bench glm5-prefix --modes serial,mega --reps 100 > "$O/bench-$r.md" 2>&1
    echo "round $r rc=$? $(grep -E 'step, ' "$O/bench-$r.md" | tr -s ' ' | cut -c1-100 | tr '\n' ' ')"
done
timeout 40 build/megartp bench glm5-prefix --modes mega --reps 100 --policy critical-path > "$O/bench-cp.md" 2>&1
echo "critical-path rc=$? $(grep -E 'step, ' "$O/bench-cp.md" | tr -s ' ' | cut -c1-100 | tr '\n' ' ')"
timeout 30 build/megartp trace glm5-prefix --backend mega -o "$O/trace.json" > "$O/trace.txt" 2>&1
echo "trace rc=$?"; sed -n 4,14p "$O/trace.txt"
echo "t=$((SECONDS - t0)) s"
mega_tiny_sanitize 40 build-san2 mega-tiny
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
