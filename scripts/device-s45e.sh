#!/bin/bash
# Session 45 run 5 (its build: e76af4c with the change below, reverted after this run: bench/RESULTS.md
# session 45 run 5): a task's several signals under one release fence (mega.cu mrt_mega_signal:
# fence.acq_rel.gpu, then a relaxed add each; one signal stays a red.release). Each A0 task
# signals 2-3 events (every shape of GLM-5), each red.release a gpu-scope MEMBAR; A0's computed
# -> published was 2.1 us against ~1.1 for one-signal tasks, on both chains. Checks
# (test_mega_prefix: mega = serial bytes; test_mega: NoOp, watchdog), traces of both, then old
# (build-old: e76af4c) / new A B at six shapes, twice at the target shape. The new build's
# ptxas spills moved with it (kernel body TN 16 80 / 476 -> 48 / 276 bytes).
# Run: sh scripts/pack-builds.sh build build-old build/tests/gpu/test_mega_prefix build/tests/gpu/test_mega;
#      timeout 500 bash scripts/device-s45e.sh   (carry build-pack)
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
unpack_builds
{
mega_tests 200
echo "t=$((SECONDS - t0)) s"
for b in build-old build; do
    mega_trace $b tr-$b | grep -E "^  (A0|B0|B1|C0|D1|D0|D2|E1|F1) |critical|span"
done
echo "t=$((SECONDS - t0)) s"
mega_ab "16 2 8192" "16 2 1024" "1 1 8192" "64 2 8192" "128 2 1024" "16 2 65536" "16 2 8192"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
