#!/bin/bash
# Session 48 run 2: E1's wgmma chains issued in the tile's unit order (MRT_ILW_RING=1, build/)
# against issued together (build-base/, -DMRT_ILW_RING=0) and the ring with run 1's tf32 head
# sums (build-ringmma/): mega A B at the long-context shapes and the default one, serial / cmp
# (their E1 kernel: 2 warpgroups, ping-pong), E1's task in traces with the cuts at
# -DMRT_MEGA_IL_STOP=2 / 3 under the ring; then the bytes: test_index_ops --quick,
# test_mega_prefix, `megartp run` digests (session 47: 05fee64236ae97d3 at M=128 KV=65536).
# Run: sh scripts/pack-builds.sh build build-base build-ringmma build-s2r build-s3r
#      build/tests/gpu/test_index_ops build/tests/gpu/test_mega_prefix;
#      timeout 590 bash scripts/device-s48b.sh   (carry build-pack)
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
unpack_builds
{
cat "$O/device.txt"
for r in 1 2; do
    for s in "128 2 65536" "64 2 65536" "16 2 8192"; do
        mega_at build-base base "$s"
        mega_at build ring "$s"
        [ $r = 1 ] && mega_at build-ringmma ringmma "$s"
    done
done
echo "t=$((SECONDS - t0)) s"
sc_ab "128 2 65536" build-base build build-base build
sc_ab "16 2 8192" build-base build
echo "t=$((SECONDS - t0)) s"
for b in build-base build build-ringmma build-s2r build-s3r; do
    trace_phases_at $b $b "128 2 65536" "E1" "input ready" "compute done"
done
for b in build-base build; do trace_phases_at $b $b "16 2 8192" "E1" "input ready" "compute done"; done
echo "t=$((SECONDS - t0)) s"
gpu_tests 120 "test_index_ops --quick"
gpu_tests 200 "test_mega_prefix"
run_digests "128 2 65536" "16 2 8192"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
