#!/bin/bash
# One device run for the serial executor: build, GPU tests, memcheck, step benchmark.
set -u
cd "$(dirname "$0")/.."
O=${OUT:-/tmp/out}; mkdir -p "$O"
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$O/device.txt"
t0=$SECONDS
make -j16 all > "$O/build.log" 2>&1 || { echo "BUILD FAILED"; grep -E "error" "$O/build.log" | head -30; exit 1; }
echo "build $((SECONDS - t0)) s"
for t in test_serial test_index_ops; do
    timeout 200 build/tests/gpu/$t > "$O/$t.log" 2>&1; echo "$t rc=$? $(tail -1 "$O/$t.log")"
done
timeout 150 compute-sanitizer --tool memcheck build/tests/gpu/test_serial --quick > "$O/memcheck.log" 2>&1
echo "memcheck rc=$? $(grep -E 'ERROR SUMMARY' "$O/memcheck.log" | tail -1)"
timeout 120 build/megartp bench glm5-prefix --m 16 --batch 2 --kv 8192 > "$O/bench.log" 2>&1; echo "bench rc=$?"
cat "$O/bench.log"
grep -E "FAIL|rel err|pass" "$O/test_serial.log" | head -40
