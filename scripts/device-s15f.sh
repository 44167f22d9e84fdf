#!/bin/bash
# Session 15, run 6 (diagnostic, no change measured): why one-shot ops are slower inside the
# step than alone (run 2: F1 11.1 against 7.1 us input -> computed, A0 8.5 against 6.4, E1 7.0
# against 6.4): Nsight Compute's stall reasons per function and source file
# (scripts/stalls_by_file.py) for the M=16 step and for F1 alone; stall_no_instruction is an
# instruction fetch that missed (code evicted between steps by 79 MB of weights a step).
# Run: timeout 400 bash scripts/device-s15f.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_or_exit build/megartp
echo "build $((SECONDS - t0)) s"
{
mkdir -p "$O/sass" && (cd "$O/sass" && cuobjdump -xelf all "$OLDPWD/build/src/cuda/mega.o" > /dev/null 2>&1; \
    nvdisasm -g -c *.cubin > mega.sass 2> nvdisasm.err; echo "sass rc=$? $(wc -l < mega.sass) lines")
K=mrt_mega_kernelILb0ELi16
for what in step F1; do
    ops=""; [ $what = F1 ] && ops="--ops F1"
    timeout 150 ncu --kernel-name regex:mrt_mega_kernel --launch-skip 10 --launch-count 1 \
        --section SourceCounters --section WarpStateStats -o "$O/$what" \
        build/megartp bench glm5-prefix --modes mega --reps 10 $ops > "$O/ncu-$what.log" 2>&1
    echo "ncu $what rc=$? $(grep -E '==PROF==|==ERROR==' "$O/ncu-$what.log" | tail -2 | tr '\n' ' ')"
    ncu --import "$O/$what.ncu-rep" --page source --csv --print-source sass > "$O/src-$what.csv" 2> "$O/src-$what.err"
    python3 scripts/stalls_by_file.py "$O/src-$what.csv" "$O/sass/mega.sass" $K 3 | head -25
    gzip "$O/src-$what.csv"; rm -f "$O/$what.ncu-rep"
    echo "t=$((SECONDS - t0)) s"
done
awk -v k=$K '/\.text\./{on = index($0, k) > 0} on' "$O/sass/mega.sass" | gzip > "$O/sass/mega16.sass.gz"
rm -f "$O"/sass/*.cubin "$O/sass/mega.sass"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
