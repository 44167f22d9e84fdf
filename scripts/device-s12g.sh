#!/bin/bash
# Ran at 1c0c9ab (bench/RESULTS.md, session 12); -DMRT_GEMM_KB_DIAG_RELOAD is gone from the code since.
# Session 12, run 7: the consumers' k-loops read the watchdog pointer (a.diag) once instead of
# after every mbarrier asm (run 6's ncu: a 64-bit operand-row field re-read from shared memory
# and spilled each K block). Old form: -DMRT_GEMM_KB_DIAG_RELOAD (PTX identical to 454790d's
# default). A B A B both policies, the GEMM probe, then the new default's tests (the standalone
# GEMMs' code changed too).
# Run: timeout 380 bash scripts/device-s12g.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant old -DMRT_GEMM_KB_DIAG_RELOAD megartp &
build_variant gp -DMRT_GEMM_PROBE megartp &
build_or_exit build/megartp build/tests/gpu/test_mega_prefix build/tests/gpu/test_serial build/tests/gpu/test_gemm_fp8
wait
echo "builds $((SECONDS - t0)) s"
{
ab_bench serial,cmp,mega build build-old
cp_bench build build-old
timeout 30 build-gp/megartp trace glm5-prefix --backend mega -o "$O/trace-gp.json" > "$O/trace-gp.txt" 2>&1
echo "trace gp rc=$?"; python3 scripts/trace_phases.py "$O/trace-gp.json" "input ready" "weights issued" visible "compute done" published | grep -E 'op|B0|D1|D0|B1'
sed -n 4,14p "$O/trace-gp.txt"
echo "t=$((SECONDS - t0)) s"
gpu_tests 120 test_mega_prefix "test_serial --quick" "test_gemm_fp8 --quick"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
