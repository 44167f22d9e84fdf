#!/bin/bash
# Session 8, run 2: D0's finalization fused into its GEMM's store (serial, cmp), the head
# gate C0 at 16 splits (24 KiB tasks), E1 a CTA a token group while its tiles do not fill the
# SMs. Correctness (test_serial, all 20 shapes; test_mega_prefix: mega = serial byte for byte;
# memcheck of the step), the step benchmark twice, long context, the traces of serial and cmp,
# then Nsight Compute on one serial step: each kernel's duration, throughput and warp stall
# reasons (raw metrics as CSV), to see why the small kernels take 4-8 us.
# Run: timeout 590 bash scripts/device-s8b.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_or_exit
echo "build $((SECONDS - t0)) s"
{
gpu_tests 200 test_mega_prefix test_serial
[ $((SECONDS - t0)) -lt 330 ] && sanitize memcheck 100 step build/tests/gpu/test_serial --sanitize
echo "t=$((SECONDS - t0)) s"
for r in 1 2; do
    timeout 60 build/megartp bench glm5-prefix --modes serial,cmp,mega > "$O/bench-$r.md" 2>&1
    echo "bench $r rc=$? $(grep -E 'step, ' "$O/bench-$r.md" | tr -s ' ' | cut -c1-100 | tr '\n' ' ')"
done
grep -E "^\| [A-F][0-9] " "$O/bench-1.md"
[ $((SECONDS - t0)) -lt 420 ] && timeout 60 build/megartp bench glm5-prefix --m 64 --batch 8 --kv 65536 --modes serial,mega --reps 40 > "$O/long.md" 2>&1 &&
    echo "long $(grep -E '^\| (D0|E1|F1) |step, |same-bytes' "$O/long.md" | tr -s ' ' | cut -c1-90 | tr '\n' ' ')"
for b in serial cmp; do
    [ $((SECONDS - t0)) -gt 440 ] && break
    timeout 40 build/megartp trace glm5-prefix --backend $b -o "$O/trace-$b.json" > "$O/trace-$b.txt" 2>&1
    echo "trace $b rc=$?"; head -40 "$O/trace-$b.txt"
done
echo "t=$((SECONDS - t0)) s"
if command -v ncu > /dev/null && [ $((SECONDS - t0)) -lt 470 ]; then
    ncu --help > "$O/ncu-help.txt" 2>&1
    timeout 110 ncu --kernel-name regex:'^mrt_(a0|gemm|epi|index_logits|topk)' --launch-count 14 --clock-control none \
        --section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats \
        --section MemoryWorkloadAnalysis --page raw --csv \
        build/megartp run glm5-prefix --backend serial > "$O/ncu-step.csv" 2> "$O/ncu-step.err"
    echo "ncu rc=$? $(grep -c '^"' "$O/ncu-step.csv") lines"
fi
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
