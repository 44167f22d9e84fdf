#!/bin/bash
# Session 46 run 8: run 7's tree with the 24-bit-prefix row's staging bounded (run 7: a row of
# few keys taking most of them, kv = 1000 k = 2048, staged its indices past the prefixes' 3 kp
# bytes: test_index_ops's illegal address, memcheck's 33 errors); now unstaged there.
# test_index_ops --quick, memcheck / racecheck of test_index_ops --tiny, test_mega_prefix,
# test_mega, and the A B at M=128 KV=65536 against 8e7659f.
# Run: sh scripts/pack-builds.sh build build-old build/tests/gpu/test_index_ops build/tests/gpu/test_mega_prefix
#      build/tests/gpu/test_mega; timeout 250 bash scripts/device-s46h.sh   (carry build-pack)
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
unpack_builds
{
gpu_tests 90 "test_index_ops --quick"
sanitize memcheck 60 idx build/tests/gpu/test_index_ops --tiny
sanitize racecheck 60 idx build/tests/gpu/test_index_ops --tiny
echo "t=$((SECONDS - t0)) s"
mega_tests 120
echo "t=$((SECONDS - t0)) s"
mega_ab "128 2 65536"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
