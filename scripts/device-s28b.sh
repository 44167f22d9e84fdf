#!/bin/bash
# Session 28, run 2: device-next2.sh (written at the end of session 27) with what run 1's
# timeout left out: serial / cmp / mega with the read at M=16 KV=8192 and the 12-shape sweep of
# the final code. A GEMM tile's prologue (session 27 run 4: ~0.7 us from the body's "visible"
# to the tile function's entry, ~0.4-0.6 in its barriers' init, ~0.25 to warp 2's first
# weight load). Builds: ipf = -DMRT_MEGA_INIT_PROXY_FENCE=1 (the init's
# fence.mbarrier_init.release.cluster replaced by fence.proxy.async.shared::cta), with its
# test_mega_prefix and racecheck; p2 / ipfp2 = -DMRT_MEGA_PRO_PROBE=2 without / with it
# (thread 0's stamp after the init). Then the A B at 6 shapes.
# Run: timeout 560 bash scripts/device-s28b.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant ipf -DMRT_MEGA_INIT_PROXY_FENCE=1 "megartp tests/gpu/test_mega_prefix" &
build_variant ipfsan "$SAN -DMRT_MEGA_INIT_PROXY_FENCE=1" tests/gpu/test_mega_prefix &
build_variant p2 -DMRT_MEGA_PRO_PROBE=2 megartp &
build_variant ipfp2 "-DMRT_MEGA_PRO_PROBE=2 -DMRT_MEGA_INIT_PROXY_FENCE=1" megartp &
build_or_exit build/megartp
wait
{
echo "builds $((SECONDS - t0)) s"
build_tests 150 test_mega_prefix ipf
for b in build-p2 build-ipfp2 build build-ipf; do
    l=${b#build-}; [ $b = build ] && l=default
    mega_trace $b $l-16-8192 > /dev/null
    python3 scripts/trace_gaps.py "$O/trace-$l-16-8192.json" | grep -E "^  (B0|D0|D1|D2)"
done
step_shapes serial,cmp,mega build "16 2 8192"
for sh in "16 2 8192" "128 2 1024" "16 2 8192" "1 1 8192" "64 2 8192" "16 2 65536"; do
    for b in build build-ipf; do mega_at $b ${b#build-} "$sh"; done
done
echo "t=$((SECONDS - t0)) s"
[ $((SECONDS - t0)) -lt 380 ] && sanitize racecheck 100 ipf build-ipfsan/tests/gpu/test_mega_prefix --tiny
echo "t=$((SECONDS - t0)) s"
sweep_until 530 build sweep
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
