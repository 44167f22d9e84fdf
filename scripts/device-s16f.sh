#!/bin/bash
# Session 16, run 6 (the session's last device time, ~540 s). sw = -DMRT_MEGA_STORE_NOWAIT: a
# GEMM tile's store skips the event wait that the consumers already inherited through the
# activation loader's acquire and full barrier 0 (mega_gemm.cuh), a poll and two fences in
# each consumer warp between the last K block and the stores (session 12's probe: last K
# block -> computed 3.1-3.2 us for B0 and D1, both on the critical path). In order of need:
# the A B, sw's byte test, traces, M=64 / 128, critical-path, then [E]'s evidence on sw in
# case it becomes the default (test_mega, the sanitizers on the reduced-size step, the
# sweep), and two queue orders (E1 ahead of D0) on today's default, CLI only.
# Run: timeout 470 bash scripts/device-s16f.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
SAN="-DMRT_SPIN_LIMIT_CYCLES=2000000000000LL -DMRT_A0_CLUSTER=1 -DMRT_GEMM_NO_CLUSTER -DMRT_MEGA_STORE_NOWAIT"
build_variant sw -DMRT_MEGA_STORE_NOWAIT "megartp build-sw/tests/gpu/test_mega_prefix build-sw/tests/gpu/test_mega" &
build_variant san "$SAN" tests/gpu/test_mega_prefix &
build_or_exit build/megartp
wait
echo "builds $((SECONDS - t0)) s"
{
ab_bench mega build build-sw
build_tests 150 test_mega_prefix sw
mega_traces 260 build build-sw
for m in 64 128; do
    for b in build build-sw; do
        timeout 40 $b/megartp bench glm5-prefix --m $m --batch 2 --kv 8192 --modes mega > "$O/m$m-$b.md" 2>&1
        echo "M=$m $b rc=$? $(grep -E 'step, mega' "$O/m$m-$b.md" | tr -s ' ' | cut -c1-100)"
    done
done
cp_bench build build-sw
build_tests 60 test_mega sw
mega_tiny_sanitize 30 build-san sw
for o in A0,B0,C0,B1,D1,E1,D0,D2,F1 A0,B0,C0,B1,D1,E1,F1,D0,D2; do
    [ $((SECONDS - t0)) -gt 380 ] && break
    timeout 40 build/megartp bench glm5-prefix --modes mega --order $o > "$O/order-$o.md" 2>&1
    echo "order $o rc=$? $(grep -E 'step, mega' "$O/order-$o.md" | tr -s ' ' | cut -c1-100)"
done
SWEEP_BUILD=build-sw sweep 30 430 "1 1 1024" "1 1 8192" "16 2 1024" "16 2 8192" "16 2 65536" "64 2 1024" \
    "64 2 8192" "128 2 8192" "1 1 65536" "64 2 65536" "128 2 1024" "128 2 65536"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
