#!/bin/bash
# The next session's second device run (written 2026-11-30, end of session 12; compile-checked,
# default PTX identical to session 12 run 7's). The megakernel's kernel body spills 308 bytes a
# thread at TN 16 (A0's row and the finalization job inlined into it), and that pressure is what
# made inlining the wgmma tiles (no C7510) a loss in session 12 (runs 4-5: +10 and +25 us).
#   bodyc  = -DMRT_MEGA_BODY_CALLS: A0's row and the finalization job as calls (body spill
#            308 -> 64 bytes at TN 16, ptxas -v)
#   bodyci = bodyc + -DMRT_MEGA_INLINE_WG: the GEMM and wgmma E1 tiles inlined too (no C7510;
#            body spill 556 bytes, against 992 with the tiles inlined alone)
# mega = serial bytes for both, A B C A B C, critical-path, traces.
# Run: timeout 560 bash scripts/device-next2.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant bodyc -DMRT_MEGA_BODY_CALLS "megartp build-bodyc/tests/gpu/test_mega_prefix" &
build_variant bodyci "-DMRT_MEGA_BODY_CALLS -DMRT_MEGA_INLINE_WG" "megartp build-bodyci/tests/gpu/test_mega_prefix" &
build_or_exit build/megartp
wait
echo "builds $((SECONDS - t0)) s"
{
build_tests 120 test_mega_prefix bodyc bodyci
echo "t=$((SECONDS - t0)) s"
ab_bench serial,cmp,mega build build-bodyc build-bodyci
cp_bench build build-bodyc build-bodyci
mega_traces 500 build build-bodyc build-bodyci
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
