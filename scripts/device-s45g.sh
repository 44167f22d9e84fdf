#!/bin/bash
# Session 45 run 7: D0's roped q_pe straight into the FlashMLA query in the megakernel too
# (mrt_gpu_q_b_query, as serial and cmp always did), so D2's head-last tiles no longer load
# q_pe and store it into the query after their GEMM (half of D2's 128 tasks; D2 ends the
# target shape's critical path, its tasks queued up to three a worker). Checks (test_mega_prefix:
# qmla and every other output = serial's bytes; test_mega), `run` digests serial = mega at
# two shapes, old (build-old: e76af4c) / new A B at six shapes, a trace of each.
# Run: sh scripts/pack-builds.sh build build-old build/tests/gpu/test_mega_prefix build/tests/gpu/test_mega;
#      timeout 450 bash scripts/device-s45g.sh   (carry build-pack)
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
unpack_builds
{
[ "${SKIP_TESTS:-}" ] || mega_tests 200
run_digests "16 2 8192" "64 2 1024"
echo "t=$((SECONDS - t0)) s"
for b in build-old build; do
    mega_trace $b tr-$b | grep -E "^  (D0|D2|E1|F1) |critical|span"
done
mega_ab "16 2 8192" "16 2 1024" "1 1 8192" "64 2 8192" "128 2 1024" "16 2 65536" "16 2 8192"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
