#!/bin/bash
# Session 6, run d (2026-11-29): the serial / cmp fp8 GEMMs leave their split-K partials
# unsummed (partials_out) and the finalization kernels sum their units' columns in split
# order: no fence / ticket / last-CTA tail in B0, B1, D1. Checks: test_gemm_fp8 (planes summed
# = the kernel's reduction, out untouched), test_serial at all 20 shapes (cmp byte-identical,
# 1000 cmp replays, the slow producer), test_mega_prefix (mega = serial, byte for byte); then
# the step, a serial trace, memcheck of a small serial + cmp step.
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_or_exit
echo "build $((SECONDS - t0)) s"
{
gpu_tests 240 "test_gemm_fp8 --quick --reps 10" test_serial test_mega_prefix
grep -E "partials_out" "$O/test_gemm_fp8.log" | head -8
echo "tests done t=$((SECONDS - t0)) s"
timeout 60 build/megartp bench glm5-prefix --modes serial,cmp,mega > "$O/bench.md" 2>&1; echo "bench rc=$?"
grep -E "^\| " "$O/bench.md"
for b in serial cmp; do
    timeout 60 build/megartp trace glm5-prefix --backend $b -o "$O/trace-$b.json" > "$O/trace-$b.txt" 2>&1
    echo "trace $b rc=$?"; sed -n '2,$p' "$O/trace-$b.txt" | grep -v "^wrote"
done
[ $((SECONDS - t0)) -lt 420 ] && sanitize memcheck 90 serial-cmp build/tests/gpu/test_serial --sanitize
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
