#!/bin/bash
# Session 18 run 6 (2026-11-30): runs 4-5 split a GEMM K block (probe): four serialized
# wgmmas (C7510: each QGMMA followed by WARPGROUP.DEPBAR, the kernel calls its tiles) ~0.2 us
# of its ~0.4, one wgmma instead of four took the step 83.4 -> 78.1 us (results wrong). Here
# every wgmma-holding tile inlined into the kernel body (-DMRT_MEGA_INLINE_WGMMA: no C7510 in
# ptxas; body spill at TN 16 400 / 824 bytes against 64 / 424 plus the tile's 24 / 24),
# alone (inl) and with the probe (inlgp); A B at the shapes that moved, the byte test, traces.
# Run: timeout 480 bash scripts/device-s18f.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant inl -DMRT_MEGA_INLINE_WGMMA "megartp build-inl/tests/gpu/test_mega_prefix" &
build_variant inlgp "-DMRT_MEGA_INLINE_WGMMA -DMRT_GEMM_PROBE" megartp &
build_with gp -DMRT_GEMM_PROBE megartp
{
ab_shapes "build build-inl" "16 2 8192" "1 1 1024" "64 2 8192" "16 2 65536" "128 2 8192" "16 2 8192"
for b in gp inlgp; do
    timeout 30 build-$b/megartp trace glm5-prefix --backend mega -o "$O/trace-$b.json" > "$O/trace-$b.txt" 2>&1
    echo "trace-$b rc=$?"
    python3 scripts/trace_phases.py "$O/trace-$b.json" "input ready" "weights issued" visible "compute done" | grep -E "tasks|B0|D1|D0|B1"
done
mega_traces 400 build-inl
cp_bench build-inl
build_tests 150 test_mega_prefix inl
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
