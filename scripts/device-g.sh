#!/bin/bash
# One device run for traces (issue [G]): build, the GPU trace test, a trace of each GPU
# executor at M=16 batch 2 KV=8192 (JSON + HTML), and what the stamps cost when tracing is
# off: the step benchmark of this build against a build with the stamps compiled out
# (-DMRT_NO_STAMPS), alternated A B A B so drift shows; and the cumulative add of analysis
# (b) on the stream executors; the quick GPU tests of the ops. Logs: scripts/device-common.sh.
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_or_exit
build_nostamps
echo "builds $((SECONDS - t0)) s"
{
for t in test_trace_gpu test_mega; do
    timeout 120 build/tests/gpu/$t > "$O/$t.log" 2>&1; echo "$t rc=$? $(tail -1 "$O/$t.log")"
done
timeout 120 build/tests/gpu/test_serial --quick > "$O/test_serial.log" 2>&1; echo "test_serial --quick rc=$? $(tail -1 "$O/test_serial.log")"
for t in test_index_ops test_gemm_fp8 test_gemm_bf16; do
    timeout 100 build/tests/gpu/$t --quick > "$O/$t.log" 2>&1; echo "$t --quick rc=$? $(tail -1 "$O/$t.log")"
done
for b in serial cmp; do
    timeout 60 build/megartp trace glm5-prefix --backend $b --m 16 --batch 2 --kv 8192 -o "$O/trace-$b.json" \
        --html "$O/trace-$b.html" > "$O/trace-$b.txt" 2>&1; echo "trace $b rc=$?"; head -3 "$O/trace-$b.txt"
done
timeout 60 build/megartp trace glm5-prefix --backend mega --m 16 --batch 2 --kv 8192 -o "$O/trace-mega.json" \
    --html "$O/trace-mega.html" > "$O/trace-mega.txt" 2>&1; echo "trace mega rc=$?"; head -3 "$O/trace-mega.txt"
timeout 240 build/megartp bench glm5-prefix --cumulative --m 16 --batch 2 --kv 8192 --reps 100 > "$O/cumulative.md" 2>&1
echo "bench --cumulative rc=$?"; cat "$O/cumulative.md"
stamps_ab
} 2>&1 | tee "$O/summary.txt"
