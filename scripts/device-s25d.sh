#!/bin/bash
# Session 25 run 4 (2026-12-01): (1) a second A B of the split sums in shared memory against
# old.tar (HEAD before it) at the shapes where run 3's single samples moved most (M=16
# KV=65536 +2.1 us, M=64 KV=1024 +1.5, M=128 KV=1024 -5.2, KV=8192 -3.9) and the target
# shape; (2) is a finalization job's epilogue slow because its code is cold? Run 3
# (-DMRT_MEGA_FIN_PROBE=2) measured D1's INDEX_Q epilogue at 3.4 us a job after its loads
# landed, at M=16 KV=8192. -DMRT_MEGA_FIN_PROBE=3 runs every job's epilogue twice (same
# sums, same bytes): "input ready" after the first, "weights issued" after the second.
# Run: timeout 400 bash scripts/device-s25d.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_old 6 &
build_variant fprobe3 -DMRT_MEGA_FIN_PROBE=3 megartp &
build_or_exit build/megartp
wait
{
echo "builds $((SECONDS - t0)) s"
for sh in "16 2 8192" "16 2 65536" "64 2 1024" "16 2 8192" "16 2 65536" "64 2 1024" "128 2 1024" "128 2 8192"; do
    mega_at /tmp/old/build old "$sh"
    mega_at build new "$sh"
done
echo "t=$((SECONDS - t0)) s"
for sh in "16 2 8192" "64 2 8192" "128 2 8192"; do
    trace_phases_at build-fprobe3 fprobe3 "$sh" "B0|B1|D1" "compute done" visible "input ready" "weights issued" published
done
step_shapes serial,cmp,mega build "16 2 8192"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
