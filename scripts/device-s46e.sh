#!/bin/bash
# Session 46 run 5: the 24-bit-prefix row (run 4: 66 us a row at M=128 KV=65536 against the
# bitmap row's 79, far from its one read of the row) with its shared-memory passes four keys an
# iteration; its phases (build-probe: -DMRT_MEGA_TOPK_PROBE=2, "weights issued" = pass 0 done,
# "visible" = the selection done); checks; A B against 8e7659f (build-old) and slices.
# Run: sh scripts/pack-builds.sh build build-old build-probe build/tests/gpu/test_index_ops
#      build/tests/gpu/test_mega_prefix build/tests/gpu/test_mega; timeout 560 bash scripts/device-s46e.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
unpack_builds
{
gpu_tests 120 "test_index_ops --quick"
mega_tests 200
echo "t=$((SECONDS - t0)) s"
trace_phases_at build-probe probe "128 2 65536" F1 "input ready" "weights issued" visible "compute done"
trace_phases_at build-probe probe-f1s1 "64 2 65536" F1 "input ready" "weights issued" visible "compute done" --split F1=1
mega_ab "128 2 65536"
mega_at build new-f1s2 "128 2 65536" --split F1=2
mega_at build new-f1s1 "64 2 65536" --split F1=1
mega_at build new-f1s1 "16 2 65536" --split F1=1
mega_ab "16 2 8192"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
