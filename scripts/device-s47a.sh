#!/bin/bash
# Session 47 run 1: E1's token groups in two halves of 64 columns (m64n64k32), the next half's
# wgmmas in flight during this half's epilogue (index_logits_wg.cuh; every executor's tile).
# test_index_ops --quick (E1 variants against the reference), test_mega_prefix (mega = serial
# bytes), test_mega; old (build-old/ = 02059a2) / new mega at five shapes; serial and cmp per op
# at M=128 KV=65536 from both; a trace of the new megakernel there.
# Run: sh scripts/pack-builds.sh build build-old build/tests/gpu/test_index_ops build/tests/gpu/test_mega_prefix
#      build/tests/gpu/test_mega; timeout 560 bash scripts/device-s47a.sh   (carry build-pack)
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
unpack_builds
{
cat "$O/device.txt"
gpu_tests 100 "test_index_ops --quick"
echo "t=$((SECONDS - t0)) s"
mega_ab "128 2 65536" "16 2 8192" "64 2 65536" "16 2 65536"
echo "t=$((SECONDS - t0)) s"
for b in build-old build; do
    timeout 60 $b/megartp bench glm5-prefix --m 128 --batch 2 --kv 65536 --modes serial,cmp > "$O/sc-$b.md" 2>&1
    echo "$b rc=$? $(grep -E 'step, ' "$O/sc-$b.md" | tr -s ' ' | cut -c1-100 | tr '\n' ' ')"
    grep -E "E1|index_logits" "$O/sc-$b.md" | head -4 | cut -c1-160
done
echo "t=$((SECONDS - t0)) s"
mega_trace build new --m 128 --batch 2 --kv 65536
echo "t=$((SECONDS - t0)) s"
mega_tests 200
echo "t=$((SECONDS - t0)) s"
mega_ab "128 2 65536" "1 1 65536" "128 2 8192"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
