#!/bin/bash
# Session 6, run c (2026-11-29): F1 back to the plain shared atomics (the __match_any_sync
# histogram of run b measured slower: 9.51 -> 16.03 us a kernel); F1's phases timed (variants
# 4-7 of mrt_gpu_topk_variant: variant 0 stopped after each phase); cmp with per-op launch
# priorities against a build without them (-DMRT_CMP_NO_PRIORITY), A B A B, and their traces.
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant noprio -DMRT_CMP_NO_PRIORITY megartp &
build_or_exit
wait
echo "builds $((SECONDS - t0)) s"
{
gpu_tests 200 test_index_ops "test_serial --quick" test_mega_prefix
echo "tests done t=$((SECONDS - t0)) s"
grep -E "TIME F1 (1 CTA x 1024|v0)" "$O/test_index_ops.log" | cut -c1-150
timeout 60 build/megartp bench glm5-prefix --modes serial,cmp,mega > "$O/bench.md" 2>&1; echo "bench rc=$?"
grep -E "^\| " "$O/bench.md"
for r in 1 2; do
    for b in build build-noprio; do
        timeout 40 $b/megartp bench glm5-prefix --modes cmp > "$O/bench-cmp-$b-$r.md" 2>&1
        echo "cmp $b round $r rc=$? $(grep -E 'step, cmp' "$O/bench-cmp-$b-$r.md" | tr -s ' ' | cut -c1-100)"
    done
done
for b in build build-noprio; do
    timeout 60 $b/megartp trace glm5-prefix --backend cmp -o "$O/trace-cmp-$b.json" > "$O/trace-cmp-$b.txt" 2>&1
    echo "trace cmp $b rc=$?"; sed -n '2,$p' "$O/trace-cmp-$b.txt" | grep -v "^wrote"
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
