#!/bin/bash
# Session 24 run 4 (2026-12-01): the evidence on the session's final tree (E1's reduce-scatter
# epilogue, the cost model refitted to run 2's traces): GPU tests (test_index_ops --quick,
# test_mega with the NoOp cost, test_mega_prefix: mega = serial bytes at the 12 shapes), the
# three sanitizers on the reduced step, the default plan at the 12 shapes and, where the
# refit changed auto's or tuning's pick, the previous pick beside it; serial / cmp / mega at
# M=16 KV=8192 with the read; a trace there, and E1's phases in it now (-DMRT_MEGA_IL_STOP=1:
# the loads alone, 3: without the stores) at M=16 and M=128 KV=8192.
# Run: timeout 500 bash scripts/device-s24d.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant san "$SAN" tests/gpu/test_mega_prefix &
for s in 1 3; do build_variant il$s -DMRT_MEGA_IL_STOP=$s megartp & done
build_or_exit build/megartp build/tests/gpu/test_mega_prefix build/tests/gpu/test_mega build/tests/gpu/test_index_ops
wait
{
echo "builds $((SECONDS - t0)) s"
gpu_tests 150 "test_index_ops --quick" "test_mega" "test_mega_prefix"
grep -h "NoOp" "$O/test_mega.log" | tail -1
mega_tiny_sanitize 150 build-san final
echo "t=$((SECONDS - t0)) s"
mega_sweep build default
mega_at build pre-refit "64 2 65536" --policy roundrobin --no-tune
mega_at build pre-refit "128 2 8192" --policy critical-path --split D1=2 --chunk E1=256
mega_at build default "64 2 65536"
mega_at build default "128 2 8192"
step_shapes serial,cmp,mega build "16 2 8192"
mega_trace build default-16-8192 | grep -E "^  [A-F][0-9] |critical"
for sh in "16 2 8192" "128 2 8192"; do
    set -- $sh
    for b in build build-il1 build-il3; do
        mega_trace $b "$(basename $b)-$1-$3" --m $1 --batch $2 --kv $3 | grep -E "^  E1 "
    done
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
