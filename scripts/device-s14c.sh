#!/bin/bash
# Session 14, run 3 (written 2026-11-30). The default is now the fold template (run 2: level,
# test_mega_prefix 53 passed). Measured against it:
#   g32    = -DMRT_MEGA_FIN_G32: QKV_A's q units and INDEX_Q's heads finalized by one-warp
#            groups (12 a member instead of 3 or 6): at M=64 / 128 B0's and D1's finalizations
#            are rounds of row jobs (17 / 33 us computed -> published, run 2)
#   whold3 = -DMRT_MEGA_WHOLD=3 (run 2: -1.1 / -0.0 us, B0's median finalization 7.8 -> 6.1)
#   g32w   = both
# test_mega_prefix on g32 (all 12 shapes, both policies: the one-warp sums must give serial's
# bytes), A B C D twice at M=16, critical-path, M=64 / 128 (serial, mega), traces, and
# compute-sanitizer of the reduced-size step on the default and g32.
# Run: timeout 570 bash scripts/device-s14c.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
SAN="-DMRT_SPIN_LIMIT_CYCLES=2000000000000LL -DMRT_A0_CLUSTER=1 -DMRT_GEMM_NO_CLUSTER"
build_variant g32 -DMRT_MEGA_FIN_G32 "megartp build-g32/tests/gpu/test_mega_prefix" &
build_variant whold3 -DMRT_MEGA_WHOLD=3 "megartp" &
build_variant g32w "-DMRT_MEGA_FIN_G32 -DMRT_MEGA_WHOLD=3" "megartp" &
build_variant san "$SAN" tests/gpu/test_mega_prefix &
build_variant sang32 "$SAN -DMRT_MEGA_FIN_G32" tests/gpu/test_mega_prefix &
build_or_exit build/megartp
wait
echo "builds $((SECONDS - t0)) s"
{
build_tests 150 test_mega_prefix g32
echo "t=$((SECONDS - t0)) s"
ab_bench serial,cmp,mega build build-g32 build-whold3 build-g32w
cp_bench build build-g32 build-whold3 build-g32w
echo "t=$((SECONDS - t0)) s"
for b in build build-g32 build-g32w; do
    SWEEP_BUILD=$b sweep 30 400 "64 2 8192" "128 2 8192"
done
echo "t=$((SECONDS - t0)) s"
for b in build-g32; do
    timeout 30 $b/megartp trace glm5-prefix --m 128 --batch 2 --kv 8192 --backend mega -o "$O/trace-m128-$b.json" > "$O/trace-m128-$b.txt" 2>&1
    echo "trace M=128 $b rc=$?"; sed -n "/^  op /,/critical path/p" "$O/trace-m128-$b.txt"
done
mega_traces 420 build-g32 build-g32w
echo "t=$((SECONDS - t0)) s"
mega_tiny_sanitize 30 build-san default
mega_tiny_sanitize 30 build-sang32 g32
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
