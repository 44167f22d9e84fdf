#!/bin/bash
# Session 7, run c (2026-11-29): where the wgmma E1's ~3.5 us a 128-key pass go (variants 6:
# copies only, 7: no epilogue), 4 key buffers (variant 5, and -DMRT_ILW_STAGES=4 as every
# executor's E1), the standalone E1's chunk chosen by tiles per SM (serial / cmp).
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant s4 -DMRT_ILW_STAGES=4 megartp &
build_or_exit
wait
make -j16 BUILD=build-s4 EXTRA_NVCCFLAGS=-DMRT_ILW_STAGES=4 build-s4/tests/gpu/test_mega_prefix \
    > "$O/build-s4-tests.log" 2>&1 || echo "s4 tests build FAILED"
echo "builds $((SECONDS - t0)) s"
{
gpu_tests 150 test_index_ops
grep -E " v[45]:|TIME E1 (wgmma|f16 \(v0\) M=16 b=2 kv=8192 chunk=64|f16 \(v0\) M=64)" "$O/test_index_ops.log" | cut -c1-150 | head -60
gpu_tests 200 "test_serial --quick" test_mega_prefix
timeout 200 build-s4/tests/gpu/test_mega_prefix > "$O/s4-test_mega_prefix.log" 2>&1
echo "s4 test_mega_prefix rc=$? $(tail -1 "$O/s4-test_mega_prefix.log")"
echo "t=$((SECONDS - t0)) s"
ab_bench serial,cmp,mega build build-s4
grep -E "^\| (E1|F1) " "$O"/bench-serial,cmp,mega-*.md
for b in build build-s4; do
    [ $((SECONDS - t0)) -gt 420 ] && break
    timeout 60 $b/megartp bench glm5-prefix --m 64 --batch 8 --kv 65536 --modes serial,mega --reps 40 > "$O/long-$b.md" 2>&1
    echo "long $b rc=$? $(grep -E '^\| (E1|F1) |step, |same-bytes' "$O/long-$b.md" | tr -s ' ' | cut -c1-90 | tr '\n' ' ')"
done
[ $((SECONDS - t0)) -lt 480 ] && sanitize racecheck 60 index build/tests/gpu/test_index_ops --tiny
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
