#!/bin/bash
# Session 9, run 7: the model's op order with D0 first and D2 last (d0 =
# -DMRT_GLM5_D0_FIRST, C flags: A0 B0 C0 B1 D0 D1 E1 F1 D2) against today's (… D1 D0 D2 E1
# F1): `megartp run --backend mega` of each against the naive reference, then mega A B A B
# and the d0 build's trace. Run: timeout 300 bash scripts/device-s9g.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
make -j16 BUILD=build-d0 EXTRA_CFLAGS=-DMRT_GLM5_D0_FIRST build-d0/megartp > "$O/build-d0.log" 2>&1 || echo "d0 build FAILED" &
build_or_exit build/megartp
wait
echo "builds $((SECONDS - t0)) s"
{
for b in build build-d0; do
    timeout 30 $b/megartp run glm5-prefix --backend mega > "$O/run-$b.txt" 2>&1
    echo "run mega $b rc=$? $(tail -1 "$O/run-$b.txt")"
done
ab_bench mega build build-d0
[ $((SECONDS - t0)) -lt 260 ] && timeout 30 build-d0/megartp trace glm5-prefix --backend mega -o "$O/trace-d0.json" > "$O/trace-d0.txt" 2>&1 &&
    sed -n 4,16p "$O/trace-d0.txt"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
