#!/bin/bash
# The next session's first device run (written 2026-11-30, end of session 10; compile-checked).
# The megakernel's early weights (-DMRT_MEGA_EARLY_WEIGHTS, src/cuda/mega_gemm.cuh): while a
# gemm_fp8 tile's reduce group finalizes (9-13 us on the critical path), thread 0 sets up the
# next instruction's GEMM tile and issues its first pipeline stages' weight loads, so D1's
# weights stream during B0's finalization and D0's during D1's (the probe: D0's k-loop
# streams ~11.5 us after its input is ready). A B A B against the default, after
# test_mega_prefix of both builds (mega = serial bytes: the early build must pass it too),
# then both builds' traces (w->in of D1 and D0: how far ahead their weights now are).
# Also help10k (-DMRT_MEGA_HELP_NS=10000: members wait up to 10 us to help their group's
# finalization; on session 9's prepared code it recovered 17 of 19 us, run 2; on today's code
# not measured).
# Session 10's end for comparison: serial 77.06-77.24, cmp 54.37-54.43, mega 121.9-124.5.
# Run: timeout 400 bash scripts/device-next.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant early -DMRT_MEGA_EARLY_WEIGHTS "megartp build-early/tests/gpu/test_mega_prefix" &
build_variant help10k -DMRT_MEGA_HELP_NS=10000 megartp &
build_or_exit
wait
echo "builds $((SECONDS - t0)) s"
{
gpu_tests 150 test_mega_prefix "test_serial --quick"
timeout 150 build-early/tests/gpu/test_mega_prefix > "$O/test_mega_prefix-early.log" 2>&1
echo "early test_mega_prefix rc=$? $(tail -1 "$O/test_mega_prefix-early.log")"
grep FAIL "$O/test_mega_prefix-early.log" | head -5
echo "t=$((SECONDS - t0)) s"
ab_bench serial,cmp,mega build build-early build-help10k
mega_traces 380 build build-early
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
