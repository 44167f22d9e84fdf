#!/bin/bash
# Session 11, run 3: the new defaults (run 2's claim build: F1 on 384 threads, first weights
# held 2 us, help 10 us, claims by atomicAdd; mega 110.5 / 110.2 us roundrobin, 100.65
# critical-path) verified and measured, against e1d2 (-DMRT_GLM5_E1_BEFORE_D2 in the model:
# E1 ahead of D2 in the plan order, so E1 tiles do not queue behind D2's). Then [E] criterion
# 3 again on the final code (memcheck, racecheck, synccheck of test_mega_prefix --tiny in
# the build without cluster launches) and criterion 4's shape sweep, both policies.
# Run: timeout 575 bash scripts/device-s11c.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant_c e1d2 -DMRT_GLM5_E1_BEFORE_D2 "megartp build-e1d2/tests/gpu/test_mega_prefix build-e1d2/tests/gpu/test_serial" &
build_variant san2 "-DMRT_SPIN_LIMIT_CYCLES=2000000000000LL -DMRT_A0_CLUSTER=1 -DMRT_GEMM_NO_CLUSTER" \
    tests/gpu/test_mega_prefix &
build_or_exit
wait
echo "builds $((SECONDS - t0)) s"
{
gpu_tests 120 test_mega_prefix test_mega "test_serial --quick"
grep -E "NoOp" "$O/test_mega.log"
build_tests 120 test_mega_prefix e1d2
build_tests 60 "test_serial --quick" e1d2
echo "t=$((SECONDS - t0)) s"
ab_bench serial,cmp,mega build build-e1d2
cp_bench build build-e1d2
mega_traces 300 build build-e1d2
timeout 30 build/megartp trace glm5-prefix --backend mega --policy critical-path -o "$O/trace-cp.json" > "$O/trace-cp.txt" 2>&1
echo "trace critical-path rc=$?"; sed -n 4,14p "$O/trace-cp.txt"
echo "t=$((SECONDS - t0)) s"
mega_tiny_sanitize 90 build-san2 mega-tiny
echo "t=$((SECONDS - t0)) s"
e_sweep 480 550
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
