#!/bin/bash
# Session 8, run 3: after run 2 (cmp 60.4 -> 68.5 us with D0 fused: D2's CTAs, launched by
# PDL behind the fused D0 GEMM, sat resident for its whole run and held E1 back), cmp no longer
# PDL-launches an op behind a GEMM kernel; A0 on H / 8 threads with a thread-count-free sum
# order. A B A B: default against -DMRT_NO_FUSED_Q_B (D0's separate finalization); tests
# (mega = serial byte for byte with the new A0 order; all 20 serial / cmp shapes), traces.
# Run: timeout 590 bash scripts/device-s8c.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant nofuse -DMRT_NO_FUSED_Q_B megartp &
build_or_exit
wait
echo "builds $((SECONDS - t0)) s"
{
gpu_tests 200 test_mega_prefix test_serial
echo "t=$((SECONDS - t0)) s"
ab_bench serial,cmp,mega build build-nofuse
grep -E "^\| [A-F][0-9] " "$O/bench-serial,cmp,mega-build-1.md"
grep -E "^\| (A0|D0) " "$O/bench-serial,cmp,mega-build-nofuse-1.md"
for b in build build-nofuse; do
    [ $((SECONDS - t0)) -gt 420 ] && break
    timeout 40 $b/megartp trace glm5-prefix --backend cmp -o "$O/trace-cmp-$b.json" > "$O/trace-cmp-$b.txt" 2>&1
    echo "trace cmp $b rc=$?"; sed -n 3,20p "$O/trace-cmp-$b.txt"
done
[ $((SECONDS - t0)) -lt 440 ] && timeout 60 build/megartp bench glm5-prefix --m 64 --batch 8 --kv 65536 --modes serial,cmp,mega --reps 40 > "$O/long.md" 2>&1 &&
    echo "long $(grep -E '^\| (A0|D0|E1|F1) |step, |same-bytes' "$O/long.md" | tr -s ' ' | cut -c1-90 | tr '\n' ' ')"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
