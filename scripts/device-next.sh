#!/bin/bash
# Prepared in session 46, not run (its device time was spent): test_mega_prefix on the final
# tree (session 46 run 8 killed it at a 120-s limit before it printed; it takes ~90-115 s);
# `megartp run` serial = mega (and the naive reference) at M=1 KV=32768 with one task a row
# (the megakernel's 24-bit-prefix row); the full test_index_ops, whose timings now include F1
# rows of 65536 random keys as kernels of their own: serial's row past 16384 keys (variant 0,
# 1024 threads) against the megakernel's (variant 10 read twice, variant 14 the 24-bit
# prefixes; 384 threads): whether serial should take variant 14 (or a 1024-thread form).
# Run: sh scripts/pack-builds.sh build build/tests/gpu/test_index_ops build/tests/gpu/test_mega_prefix
#      build/tests/gpu/test_mega; timeout 500 bash scripts/device-next.sh   (carry build-pack)
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
unpack_builds
{
mega_tests 200
DIGEST_ARGS="--split F1=1" run_digests "1 1 32768"   # a row past the runs' cache, one task: the 24-bit-prefix row
echo "t=$((SECONDS - t0)) s"
gpu_tests 280 test_index_ops
grep -E "^TIME F1 .*(kv=65536|kv=8192 k=2048 \(E1)" "$O/test_index_ops.log" | cut -c1-170
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
