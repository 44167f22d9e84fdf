#!/bin/bash
# The next session's first device run (written 2026-11-29, end of session 4). Commits after
# 64c8017 (the last verified) are compile-checked only: the epilogues read their row's inputs
# (cache slot, RoPE cos/sin, gate partials) before their reductions, and the split-K sums of
# the standalone store and the megakernel's finalization jobs share mrt_sum_splits (8 splits'
# loads in flight); the megakernel's GEMM tile takes its TMA descriptors as pointers; the E1 /
# top-k launchers and the PDL bench raise shared memory attributes (mrt_gpu_raise_smem). This
# run re-verifies every GPU test those touch (byte equality with serial and the CPU
# executor), then the step of the three executors, the mega trace, memcheck.
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_or_exit
echo "build $((SECONDS - t0)) s"
{
for t in test_numerics_gpu "test_gemm_fp8 --quick" "test_gemm_bf16 --quick" "test_serial --quick" \
         "test_index_ops --quick" test_mega_prefix test_mega test_trace_gpu; do
    set -- $t
    timeout 120 build/tests/gpu/$t > "$O/$1.log" 2>&1; echo "$t rc=$? $(tail -1 "$O/$1.log")"; grep FAIL "$O/$1.log" | head -5
done
timeout 60 build/megartp bench glm5-prefix --modes serial,cmp,mega > "$O/bench.md" 2>&1; echo "bench rc=$?"
grep -E "^\| " "$O/bench.md"
timeout 30 build/megartp trace glm5-prefix --backend mega -o "$O/trace-mega.json" > "$O/trace-mega.txt" 2>&1
sed -n 4,14p "$O/trace-mega.txt"
timeout 60 build/megartp run glm5-prefix --backend mega > "$O/run-mega.txt" 2>&1; echo "run --backend mega rc=$?"; tail -2 "$O/run-mega.txt"
timeout 120 compute-sanitizer --tool memcheck build/tests/gpu/test_mega_prefix --quick > "$O/memcheck.log" 2>&1
echo "memcheck rc=$? $(grep -E 'ERROR SUMMARY' "$O/memcheck.log" | tail -1)"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
