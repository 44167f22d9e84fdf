#!/bin/bash
# The next session's first device run (written 2026-11-30, end of session 9; compile-checked).
# Session 9 left the megakernel at 122-128 us, bound by its instructions' own times, not their
# order (bench/RESULTS.md, runs 6-7). This run asks where a GEMM tile's time goes now and
# tries two cheap knobs, each A B A B against today's build:
#  - probe: -DMRT_MEGA_PROBE, the trace's "weights" / "input" of GEMM tiles become k-loop done
#    / store done (D1's tiles take 7.7 us from input ready to computed for 4 K blocks whose
#    weights are already in shared memory: k-loop, store, or the tile's set-up and end?)
#  - help0: -DMRT_MEGA_HELP_NS=0, members that are not last leave the group's finalization at
#    once (B0's and D1's group finalizations cost 9 and 12.5 us on the critical path)
#  - t96: -DMRT_FP8_MIN_TASK_KIB=96 (C flags), FP8 split-K tasks of at least 96 KiB: D1 32 x 2
#    and B1 8 instead of 32 x 4 and 16 (fewer, longer tiles; half the planes to finalize);
#    changes the plan of every executor, so serial and cmp are in the A/B too.
# Run: timeout 590 bash scripts/device-next.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant probe -DMRT_MEGA_PROBE megartp &
build_variant help0 -DMRT_MEGA_HELP_NS=0 megartp &
build_variant_c t96 -DMRT_FP8_MIN_TASK_KIB=96 megartp &
build_or_exit
wait
echo "builds $((SECONDS - t0)) s"
{
gpu_tests 120 test_mega_prefix "test_serial --quick"
for b in build-help0 build-t96; do
    for be in mega serial; do
        timeout 30 $b/megartp run glm5-prefix --backend $be > "$O/run-$b-$be.txt" 2>&1
        echo "run $be $b rc=$? $(tail -1 "$O/run-$b-$be.txt")"
    done
done
echo "t=$((SECONDS - t0)) s"
ab_bench serial,cmp,mega build build-help0 build-t96
mega_traces 540 build build-probe build-t96
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
