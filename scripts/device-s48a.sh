#!/bin/bash
# Session 48 run 1: E1's head sums as a second product on the tensor cores (tf32 mma.sync
# against the head weights, MRT_ILW_HEAD_MMA=1, build/) against the fp32 sums (build-f32/), on
# the H200: mega A B at the long-context shapes and the default one, serial / cmp's E1 kernel,
# E1's task in traces with the cuts -DMRT_MEGA_IL_STOP=2 (loads + MMAs, the accumulator now
# read so ptxas keeps the chain) and 3; the tile's SASS (tf32 conversions and HMMAs); the
# logits against the reference (test_index_ops --quick) and mega = serial (test_mega_prefix).
# Run: sh scripts/pack-builds.sh build build-f32 build-s2 build-s3 build-f32s2
#      build/tests/gpu/test_index_ops build/tests/gpu/test_mega_prefix;
#      timeout 590 bash scripts/device-s48a.sh   (carry build-pack)
# As run: its trace_phases_at calls pass no phases (they print the usage); RESULTS' E1 figures
# come from its trace JSONs through scripts/trace_phases.py "input ready" "compute done".
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
unpack_builds
{
cat "$O/device.txt"
for r in 1 2; do
    for s in "128 2 65536" "64 2 65536" "16 2 8192"; do
        mega_at build-f32 f32 "$s"
        mega_at build mma "$s"
    done
done
echo "t=$((SECONDS - t0)) s"
sc_ab "128 2 65536" build-f32 build build-f32 build
echo "t=$((SECONDS - t0)) s"
for b in build-f32 build build-f32s2 build-s2 build-s3; do trace_phases_at $b $b "128 2 65536" "E1"; done
for b in build-f32 build; do trace_phases_at $b $b "16 2 8192" "E1"; done
echo "t=$((SECONDS - t0)) s"
cuobjdump -sass build/megartp 2>/dev/null | grep -oE "(HMMA|F2F|FRND|FMNMX)[.A-Z0-9_]*" | sort | uniq -c | sort -rn | head -20
echo "t=$((SECONDS - t0)) s"
gpu_tests 120 "test_index_ops --quick"
grep -E "v4:|v5:|v9:" "$O/test_index_ops.log" | sort | awk '{print $2, $4, $6}' | sort -k2 -g | tail -3
gpu_tests 200 "test_mega_prefix"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
