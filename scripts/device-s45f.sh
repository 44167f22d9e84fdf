#!/bin/bash
# Session 45 run 6: the commit's checks. Host changes only for the megakernel (one list of GEMM
# kinds, gemm_core.cuh mrt_gemm_kind_visit, for gpu.cu's pipeline depths and mega_table.cu's
# ring bytes; mega.cu's PTX identical) and bench_gemm.cu's read kernel (the whole warp waits
# on its stages; lane 0 alone used to reach mrt_mbar_wait_full's __syncwarp). test_mega_prefix
# and test_mega, `bench gemm` of the new and old (e76af4c) binaries (the read column), and the
# three executors at the target shape.
# Run: sh scripts/pack-builds.sh build build-old build/tests/gpu/test_mega_prefix build/tests/gpu/test_mega;
#      timeout 450 bash scripts/device-s45f.sh   (carry build-pack)
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
unpack_builds
{
mega_tests 200
echo "t=$((SECONDS - t0)) s"
for b in build build-old; do
    timeout 120 $b/megartp bench gemm > "$O/bench-gemm-$b.md" 2>&1
    echo "bench gemm $b rc=$?"; grep -E "^\| (B0|D0|D1|B1|C0|D2)" "$O/bench-gemm-$b.md" | head -12
done
echo "t=$((SECONDS - t0)) s"
timeout 120 build/megartp bench glm5-prefix --modes serial,cmp,mega > "$O/bench-prefix.md" 2>&1
echo "bench prefix rc=$?"; grep -E "step|same-bytes" "$O/bench-prefix.md"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
