#!/bin/bash
# The next session's first device run (written 2026-11-30, end of session 10; compile-checked).
# Four megakernel experiments, each A B A B against the default after its correctness test:
#  - early (-DMRT_MEGA_EARLY_WEIGHTS, src/cuda/mega_gemm.cuh): while a gemm_fp8 tile's reduce
#    group finalizes (9-13 us on the critical path), thread 0 sets up the next instruction's
#    GEMM tile and issues its first pipeline stages' weight loads, so D1's weights stream
#    during B0's finalization and D0's during D1's (probe, session 10 run 1: D0's k-loop
#    streams ~11.5 us after its input is ready);
#  - t384 (-DMRT_MEGA_TOPK_THREADS=384): F1 rows on the whole CTA instead of 256 threads (14 us
#    a row at the end of the critical path); the same row code at 384 threads is
#    test_index_ops's F1 variant 10, checked against the reference on every case;
#  - fw2 (-DMRT_MEGA_FIRST_WEIGHTS_NS=2000): the step's first GEMM tiles (B0, C0, B1) hold their
#    weight loads back 2 us so that A0's row loads meet an idle memory system (A0 9.5-9.8 us a
#    row in the step; an A0-only plan 7.0 in session 4); timing only, no byte can change;
#  - help10k (-DMRT_MEGA_HELP_NS=10000): members wait up to 10 us to help their group's
#    finalization (on session 9's prepared code it recovered 17 of 19 us, session 10 run 2).
# test_mega_prefix (mega = serial bytes, both policies, 8 shapes, 1000 replays) of each build
# that changes the megakernel's code, then the A/B and the traces (w->in of D1 and D0 in
# early: how far ahead their weights now are; F1's in->comp in t384).
# Then, as time allows, [E] criterion 3: memcheck, racecheck and synccheck of
# `test_mega_prefix --tiny` (the megakernel's step, then serial's, on the reduced-size model)
# in the build without cluster launches that made the stream executors' racecheck finish
# (san2, session 10 run 5).
# Session 10's end for comparison: serial 77.06-77.24, cmp 54.37-54.43, mega 121.9-124.5.
# Run: timeout 560 bash scripts/device-next.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant early -DMRT_MEGA_EARLY_WEIGHTS "megartp build-early/tests/gpu/test_mega_prefix" &
build_variant t384 -DMRT_MEGA_TOPK_THREADS=384 "megartp build-t384/tests/gpu/test_mega_prefix" &
build_variant help10k -DMRT_MEGA_HELP_NS=10000 megartp &
build_variant fw2 -DMRT_MEGA_FIRST_WEIGHTS_NS=2000 megartp &
build_variant san2 "-DMRT_SPIN_LIMIT_CYCLES=2000000000000LL -DMRT_A0_CLUSTER=1 -DMRT_GEMM_NO_CLUSTER" \
    tests/gpu/test_mega_prefix &
build_or_exit
wait
echo "builds $((SECONDS - t0)) s"
{
gpu_tests 150 test_mega_prefix "test_serial --quick" "test_index_ops --quick"
for b in early t384; do
    timeout 150 build-$b/tests/gpu/test_mega_prefix > "$O/test_mega_prefix-$b.log" 2>&1
    echo "$b test_mega_prefix rc=$? $(tail -1 "$O/test_mega_prefix-$b.log")"
    grep FAIL "$O/test_mega_prefix-$b.log" | head -5
done
echo "t=$((SECONDS - t0)) s"
ab_bench serial,cmp,mega build build-early build-t384 build-fw2 build-help10k
mega_traces 420 build build-early build-t384 build-fw2
echo "t=$((SECONDS - t0)) s"
for tool in memcheck racecheck synccheck; do
    left=$((550 - (SECONDS - t0)))
    [ $left -lt 30 ] && break
    sanitize $tool $((left < 120 ? left : 120)) mega-tiny build-san2/tests/gpu/test_mega_prefix --tiny
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
