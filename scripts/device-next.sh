#!/bin/bash
# The next session's first device run (written 2026-11-30, end of session 17). Session 17
# ended at mega 85.9-86.0 us (M=16 KV=8192, roundrobin), serial 73.4-73.6, cmp 51.1-51.4
# (bench/RESULTS.md "Session 17"). Two prepared experiments, compile-checked, default PTX
# identical (mega.cu: up to the renamed shared array w_s):
#   ob = -DMRT_MEGA_OPAQUE_WORDS=64: at TN <= 64 the kernel reaches an instruction's words
#        through an offset the compiler cannot see, which gives the called GEMM tile the
#        register allocation it had under session 17's instruction slots (TN 16: 24 / 24 bytes
#        of spill instead of 68 / 304), when the slots ran 3.5 us faster at M=16 (and slower
#        at M=128, where TN is 128 and ob changes nothing);
#   sl = -DMRT_GEMM_SCALES_LATE: a GEMM's consumers issue K block 0's wgmmas before waiting
#        for the scales (gathered after the event wait; ncu's most sampled consumer wait in
#        session 17 run 1), standalone GEMM too, so serial and cmp move as well.
# The A B C at the shapes that moved in session 17, serial / cmp for sl, the byte tests
# (test_mega_prefix both, test_gemm_fp8 for sl), critical-path, traces.
# Run: timeout 570 bash scripts/device-next.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant ob -DMRT_MEGA_OPAQUE_WORDS=64 "megartp build-ob/tests/gpu/test_mega_prefix" &
build_variant sl -DMRT_GEMM_SCALES_LATE "megartp build-sl/tests/gpu/test_mega_prefix build-sl/tests/gpu/test_gemm_fp8" &
build_or_exit build/megartp
wait
echo "builds $((SECONDS - t0)) s"
{
ab_shapes "build build-ob build-sl" "16 2 8192" "64 2 8192" "16 2 8192" "128 2 8192" "16 2 65536" "1 1 1024"
for b in build build-sl build build-sl; do
    timeout 60 $b/megartp bench glm5-prefix --modes serial,cmp > "$O/sc-$b.md" 2>&1
    echo "serial,cmp $b rc=$? $(grep -E 'step, ' "$O/sc-$b.md" | tr -s ' ' | cut -c1-80 | tr '\n' ' ')"
done
build_tests 150 test_mega_prefix ob sl
build_tests 120 test_gemm_fp8 sl
cp_bench build build-ob build-sl
mega_traces 450 build build-ob build-sl
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
