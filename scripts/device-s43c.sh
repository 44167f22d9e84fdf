#!/bin/bash
# Session 43 run 3: where a finalization job's time goes at M=128 now (-DMRT_MEGA_FIN_PROBE=2,
# build-fp2/: group 0's first job, claim returned -> loads landed -> epilogue done ->
# published) at M=128 KV=1024, M=64 KV=8192 and M=16 KV=8192; and D1's split by CLI at the
# shapes where its finalization (24.8 us at M=128 KV=1024, run 1) holds D0's tiles queued
# behind it. build/ and build-fp2/ as carried (2047a92's kernels).
# Run: sh scripts/pack-builds.sh build build-fp2; timeout 300 bash scripts/device-s43c.sh (carry build-pack)
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
unpack_builds
{
for s in "128 2 1024" "64 2 8192" "16 2 8192"; do
    trace_phases_at build-fp2 fp2 "$s" "B0|B1|D1" "compute done" "weights issued" visible "input ready" published
done
echo "t=$((SECONDS - t0)) s"
for s in "128 2 1024" "128 2 8192" "64 2 8192"; do
    mega_at build dflt "$s"
    mega_at build d1s4 "$s" --split D1=4
    mega_at build d1s1 "$s" --split D1=1
    mega_at build dflt "$s"
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
