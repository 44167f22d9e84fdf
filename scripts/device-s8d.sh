#!/bin/bash
# Session 8, run 4: the configuration to keep (D0 fused in serial only, cmp with D0's
# separate finalization; A0 as before run 3) checked, and one cmp experiment: D0 streams its
# weights after D1's GEMM instead of beside it (-DMRT_CMP_D1_FIRST), since D1 is on cmp's
# critical path and finished at 39.4 us sharing the bandwidth with D0 (run 3 trace).
# Run: timeout 500 bash scripts/device-s8d.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant d1 -DMRT_CMP_D1_FIRST megartp &
build_or_exit
make -j16 BUILD=build-d1 EXTRA_NVCCFLAGS=-DMRT_CMP_D1_FIRST build-d1/tests/gpu/test_serial > "$O/build-d1-tests.log" 2>&1 || echo "d1 tests build FAILED"
wait
echo "builds $((SECONDS - t0)) s"
{
gpu_tests 200 test_mega_prefix "test_serial --quick"
timeout 100 build-d1/tests/gpu/test_serial --quick > "$O/d1-test_serial.log" 2>&1
echo "d1 test_serial --quick rc=$? $(tail -1 "$O/d1-test_serial.log")"
echo "t=$((SECONDS - t0)) s"
ab_bench serial,cmp,mega build build-d1
grep -E "^\| [A-F][0-9] " "$O/bench-serial,cmp,mega-build-1.md"
for b in build build-d1; do
    [ $((SECONDS - t0)) -gt 400 ] && break
    timeout 40 $b/megartp trace glm5-prefix --backend cmp -o "$O/trace-cmp-$b.json" > "$O/trace-cmp-$b.txt" 2>&1
    echo "trace cmp $b rc=$?"; sed -n 4,14p "$O/trace-cmp-$b.txt"
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
