#!/bin/bash
# Session 8, run 5: A0 on H / 8 threads (one chunk each) against two chunks a thread
# (-DMRT_A0_TWO_CHUNKS), A B A B: runs 3 and 4 suggested it helps cmp (A0 done at 5.9-6.6 us
# in cmp's traces against 7.1-7.4) but not A0 alone. Also the final tree's checks: mega =
# serial byte for byte (A0's sum order no longer depends on the thread count), cmp = serial,
# memcheck of the step.
# Run: timeout 420 bash scripts/device-s8e.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant a16 -DMRT_A0_TWO_CHUNKS megartp &
build_or_exit
wait
echo "builds $((SECONDS - t0)) s"
{
gpu_tests 200 test_mega_prefix "test_serial --quick"
ab_bench serial,cmp build build-a16
grep -E "^\| A0 " "$O"/bench-serial,cmp-*.md
for b in build build-a16; do
    timeout 40 $b/megartp trace glm5-prefix --backend cmp -o "$O/trace-cmp-$b.json" > "$O/trace-cmp-$b.txt" 2>&1
    echo "trace cmp $b rc=$? $(grep -E '^  (A0|B0|C0) ' "$O/trace-cmp-$b.txt" | tr -s ' ' | tr '\n' ' ')"
done
[ $((SECONDS - t0)) -lt 300 ] && sanitize memcheck 90 step build/tests/gpu/test_serial --sanitize
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
