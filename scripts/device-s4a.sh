#!/bin/bash
# Session 4's first device run: re-verify the commits made after the last run (mega = serial
# byte for byte, the step benchmark), issue [G]'s stamps A/B timing, and an ncu profile of one
# megakernel step with per-SASS-instruction stall samples (to find why each megakernel
# instruction computes ~2x its standalone tile; docs/MEGAKERNEL.md). Logs: device-common.sh.
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_both
{
timeout 100 build/tests/gpu/test_mega_prefix > "$O/test_mega_prefix.log" 2>&1
echo "test_mega_prefix rc=$? $(tail -1 "$O/test_mega_prefix.log")"; grep -E "FAIL|differs" "$O/test_mega_prefix.log" | head -8
timeout 60 build/megartp bench glm5-prefix --modes serial,cmp,mega > "$O/bench.md" 2>&1; echo "bench rc=$?"
grep -E "^\| " "$O/bench.md"
timeout 30 build/tests/gpu/test_mega > "$O/test_mega.log" 2>&1; echo "test_mega rc=$? $(grep -iE 'noop|framework' "$O/test_mega.log" | head -3 | tr '\n' ' ') $(tail -1 "$O/test_mega.log")"
echo "t=$((SECONDS - t0)) s"
stamps_ab
echo "t=$((SECONDS - t0)) s"
if command -v ncu > /dev/null && [ $((SECONDS - t0)) -lt 380 ]; then
    timeout $((560 - (SECONDS - t0))) ncu --clock-control none --kernel-name regex:mrt_mega_kernel --launch-skip 3 --launch-count 1 \
        --set full --import-source yes -o "$O/mega" build/megartp bench glm5-prefix --modes mega --reps 10 --copies 6 \
        > "$O/ncu.log" 2>&1
    echo "ncu rc=$?"; tail -3 "$O/ncu.log"
    ncu --import "$O/mega.ncu-rep" --page details > "$O/ncu-details.txt" 2>&1
    ncu --import "$O/mega.ncu-rep" --page raw --csv > "$O/ncu-raw.csv" 2>&1
    ncu --import "$O/mega.ncu-rep" --page source --csv --print-source sass > "$O/ncu-source-sass.csv" 2>&1
    echo "source csv: $(wc -l < "$O/ncu-source-sass.csv") lines"
    grep -E "Duration|Registers|Local|Stall|Warp Cycles|Issued Ipc|L1/TEX Hit|Mem Busy|Throughput" "$O/ncu-details.txt" | head -40
else
    echo "no ncu run (missing or out of time)"
fi
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
