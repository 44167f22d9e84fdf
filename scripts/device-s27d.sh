#!/bin/bash
# Session 27, run 4: where a GEMM tile's ~3 us from being reached to its input go, when its
# input is already there (run 3's trace: D0's and D2's late tiles, visible -> weights 1.4-1.6
# us, weights -> input 1.5; E1 and F1 0.2 and 0.7). Diagnostic builds that move one stamp each:
#   p1 / p2 / p3  -DMRT_MEGA_PRO_PROBE=1/2/3: "weights" at the tile's entry / after its barriers'
#                 init / after the CTA barrier (thread 0), instead of warp 2's first weight load
#   wp            -DMRT_MEGA_WAIT_PROBE: "input" before the wait's two fences, not after them
# Two traces each at M=16 KV=8192, summarized by scripts/trace_gaps.py.
# Run: timeout 400 bash scripts/device-s27d.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
for v in "p1 -DMRT_MEGA_PRO_PROBE=1" "p2 -DMRT_MEGA_PRO_PROBE=2" "p3 -DMRT_MEGA_PRO_PROBE=3" "wp -DMRT_MEGA_WAIT_PROBE"; do
    set -- $v
    build_variant $1 "$2" megartp &
done
build_or_exit build/megartp
wait
{
echo "builds $((SECONDS - t0)) s"
for r in 1 2; do
    for b in build build-p1 build-p2 build-p3 build-wp; do
        l=${b#build-}; [ $b = build ] && l=default
        timeout 30 $b/megartp trace glm5-prefix --backend mega -o "$O/trace-$l-$r.json" > "$O/trace-$l-$r.txt" 2>&1
        echo "trace $l $r rc=$? $(grep -o 'span [0-9.]* us' "$O/trace-$l-$r.txt")"
    done
done
for l in default p1 p2 p3 wp; do python3 scripts/trace_gaps.py "$O/trace-$l-1.json" "$O/trace-$l-2.json"; done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
