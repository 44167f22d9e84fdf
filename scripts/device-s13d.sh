#!/bin/bash
# Session 13 run 4 (2026-11-30). Run 3: --place cannot buy much (D0's tiles take as long on
# 68 workers as on 128: a megakernel GEMM tile is bound by its k-loop, ~0.45 us a K block,
# not by bandwidth), so the k-loop again. Its four QGMMA a K block are serialized (C7510)
# because the tile is a call; inlined, the kernel body spills (session 12: +10 us). Here the
# inlined tiles with setmaxnreg (DESIGN.md section 3) moving registers to the consumers
# for each GEMM tile:
#   nreg40 = -DMRT_MEGA_NREG=40 (producer warpgroup 40, consumers 232)
#   nreg72 = -DMRT_MEGA_NREG=72 (producers 72, consumers 216)
# ptxas (-Xptxas -v, here): nreg40 ignores setmaxnreg in 6 places (C7507) and serializes the
# wgmma at TN 16 (C7512); nreg72 ignores it in the TN 64 kernels only (C7512 there), TN 16 clean.
# test_mega_prefix on both (an ignored dec beside an applied inc would hang: bounded by the
# timeout); only a variant that passed is benchmarked: A B C twice, critical-path, SASS, traces.
# Run: timeout 560 bash scripts/device-s13d.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant nreg40 -DMRT_MEGA_NREG=40 "megartp build-nreg40/tests/gpu/test_mega_prefix" &
build_variant nreg72 -DMRT_MEGA_NREG=72 "megartp build-nreg72/tests/gpu/test_mega_prefix" &
build_or_exit build/megartp
wait
echo "builds $((SECONDS - t0)) s"
{
ok=(build)
for v in nreg72 nreg40; do
    build_tests 90 test_mega_prefix $v
    grep -q ' 0 failed' "$O/test_mega_prefix-$v.log" && ok+=(build-$v)
done
echo "t=$((SECONDS - t0)) s; benchmarked: ${ok[*]}"
ab_bench serial,cmp,mega "${ok[@]}"
cp_bench "${ok[@]}"
for b in build build-nreg72; do
    cuobjdump -sass -fun _Z15mrt_mega_kernelILb0ELi16EEv13mrt_mega_args $b/src/cuda/mega.o > "$O/sass-$b.txt" 2>&1
    echo "sass $b: $(grep -c QGMMA "$O/sass-$b.txt") QGMMA, $(grep -c 'WARPGROUP.DEPBAR' "$O/sass-$b.txt") DEPBAR, $(grep -c 'STL' "$O/sass-$b.txt") STL, $(grep -c 'LDL' "$O/sass-$b.txt") LDL, $(grep -c SETMAXREG "$O/sass-$b.txt") SETMAXREG"
done
mega_traces 400 "${ok[@]}"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
