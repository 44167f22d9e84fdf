#!/bin/bash
# Session 43 run 5: a finalization group's signals batched until it runs one of its unit's
# last `groups` jobs (MRT_MEGA_GROUP_SIGNALS, run 4's form signalled only after the group's
# failing claim: +1.35 us at M=16), all built on the development machine and carried:
# build-gs2/ (megartp, test_mega_prefix, test_mega; the tests at build/tests/gpu/), its
# sanitizer build of test_mega_prefix (as test_mega_prefix_san), build-old/ (604fc98's
# kernels). Checks, then A B old / new at eight shapes, a trace at M=128 KV=1024 and the
# 12-shape sweep of the new build.
# Run: sh scripts/pack-builds.sh build-old build-gs2 build-gs2/tests/gpu/test_mega_prefix
#      build-gs2/tests/gpu/test_mega /tmp/san/test_mega_prefix_san; timeout 300 bash scripts/device-s43e.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
unpack_builds
{
gpu_tests 150 "test_mega_prefix" "test_mega"
grep -h "NoOp" "$O/test_mega.log" | tail -1
DIGEST_RUNS="build-gs2:serial build-gs2:mega" run_digests "16 2 8192" "128 2 1024" "64 2 8192"
tiny_sanitize 60 build/tests/gpu/test_mega_prefix_san final
echo "t=$((SECONDS - t0)) s"
for s in "16 2 8192" "16 2 8192" "128 2 1024" "128 2 8192" "64 2 8192" "64 2 1024" "16 2 1024" "1 1 8192"; do
    mega_at build-old old "$s"
    mega_at build-gs2 new "$s"
done
echo "t=$((SECONDS - t0)) s"
mega_trace build-gs2 new-128-1024 --m 128 --kv 1024 | grep -E "^  (A0|B0|B1|D1|D0|D2) |critical"
echo "t=$((SECONDS - t0)) s"
mega_sweep build-gs2 gs2
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
