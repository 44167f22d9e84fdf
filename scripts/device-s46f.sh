#!/bin/bash
# Session 46 run 6: the 24-bit-prefix row with its shared-memory passes 8 keys a load pair and
# pass 0 16 float4 loads a thread in flight (run 5's probe at M=128 KV=65536: pass 0 18.2, the
# selection 10.0, the output 27.0 us with 4 keys and 8 loads). Checks; the probe's phases
# (build-probe: -DMRT_MEGA_TOPK_PROBE=2); A B against 8e7659f (build-old) at the long-context
# shapes (the slices' shapes too: the F1 function's code changed) and the target shape.
# Run: sh scripts/pack-builds.sh build build-old build-probe build/tests/gpu/test_index_ops
#      build/tests/gpu/test_mega_prefix build/tests/gpu/test_mega; timeout 560 bash scripts/device-s46f.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
unpack_builds
{
gpu_tests 120 "test_index_ops --quick"
mega_tests 200
echo "t=$((SECONDS - t0)) s"
trace_phases_at build-probe probe "128 2 65536" F1 "input ready" "weights issued" visible "compute done"
mega_ab "128 2 65536"
mega_at build new-f1s2 "128 2 65536" --split F1=2
mega_at build new-f1s1 "64 2 65536" --split F1=1
mega_ab "16 2 65536" "1 1 65536" "16 2 8192" "128 2 65536"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
