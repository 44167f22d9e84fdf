#!/bin/bash
# Ran once (session 7, 19:36 UTC, 6e6ca8a: the f16 wgmma); its switches are gone since c2ad52e.
# Branch e1-wgmma (written 2026-11-29, session 6, compile-checked only). First GPU run:
#  1. test_index_ops: E1 variant 4 (wgmma) against the reference on every 32 / 64-head case,
#     its timings beside variant 0's; racecheck of the small cases;
#  2. builds with -DMRT_E1_WGMMA (serial / cmp / mega take the wgmma E1) and with
#     -DMRT_MEGA_E1_CALL (the megakernel's mma.sync E1 as a call: ptxas, TN=16, spill 276 / 672
#     bytes against 656 / 888 inlined; the wgmma build has the same spill), each checked by
#     test_serial --quick and test_mega_prefix, then the step A B C A B C.
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant wg -DMRT_E1_WGMMA megartp &
build_variant call -DMRT_MEGA_E1_CALL megartp &
build_or_exit
wait
make -j16 BUILD=build-wg EXTRA_NVCCFLAGS=-DMRT_E1_WGMMA build-wg/tests/gpu/test_serial build-wg/tests/gpu/test_mega_prefix \
    > "$O/build-wg-tests.log" 2>&1 || echo "wg tests build FAILED"
echo "builds $((SECONDS - t0)) s"
{
gpu_tests 200 test_index_ops
grep -E " v4:|TIME E1 (f16 \(v0\)|wgmma|default)" "$O/test_index_ops.log" | cut -c1-150 | head -40
for t in "test_serial --quick" test_mega_prefix; do
    set -- $t
    timeout 200 build-wg/tests/gpu/"$@" > "$O/wg-$1.log" 2>&1; echo "wg $t rc=$? $(tail -1 "$O/wg-$1.log")"
    grep FAIL "$O/wg-$1.log" | head -5
done
ab_bench serial,cmp,mega build build-wg build-call
grep -E "^\| E1 " "$O"/bench-serial,cmp,mega-*.md
[ $((SECONDS - t0)) -lt 450 ] && sanitize racecheck 60 index build/tests/gpu/test_index_ops --tiny
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
