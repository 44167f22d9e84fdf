#!/bin/bash
# Session 30, run 4: the first-wave rule for whole rows too (plan.c share_workers: B0 leaves
# A0's tasks their workers where it keeps at least half its tiles; run 3's probe: M=32 KV=8192
# with B0 in 3 K splits 83.59 us against 86.47). Plan rules only, the megakernel unchanged.
# test_mega_prefix; `megartp run` mega and serial at M=32 and M=48 (new default plans: every
# output against the naive reference, one digest); A B against the old default plans from the
# same binary (`--split B0=4` with tuning's picks: `megartp plan` prints the same queues as
# before the rule), M=32 KV=8192 twice, KV=1024, M=48 KV=8192 and 1024; the whole bench
# (serial, cmp, mega: serial and cmp take the plan's splits too) at M=16 KV=8192, new and old.
# Run: timeout 420 bash scripts/device-s30e.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_or_exit build/megartp build/tests/gpu/test_mega_prefix
{
echo "builds $((SECONDS - t0)) s"
gpu_tests 150 "test_mega_prefix"
for sh in "32 2 8192" "48 2 1024"; do
    set -- $sh
    for be in mega serial; do
        timeout 60 build/megartp run glm5-prefix --backend $be --m $1 --batch $2 --kv $3 > "$O/run-$be-$1-$3.txt" 2>&1
        echo "run $be M=$1 KV=$3 rc=$? $(grep -c ' pass$' "$O/run-$be-$1-$3.txt") pass; $(tail -1 "$O/run-$be-$1-$3.txt"); $(grep -h 'output digest' "$O/run-$be-$1-$3.txt")"
    done
done
OLD="--split B0=4,D1=2"
for rep in 1 2; do
    mega_at build new "32 2 8192"
    mega_at build old "32 2 8192" $OLD --chunk E1=256
done
mega_at build new "32 2 1024"
mega_at build old "32 2 1024" $OLD
mega_at build new "48 2 8192"
mega_at build old "48 2 8192" $OLD --chunk E1=256
mega_at build new "48 2 1024"
mega_at build old "48 2 1024" $OLD
echo "t=$((SECONDS - t0)) s"
for v in new old; do
    a=""; [ $v = old ] && a="--split A0=1,D1=2 --chunk E1=256"
    timeout 90 build/megartp bench glm5-prefix $a > "$O/bench-$v.md" 2>&1
    echo "bench $v rc=$? $(grep -E 'step, |same-bytes' "$O/bench-$v.md" | tr -s ' ' | cut -c1-110 | tr '\n' ' ')"
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
