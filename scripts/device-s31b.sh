#!/bin/bash
# Session 31, run 2 (2026-12-01). Run 1 (device-s31a.sh) measured critical-path faster than
# roundrobin at every KV=1024 shape M <= 16 where the cost model's estimates tie (auto takes
# roundrobin there): -0.2 .. -2.5 us, twice.
# 1. The other shapes where the two placements' estimates tie (M=32 KV=1024, M=128 KV=8192,
#    M=32 and 128 KV=65536) and M=64 KV=8192 (critical-path's estimate 0.99 of roundrobin's):
#    auto's plan and the other placement with tuning's picks, twice; does the tie go to
#    critical-path everywhere?
# 2. The finalization's first job by phase (-DMRT_MEGA_FIN_PROBE=2: claim returned, loads
#    landed, epilogue done; =3: the epilogue twice, the second on warm instruction caches),
#    M=16 KV=8192, B0 and D1 (critical path).
# Run: timeout 560 bash scripts/device-s31b.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant fp2 -DMRT_MEGA_FIN_PROBE=2 megartp &
build_variant fp3 -DMRT_MEGA_FIN_PROBE=3 megartp &
build_or_exit build/megartp
wait
{
echo "builds $((SECONDS - t0)) s"
for rep in 1 2; do
    mega_at build auto "32 2 1024"
    mega_at build critical-path "32 2 1024" --policy critical-path --split D1=2
    mega_at build auto "128 2 8192"
    mega_at build critical-path "128 2 8192" --policy critical-path --split D1=2 --chunk E1=256
    mega_at build auto "64 2 8192"
    mega_at build critical-path "64 2 8192" --policy critical-path --split D1=2 --chunk E1=256
    mega_at build auto "32 2 65536"
    mega_at build critical-path "32 2 65536" --policy critical-path
    mega_at build auto "128 2 65536"
    mega_at build critical-path "128 2 65536" --policy critical-path
done
echo "t=$((SECONDS - t0)) s"
for b in fp2 fp3; do
    mega_trace build-$b $b-16-8192 | grep -E "^  (A0|B0|D1|E1|F1) |critical"
    python3 scripts/trace_phases.py "$O/trace-$b-16-8192.json" "compute done" "weights issued" visible "input ready" \
        published | grep -E "^(op|B0|D1) "
    [ $b = fp3 ] && python3 scripts/trace_phases.py "$O/trace-$b-16-8192.json" "input ready" "weights issued" |
        grep -E "^(op|B0|D1) "
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
