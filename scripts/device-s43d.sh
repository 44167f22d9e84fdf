#!/bin/bash
# Session 43 run 4: a finalization group's signals once after its last job
# (MRT_MEGA_GROUP_SIGNALS, mega_gemm.cuh) built on the device, its checks (test_mega_prefix,
# test_mega, `run` digests, the three sanitizers on the reduced step), then A B against
# build-old/ (604fc98's kernels, per-job signals, carried) at the shapes where groups run
# several jobs (M=64, M=128) and the target shape, with run 3's finalization probe shape.
# Run: mkdir -p build-old && cp build/megartp build-old/ && sh scripts/pack-builds.sh build-old;
#      timeout 560 bash scripts/device-s43d.sh (carry build-pack)
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
unpack_builds
mega_builds
{
mega_checks
for s in "16 2 8192" "16 2 8192" "128 2 1024" "128 2 8192" "64 2 8192" "64 2 1024" "16 2 1024" "1 1 8192"; do
    mega_at build-old old "$s"
    mega_at build new "$s"
done
echo "t=$((SECONDS - t0)) s"
run_digests "128 2 1024" "64 2 8192"
mega_trace build new-128-1024 --m 128 --kv 1024 | grep -E "^  (A0|B0|B1|D1|D0|D2) |critical"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
