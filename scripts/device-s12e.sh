#!/bin/bash
# Ran at 59b42f7 (bench/RESULTS.md, session 12); -DMRT_MEGA_SPLIT_WG is gone from the code since.
# Session 12, run 5: the GEMM tile split (-DMRT_MEGA_SPLIT_WG): only the consumers' k-loop
# (the wgmmas) and the wgmma E1 tile inlined into the kernel body, the tile's set-up /
# producers, store and tear-down calls: no C7510, 644 bytes of spill stores in the body at
# TN 16 (default 308, everything inlined 992). Per-K-block times from the GEMM probe (default
# and split), the step A B A B both policies, mega = serial bytes.
# Run: timeout 420 bash scripts/device-s12e.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant gp -DMRT_GEMM_PROBE megartp &
build_variant split -DMRT_MEGA_SPLIT_WG "megartp build-split/tests/gpu/test_mega_prefix" &
build_variant splitgp "-DMRT_MEGA_SPLIT_WG -DMRT_GEMM_PROBE" megartp &
build_or_exit build/megartp
wait
echo "builds $((SECONDS - t0)) s"
{
for b in build build-split; do
    cuobjdump -sass $b/src/cuda/mega.o > "$O/sass-$b.txt" 2>&1
    echo "$b SASS: HGMMA $(grep -c HGMMA "$O/sass-$b.txt"), WARPGROUP.DEPBAR $(grep -c 'WARPGROUP.DEPBAR' "$O/sass-$b.txt")"
done
timeout 60 build-split/megartp run glm5-prefix --backend mega > "$O/run-split.txt" 2>&1
echo "run mega split rc=$? $(tail -1 "$O/run-split.txt")"
PH=("input ready" "weights issued" visible "compute done" published)
for b in gp splitgp; do
    timeout 30 build-$b/megartp trace glm5-prefix --backend mega -o "$O/trace-$b.json" > "$O/trace-$b.txt" 2>&1
    echo "trace $b rc=$?"; python3 scripts/trace_phases.py "$O/trace-$b.json" "${PH[@]}" | grep -E 'op|B0|D1|D0|B1'
done
ab_bench serial,cmp,mega build build-split
cp_bench build build-split
mega_traces 300 build build-split
echo "t=$((SECONDS - t0)) s"
build_tests 100 test_mega_prefix split
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
