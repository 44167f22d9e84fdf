#!/bin/bash
# Session 28, run 4 (diagnostics, for the next session's map of a GEMM tile and a
# finalization on today's code): probe = -DMRT_MEGA_PROBE (a GEMM tile's "weights issued" =
# its k-loop done, "input ready" = its store done, consumer thread 0), fin2 =
# -DMRT_MEGA_FIN_PROBE=2 (group 0's first job: claim returned, loads landed, epilogue done),
# nopf = -DMRT_DIAG_NO_TILE_PROXY_FENCE (the tile's closing fence.proxy.async.shared::cta left
# out: what it costs after the tile's global stores; not a correct build, bytes checked anyway).
# Traces at M=16 KV=8192 (and probe at M=128 KV=1024), phases by op; the A B default / nopf.
# Run: timeout 400 bash scripts/device-s28d.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant probe -DMRT_MEGA_PROBE megartp &
build_variant fin2 -DMRT_MEGA_FIN_PROBE=2 megartp &
build_variant nopf -DMRT_DIAG_NO_TILE_PROXY_FENCE "megartp tests/gpu/test_mega_prefix" &
build_or_exit build/megartp
wait
PH='visible "weights issued" "input ready" "compute done" published'
{
echo "builds $((SECONDS - t0)) s"
build_tests 150 test_mega_prefix nopf
for r in 1 2; do
    for b in build build-probe build-fin2 build-nopf; do
        l=${b#build-}; [ $b = build ] && l=default
        mega_trace $b $l-16-8192-$r | grep -E "^  [A-F][0-9] |critical"
        eval python3 scripts/trace_phases.py "$O/trace-$l-16-8192-$r.json" $PH
    done
done
mega_trace build-probe probe-128-1024 --m 128 --batch 2 --kv 1024 | grep -E "^  [A-F][0-9] |critical"
eval python3 scripts/trace_phases.py "$O/trace-probe-128-1024.json" $PH
for sh in "16 2 8192" "1 1 8192" "64 2 8192" "128 2 1024" "16 2 8192"; do
    for b in build build-nopf; do mega_at $b ${b#build-} "$sh"; done
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
