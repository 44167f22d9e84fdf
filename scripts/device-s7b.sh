#!/bin/bash
# Session 7, run b (2026-11-29): E1 on e4m3 wgmma (variant 4 rewritten: no conversion, queries
# resident, keys double-buffered) as every executor's E1, against the mma.sync E1
# (-DMRT_E1_MMA_SYNC); cmp joins C0 only before D1's finalization (not its GEMM).
#  1. test_index_ops: variant 4 against the reference on every 32 / 64-head case, timings;
#  2. test_serial --quick (cmp byte-identical, slow producer) and test_mega_prefix, both builds;
#  3. the step A B A B, both builds; long context M=64 KV=65536 serial,mega; cmp trace.
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant mma -DMRT_E1_MMA_SYNC megartp &
build_or_exit
wait
make -j16 BUILD=build-mma EXTRA_NVCCFLAGS=-DMRT_E1_MMA_SYNC build-mma/tests/gpu/test_serial \
    build-mma/tests/gpu/test_mega_prefix > "$O/build-mma-tests.log" 2>&1 || echo "mma tests build FAILED"
echo "builds $((SECONDS - t0)) s"
{
gpu_tests 150 test_index_ops
grep -E " v4:|TIME E1" "$O/test_index_ops.log" | cut -c1-150 | head -60
gpu_tests 200 "test_serial --quick" test_mega_prefix
for t in "test_serial --quick" test_mega_prefix; do
    set -- $t
    timeout 200 build-mma/tests/gpu/"$@" > "$O/mma-$1.log" 2>&1; echo "mma $t rc=$? $(tail -1 "$O/mma-$1.log")"
    grep FAIL "$O/mma-$1.log" | head -5
done
echo "t=$((SECONDS - t0)) s"
ab_bench serial,cmp,mega build build-mma
grep -E "^\| (E1|F1) " "$O"/bench-serial,cmp,mega-*.md
for b in build build-mma; do
    [ $((SECONDS - t0)) -gt 450 ] && break
    timeout 60 $b/megartp bench glm5-prefix --m 64 --batch 8 --kv 65536 --modes serial,mega --reps 40 > "$O/long-$b.md" 2>&1
    echo "long $b rc=$? $(grep -E '^\| (E1|F1) |step, |same-bytes' "$O/long-$b.md" | tr -s ' ' | cut -c1-90 | tr '\n' ' ')"
done
[ $((SECONDS - t0)) -lt 500 ] && timeout 60 build/megartp trace glm5-prefix --backend cmp -o "$O/trace-cmp.json" > "$O/trace-cmp.txt" 2>&1
sed -n '2,$p' "$O/trace-cmp.txt" | grep -v "^wrote"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
