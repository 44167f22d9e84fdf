#!/bin/bash
# Session 19 run 6 (2026-11-30): where B0's consumers spend a K block, for the next session.
# Run 5: with no wgmma at all (-DMRT_GEMM_DIAG_WGMMAS=0) B0's K blocks 1.. still take ~0.2 us
# each while their full waits total ~0.5 us: the loop's own instructions. Nsight Compute's
# SASS stall samples of the default build's step with B0 alone (`--ops B0`), by function and
# file (scripts/stalls_by_file.py) and by instruction (scripts/sass_stalls.py); the source
# page (CSV) and the TN-16 kernel's SASS come back for the per-line reading.
# Run 7: the whole step (`bash scripts/device-s19f.sh step`): in the step B0's stages are full
# when its input arrives (run 1's probe waits), alone it streams them (mostly full waits).
# Run: timeout 330 bash scripts/device-s19f.sh [B0|step]
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
W=${1:-B0}
OPS="--ops $W"; [ "$W" = step ] && OPS=""
build_or_exit build/megartp
echo "build $((SECONDS - t0)) s"
{
mkdir -p "$O/sass" && (cd "$O/sass" && cuobjdump -xelf all "$OLDPWD/build/src/cuda/mega.o" > /dev/null 2>&1; \
    nvdisasm -g -c *.cubin > mega.sass 2> nvdisasm.err; echo "sass rc=$? $(wc -l < mega.sass) lines")
K=mrt_mega_kernelILb0ELi16
timeout 150 ncu --kernel-name regex:mrt_mega_kernel --launch-skip 10 --launch-count 1 \
    --section SourceCounters --section WarpStateStats -o "$O/$W" \
    build/megartp bench glm5-prefix --modes mega --reps 10 $OPS > "$O/ncu-$W.log" 2>&1
echo "ncu $W rc=$? $(grep -E '==PROF==|==ERROR==' "$O/ncu-$W.log" | tail -2 | tr '\n' ' ')"
ncu --import "$O/$W.ncu-rep" --page source --csv --print-source sass > "$O/src-$W.csv" 2> "$O/src-$W.err"
python3 scripts/stalls_by_file.py "$O/src-$W.csv" "$O/sass/mega.sass" $K 3 | head -25
python3 scripts/sass_stalls.py "$O/src-$W.csv" 40 | head -70
gzip "$O/src-$W.csv"; rm -f "$O/$W.ncu-rep"
awk -v k=$K '/\.text\./{on = index($0, k) > 0} on' "$O/sass/mega.sass" | gzip > "$O/sass/mega16.sass.gz"
rm -f "$O"/sass/*.cubin "$O/sass/mega.sass"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
