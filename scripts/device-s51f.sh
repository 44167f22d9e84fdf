#!/bin/bash
# Session 51 run 6: the tree as committed (build/ = this commit's binaries, built on the
# development machine; the several-row jobs' stores moved into one helper after run 5):
# test_mega_prefix --tiny (its 64- and 128-token cases take the jobs), test_mega (NoOp
# framework cost, watchdog), `megartp run` digests where the jobs run, then [E]'s 12-shape
# sweep (serial, mega; 30 replays) until the time guard (the session's device time is short).
# Run: sh scripts/pack-builds.sh build-qa build-qa/tests/gpu/test_mega_prefix build-qa/tests/gpu/test_mega
#      (build-qa = the committed tree; unpacked here as build-qa/ and build/tests/gpu/);
#      timeout 170 bash scripts/device-s51f.sh   (carry build-pack)
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
unpack_builds
mkdir -p build && cp build-qa/megartp build/megartp
{
cat "$O/device.txt"
gpu_tests 60 "test_mega_prefix --tiny" test_mega
grep -h "NoOp" "$O/test_mega.log" | tail -1
echo "t=$((SECONDS - t0)) s"
run_digests "128 2 1024" "64 2 8192"
echo "t=$((SECONDS - t0)) s"
sweep 30 120 "${E_SHAPES[@]}"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
