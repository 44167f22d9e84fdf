#!/bin/bash
# Session 16, run 2: weights into L2 ahead of their GEMM tiles (cp.async.bulk.prefetch.tensor).
# rest = -DMRT_GEMM_PREFETCH_REST (every GEMM, standalone too: the K blocks past the ring's
# first fill go to L2 as the tile starts; B0's last 4 of 12, D0's last 8 of 16);
# pn1 / pn2 = -DMRT_MEGA_PREFETCH_NEXT=1 / 2 (megakernel: a GEMM tile's idle warp 3 prefetches
# the worker's next GEMM tile's weights, as the tile starts / once it is done: D0's 262 KB a
# tile during D1, D2's during D0); pn2r = both.
# Run: timeout 570 bash scripts/device-s16b.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant rest -DMRT_GEMM_PREFETCH_REST megartp &
build_variant pn1 -DMRT_MEGA_PREFETCH_NEXT=1 megartp &
build_variant pn2 -DMRT_MEGA_PREFETCH_NEXT=2 megartp &
build_variant pn2r "-DMRT_MEGA_PREFETCH_NEXT=2 -DMRT_GEMM_PREFETCH_REST" "megartp build-pn2r/tests/gpu/test_mega_prefix" &
build_or_exit build/megartp
wait
echo "builds $((SECONDS - t0)) s"
{
ab_bench mega build build-rest build-pn1 build-pn2 build-pn2r
ab_bench serial,cmp build build-rest
cp_bench build build-pn2r
mega_traces 300 build build-rest build-pn1 build-pn2 build-pn2r
for m in 64 128; do
    for b in build build-pn2r; do
        timeout 60 $b/megartp bench glm5-prefix --m $m --batch 2 --kv 8192 --modes serial,mega > "$O/m$m-$b.md" 2>&1
        echo "M=$m $b rc=$? $(grep -E 'step, ' "$O/m$m-$b.md" | tr -s ' ' | cut -c1-100 | tr '\n' ' ')"
    done
done
build_tests 150 test_mega_prefix pn2r
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
