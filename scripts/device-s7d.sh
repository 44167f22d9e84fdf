#!/bin/bash
# Ran once (its run in bench/RESULTS.md, session 7); its -DMRT_ILW_EPI switch was removed after it (measured: no gain / slower).
# Session 7, run d (2026-11-29): the wgmma E1's epilogue (run c: 2.8 of 7.25 us at M=16
# KV=8192, 60 of 88 us at M=64 KV=65536): diagnostic 8 (math, no stores) and variant 9 (head
# weights in registers before the MMAs; logits identical to variant 4), then -DMRT_ILW_EPI=1
# (variant 9's epilogue in every executor) checked and A/B'd against the default.
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant epi -DMRT_ILW_EPI=1 megartp &
build_or_exit
wait
make -j16 BUILD=build-epi EXTRA_NVCCFLAGS=-DMRT_ILW_EPI=1 build-epi/tests/gpu/test_serial \
    build-epi/tests/gpu/test_mega_prefix > "$O/build-epi-tests.log" 2>&1 || echo "epi tests build FAILED"
echo "builds $((SECONDS - t0)) s"
{
gpu_tests 150 test_index_ops
grep -E "v[459]:|FAIL" "$O/test_index_ops.log" | head -12
grep -E "TIME E1 (wgmma|f16 \(v0\) M=16 b=2 kv=8192 chunk=64)" "$O/test_index_ops.log" | cut -c1-150
for t in "test_serial --quick" test_mega_prefix; do
    set -- $t
    timeout 200 build-epi/tests/gpu/"$@" > "$O/epi-$1.log" 2>&1; echo "epi $t rc=$? $(tail -1 "$O/epi-$1.log")"
    grep FAIL "$O/epi-$1.log" | head -5
done
echo "t=$((SECONDS - t0)) s"
ab_bench serial,cmp,mega build build-epi
grep -E "^\| (E1|F1) " "$O"/bench-serial,cmp,mega-*.md
for b in build build-epi; do
    [ $((SECONDS - t0)) -gt 400 ] && break
    timeout 60 $b/megartp bench glm5-prefix --m 64 --batch 8 --kv 65536 --modes serial,mega --reps 40 > "$O/long-$b.md" 2>&1
    echo "long $b rc=$? $(grep -E '^\| (E1|F1) |step, |same-bytes' "$O/long-$b.md" | tr -s ' ' | cut -c1-90 | tr '\n' ' ')"
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
