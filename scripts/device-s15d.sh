#!/bin/bash
# Session 15, run 4: [E]'s evidence on the final default (runs 1-3 took the select
# conversions, INDEX_Q's inputs first, A0's chunks in registers): test_mega_prefix, test_mega
# (watchdog diagnostic, NoOp cost), compute-sanitizer on the reduced-size step, the [E] shape
# sweep under both policies, and session 14's placement (--split D1=2 --place ...) again.
# Run: timeout 570 bash scripts/device-s15d.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
SAN="-DMRT_SPIN_LIMIT_CYCLES=2000000000000LL -DMRT_A0_CLUSTER=1 -DMRT_GEMM_NO_CLUSTER"
build_variant san "$SAN" tests/gpu/test_mega_prefix &
build_or_exit build/megartp build/tests/gpu/test_mega_prefix build/tests/gpu/test_mega
wait
echo "builds $((SECONDS - t0)) s"
{
gpu_tests 150 test_mega_prefix test_mega
mega_tiny_sanitize 30 build-san default
echo "t=$((SECONDS - t0)) s"
for r in 1 2; do
    timeout 40 build/megartp bench glm5-prefix --modes mega > "$O/place-default-$r.md" 2>&1
    echo "default round $r rc=$? $(grep -E 'step, mega' "$O/place-default-$r.md" | tr -s ' ' | cut -c1-90)"
    timeout 40 build/megartp bench glm5-prefix --modes mega --split D1=2 \
        --place D1=0-63,E1=0-63,F1=0-15,D0=64-131,D2=64-131 > "$O/place-split-$r.md" 2>&1
    echo "split+place round $r rc=$? $(grep -E 'step, mega' "$O/place-split-$r.md" | tr -s ' ' | cut -c1-90)"
done
e_sweep 430 540
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
