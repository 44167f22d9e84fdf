#!/bin/bash
# Session 4, run 4: (1) the hardware fp32 -> e4m3 / bf16 conversions in device code (all 2^32
# inputs against the reference; the executors' GPU tests; the step); (2) is a megakernel
# instruction slow because its code is cold? One op's plan on a few workers, so each worker
# runs several tasks of the op in a row: traces (JSON) give each task's phases in queue order.
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_or_exit
echo "build $((SECONDS - t0)) s"
{
for t in test_numerics_gpu test_mega_prefix; do
    timeout 100 build/tests/gpu/$t > "$O/$t.log" 2>&1; echo "$t rc=$? $(tail -1 "$O/$t.log")"; grep FAIL "$O/$t.log" | head -5
done
for t in test_serial test_index_ops test_gemm_fp8 test_gemm_bf16; do
    timeout 100 build/tests/gpu/$t --quick > "$O/$t.log" 2>&1; echo "$t --quick rc=$? $(tail -1 "$O/$t.log")"; grep FAIL "$O/$t.log" | head -5
done
timeout 60 build/megartp bench glm5-prefix --modes serial,cmp,mega > "$O/bench.md" 2>&1; echo "bench rc=$?"
grep -E "^\| " "$O/bench.md"
for spec in "A0 4" "A0 16" "E1 16" "F1 4" "B0 32" "D0 32" "D2 32"; do
    set -- $spec
    timeout 30 build/megartp trace glm5-prefix --backend mega --ops $1 --workers $2 -o "$O/trace-$1-w$2.json" \
        > "$O/trace-$1-w$2.txt" 2>&1
    echo "trace --ops $1 --workers $2 rc=$?"; sed -n 4,6p "$O/trace-$1-w$2.txt"
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
