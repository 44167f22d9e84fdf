#!/bin/bash
# Session 4, run 5: where a megakernel GEMM tile's time goes (probe build: the trace's phases
# of GEMM tiles become k-loop done / store done), the SM clock while the megakernel runs
# (nvidia-smi), instruction counts of the one-shot kernels (cuobjdump), and the watchdog that
# wakes on the tile's end (step figures).
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant probe -DMRT_MEGA_PROBE megartp &
build_or_exit
wait
echo "builds $((SECONDS - t0)) s"
{
timeout 100 build/tests/gpu/test_mega_prefix > "$O/test_mega_prefix.log" 2>&1; echo "test_mega_prefix rc=$? $(tail -1 "$O/test_mega_prefix.log")"
timeout 100 build/tests/gpu/test_gemm_fp8 --quick > "$O/test_gemm_fp8.log" 2>&1; echo "test_gemm_fp8 --quick rc=$? $(tail -1 "$O/test_gemm_fp8.log")"
timeout 30 build/tests/gpu/test_mega > "$O/test_mega.log" 2>&1; echo "test_mega rc=$? $(grep -E 'back to back' "$O/test_mega.log" | head -1) $(tail -1 "$O/test_mega.log")"
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,clocks_event_reasons.active --format=csv -lms 50 > "$O/smi.csv" 2>&1 &
smi=$!
timeout 60 build/megartp bench glm5-prefix --modes serial,cmp,mega > "$O/bench.md" 2>&1; echo "bench rc=$?"
kill $smi
grep -E "^\| " "$O/bench.md"
echo "SM clock samples (MHz): $(awk -F', ' 'NR>1 {print $2}' "$O/smi.csv" | sort | uniq -c | sort -rn | head -6 | tr '\n' ';')"
echo "event reasons: $(awk -F', ' 'NR>1 {print $5}' "$O/smi.csv" | sort | uniq -c | sort -rn | head -4 | tr '\n' ';')"
for b in build build-probe; do
    timeout 30 $b/megartp trace glm5-prefix --backend mega -o "$O/trace-$b.json" > "$O/trace-$b.txt" 2>&1
    echo "trace $b rc=$?"; sed -n 4,14p "$O/trace-$b.txt"
done
timeout 30 build-probe/megartp trace glm5-prefix --backend mega --ops D0 --workers 32 -o "$O/trace-probe-D0.json" > "$O/trace-probe-D0.txt" 2>&1
sed -n 4,6p "$O/trace-probe-D0.txt"
for o in build/src/cuda/prefix_ops.o build/src/cuda/index_ops.o build/src/cuda/mega.o; do
    cuobjdump -sass $o 2>/dev/null | awk '/Function :/ {f=$3} /^ +\/\*[0-9a-f]+\*\// {n[f]++} END {for (k in n) print n[k], k}' | sort -rn > "$O/sass-count-$(basename $o).txt"
    echo "$o: $(head -4 "$O/sass-count-$(basename $o).txt" | tr '\n' ';')"
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
