#!/bin/bash
# Session 49 run 1 (session 48's prepared run 3, its folders renamed): the megakernel without
# C7510 (every wgmma tile inlined in the kernel body: -DMRT_MEGA_INLINE_GEMM=128
# -DMRT_MEGA_INLINE_E1, so no call holds a wgmma and ptxas keeps E1's chains pipelined), with
# the ring (build-noser/, -DMRT_ILW_RING=1) and without (build-noser0/), against build/ (the
# tree as committed: tiles called, ring off); the ring alone (build-ring/) and with E1 alone
# inlined (build-inle1/, ring on) at the long shape. E1's task in traces (and loads + wgmmas,
# build-noser2/: noser with -DMRT_MEGA_IL_STOP=2); the bytes of the inlined build (`megartp
# run` digests against build/'s serial). Then, if time is left, the full test_index_ops (F1
# rows of 65536 keys: whether serial should take the 24-bit-prefix row, session 46's pending
# measurement).
# Run: sh scripts/pack-builds.sh build build-ring build-noser build-noser0 build-noser2 \
#        build-inle1 build/tests/gpu/test_index_ops;
#      timeout 590 bash scripts/device-s49a.sh   (carry build-pack)
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
unpack_builds
{
cat "$O/device.txt"
shapes=("128 2 65536" "64 2 65536" "16 2 8192" "1 1 1024")
ab_shapes "build build-noser build-noser0" "${shapes[@]}"
ab_shapes "build-ring build-inle1" "128 2 65536"
ab_shapes "build build-noser" "${shapes[@]}"
echo "t=$((SECONDS - t0)) s"
for b in build build-noser build-noser0 build-noser2; do
    trace_phases_at $b $b "128 2 65536" "E1|D0|B0|F1" "input ready" "compute done"
done
echo "t=$((SECONDS - t0)) s"
DIGEST_RUNS="build:serial build-noser:mega" run_digests "128 2 65536" "16 2 8192"
echo "t=$((SECONDS - t0)) s"
if [ $((SECONDS - t0)) -lt 300 ]; then
    gpu_tests $((570 - (SECONDS - t0))) test_index_ops
    grep -E "^TIME F1 .*(kv=65536|kv=8192 k=2048 \(E1)" "$O/test_index_ops.log" | cut -c1-170
fi
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
