#!/bin/bash
# Session 12, run 6: where the megakernel's warps stall, per SASS instruction (Nsight Compute
# source counters on one step launched by the benchmark, after 10 warm-up steps), to find
# the ~0.5 us a K block of its GEMM tiles (run 3's probe) and the other latency chains.
# Run: timeout 400 bash scripts/device-s12f.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_or_exit build/megartp
echo "build $((SECONDS - t0)) s"
{
timeout 240 ncu --kernel-name regex:mrt_mega_kernel --launch-skip 10 --launch-count 1 \
    --section SourceCounters --section WarpStateStats -o "$O/mega" \
    build/megartp bench glm5-prefix --modes mega --reps 10 > "$O/ncu.log" 2>&1
echo "ncu rc=$? $(grep -E '==PROF==|==ERROR==' "$O/ncu.log" | tail -3 | tr '\n' ' ')"
ncu --import "$O/mega.ncu-rep" --page source --csv --print-source sass > "$O/src.csv" 2> "$O/src.err"
echo "source page rc=$? $(wc -c < "$O/src.csv") bytes"
python3 scripts/sass_stalls.py "$O/src.csv" 50
ncu --import "$O/mega.ncu-rep" --page details --csv > "$O/details.csv" 2>&1
grep -E 'Warp Cycles Per Issued|Issued Ipc|Duration|Registers' "$O/details.csv" | head -8
gzip -k "$O/src.csv"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
