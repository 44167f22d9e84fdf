#!/bin/bash
# One device run for the prefix on the GPU: build, GPU tests, compute-sanitizer, benchmarks.
# Logs go to $OUT (the device tool's return folder) or /tmp/out. Every step has a timeout.
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_or_exit
echo "build $((SECONDS - t0)) s"
{
for t in test_serial test_index_ops test_gemm_fp8 test_gemm_bf16; do
    args=""; case $t in test_gemm_*) args="--quick";; esac
    timeout 200 build/tests/gpu/$t $args > "$O/$t.log" 2>&1; echo "$t rc=$? $(tail -1 "$O/$t.log")"
done
# sanitizers slow kernels 100x+: a build whose watchdogs wait 100x longer (still bounded)
build_variant san -DMRT_SPIN_LIMIT_CYCLES=2000000000000LL tests/gpu/test_serial
timeout 120 compute-sanitizer --tool memcheck build-san/tests/gpu/test_serial --quick > "$O/sanitize.log" 2>&1
echo "memcheck serial+cmp rc=$? $(grep -E 'ERROR SUMMARY' "$O/sanitize.log" | tail -1)"
timeout 200 compute-sanitizer --tool racecheck build-san/tests/gpu/test_serial --quick >> "$O/sanitize.log" 2>&1
echo "racecheck serial+cmp rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$O/sanitize.log" | tail -1)"
timeout 60 compute-sanitizer --tool racecheck build/tests/gpu/test_index_ops --tiny >> "$O/sanitize.log" 2>&1
echo "racecheck index ops rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$O/sanitize.log" | tail -1)"
timeout 120 build/megartp bench glm5-prefix --m 16 --batch 2 --kv 8192 > "$O/bench.md" 2>&1; echo "bench rc=$?"
if build/megartp help | grep -q "bench pdl"; then
    timeout 150 build/megartp bench pdl > "$O/pdl.md" 2>&1; echo "bench pdl rc=$?"
fi
} 2>&1 | tee "$O/summary.txt"
cat "$O/bench.md"
