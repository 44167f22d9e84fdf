#!/bin/bash
# Ran once (its run in bench/RESULTS.md, session 7); its -DMRT_ILW_EPI switch was removed after it (measured: no gain / slower).
# Session 7, run e (2026-11-29): the wgmma E1's stores (run d: math 36 us, stores 23 us of
# 88 at M=64 KV=65536; weights in registers changed nothing): variant 10 stages the logits in
# shared memory and stores whole rows (identical values), then -DMRT_ILW_EPI=2 (its epilogue
# in every executor) checked and A/B'd against the default.
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant epi2 -DMRT_ILW_EPI=2 megartp &
build_or_exit
wait
make -j16 BUILD=build-epi2 EXTRA_NVCCFLAGS=-DMRT_ILW_EPI=2 build-epi2/tests/gpu/test_serial \
    build-epi2/tests/gpu/test_mega_prefix > "$O/build-epi2-tests.log" 2>&1 || echo "epi2 tests build FAILED"
echo "builds $((SECONDS - t0)) s"
{
gpu_tests 150 test_index_ops
grep -E "v(4|10):|FAIL" "$O/test_index_ops.log" | head -12
grep -E "TIME E1 (wgmma|f16 \(v0\) M=16 b=2 kv=8192 chunk=64)" "$O/test_index_ops.log" | cut -c1-150
for t in "test_serial --quick" test_mega_prefix; do
    set -- $t
    timeout 200 build-epi2/tests/gpu/"$@" > "$O/epi2-$1.log" 2>&1; echo "epi2 $t rc=$? $(tail -1 "$O/epi2-$1.log")"
    grep FAIL "$O/epi2-$1.log" | head -5
done
echo "t=$((SECONDS - t0)) s"
ab_bench serial,cmp,mega build build-epi2
grep -E "^\| (E1|F1) " "$O"/bench-serial,cmp,mega-*.md
for b in build build-epi2; do
    [ $((SECONDS - t0)) -gt 400 ] && break
    timeout 60 $b/megartp bench glm5-prefix --m 64 --batch 8 --kv 65536 --modes serial,mega --reps 40 > "$O/long-$b.md" 2>&1
    echo "long $b rc=$? $(grep -E '^\| (E1|F1) |step, |same-bytes' "$O/long-$b.md" | tr -s ' ' | cut -c1-90 | tr '\n' ' ')"
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
