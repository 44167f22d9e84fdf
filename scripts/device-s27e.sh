#!/bin/bash
# Session 27, run 5: the event wait's fences (mega_gemm.cuh MRT_MEGA_WAIT_FENCES). Run 4's
# -DMRT_MEGA_WAIT_PROBE put fence.acq_rel.gpu + fence.proxy.async.global at ~1.3-1.6 us in a
# GEMM tile's activation loader and ~0.4 in E1's and F1's waits. Builds: f1 the acquire fence
# alone, f2 the proxy fence alone (diagnostics: which one costs), f3 ld.acquire polls + the
# proxy fence (the candidate). Traces (scripts/trace_gaps.py), then f3 against the default
# at five shapes, then f3's test_mega_prefix (mega = serial bytes) if time is left.
# MRT_MEGA_WAIT_FENCES was the run's switch (never committed): its f3 form is the code since
# (acquire polls), its diagnostics f1 and f2 are described in mega_gemm.cuh's wait comment.
# Run: timeout 340 bash scripts/device-s27e.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant f1 -DMRT_MEGA_WAIT_FENCES=1 megartp &
build_variant f2 -DMRT_MEGA_WAIT_FENCES=2 megartp &
build_variant f3 -DMRT_MEGA_WAIT_FENCES=3 "megartp tests/gpu/test_mega_prefix" &
build_or_exit build/megartp
wait
{
echo "builds $((SECONDS - t0)) s"
for b in build build-f1 build-f2 build-f3; do
    l=${b#build-}; [ $b = build ] && l=default
    timeout 30 $b/megartp trace glm5-prefix --backend mega -o "$O/trace-$l.json" > "$O/trace-$l.txt" 2>&1
    echo "trace $l rc=$? $(grep -o 'span [0-9.]* us' "$O/trace-$l.txt")"
    python3 scripts/trace_gaps.py "$O/trace-$l.json" | grep -E "^  (B0|D0|D1|D2|E1|F1)"
done
for sh in "16 2 8192" "128 2 1024" "16 2 8192" "1 1 8192" "64 2 8192" "16 2 65536"; do
    for b in build build-f3; do mega_at $b ${b#build-} "$sh"; done
done
mega_at build-f1 f1 "16 2 8192"
mega_at build-f2 f2 "16 2 8192"
echo "t=$((SECONDS - t0)) s"
[ $((SECONDS - t0)) -lt 250 ] && build_tests 90 test_mega_prefix f3
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
