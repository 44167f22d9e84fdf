#!/bin/bash
# Ran at 1f797d8 (bench/RESULTS.md, session 12); -DMRT_MEGA_INLINE_WG is gone from the code since.
# Session 12, run 4: is the megakernel's ~0.5 us a K block (run 3's probe, data already in
# shared memory) ptxas's wgmma serialization (C7510: the GEMM and wgmma E1 tiles are calls)?
# inl = -DMRT_MEGA_INLINE_WG (both tiles inlined: no C7510, 992 bytes of spill stores in the
# kernel body at TN 16 against 308). Per-K-block times from the GEMM probe of both, the step
# A B A B, SASS counts (HGMMA against WARPGROUP.DEPBAR), and mega = serial bytes for inl.
# Run: timeout 520 bash scripts/device-s12d.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant gp -DMRT_GEMM_PROBE megartp &
build_variant inl -DMRT_MEGA_INLINE_WG "megartp build-inl/tests/gpu/test_mega_prefix" &
build_variant inlgp "-DMRT_MEGA_INLINE_WG -DMRT_GEMM_PROBE" megartp &
build_or_exit build/megartp
wait
echo "builds $((SECONDS - t0)) s"
{
for b in build build-inl; do
    cuobjdump -sass $b/src/cuda/mega.o > "$O/sass-$b.txt" 2>&1
    echo "$b SASS: HGMMA $(grep -c HGMMA "$O/sass-$b.txt"), WARPGROUP.DEPBAR $(grep -c 'WARPGROUP.DEPBAR' "$O/sass-$b.txt"), WARPGROUP.ARRIVE $(grep -c 'WARPGROUP.ARRIVE' "$O/sass-$b.txt")"
done
timeout 60 build-inl/megartp run glm5-prefix --backend mega > "$O/run-inl.txt" 2>&1
echo "run mega inl rc=$? $(tail -1 "$O/run-inl.txt")"
PH=("input ready" "weights issued" visible "compute done" published)
for b in gp inlgp; do
    timeout 30 build-$b/megartp trace glm5-prefix --backend mega -o "$O/trace-$b.json" > "$O/trace-$b.txt" 2>&1
    echo "trace $b rc=$?"; python3 scripts/trace_phases.py "$O/trace-$b.json" "${PH[@]}"
    timeout 30 build-$b/megartp trace glm5-prefix --backend mega --ops D0 -o "$O/trace-D0-$b.json" > "$O/trace-D0-$b.txt" 2>&1
    echo "trace --ops D0 $b rc=$?"; python3 scripts/trace_phases.py "$O/trace-D0-$b.json" "${PH[@]}"
done
ab_bench serial,cmp,mega build build-inl
cp_bench build build-inl
mega_traces 400 build build-inl
echo "t=$((SECONDS - t0)) s"
build_tests 100 test_mega_prefix inl
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
