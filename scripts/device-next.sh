#!/bin/bash
# Prepared in session 47, not run (its F1 part: session 49 run 1, device-s49a.sh) (its device time was spent): on the H200,
#  1. serial and cmp with session 47's E1 tile loop against 02059a2's (run 7 measured them on
#     an H100 only: E1 136 -> 131 us at M=128 KV=65536), and the default shape's three
#     executors beside the read;
#  2. [E]'s 12-shape sweep with E1 on three warpgroups (the record's last sweep is session 46's);
#  3. the full test_index_ops, whose timings include F1 rows of 65536 random keys as kernels
#     (variant 0: serial's 1024-thread bitmap row; 10, 14: the megakernel's rows): whether
#     serial should take the 24-bit-prefix row (session 46's pending measurement).
# Run: sh scripts/pack-builds.sh build build-old build/tests/gpu/test_index_ops   (build-old/ =
#      02059a2's megartp); timeout 590 bash scripts/device-next.sh   (carry build-pack)
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
unpack_builds
{
cat "$O/device.txt"
sc_ab "128 2 65536" build-old build build-old build
ab_bench "serial,cmp,mega" build-old build
echo "t=$((SECONDS - t0)) s"
sweep_until 300 build new
echo "t=$((SECONDS - t0)) s"
gpu_tests 260 test_index_ops
grep -E "^TIME F1 .*(kv=65536|kv=8192 k=2048 \(E1)" "$O/test_index_ops.log" | cut -c1-170
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
