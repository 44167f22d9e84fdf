#!/bin/bash
# Session 32 run 1 (written 2026-12-01, end of session 31; session 31's runs
# are scripts/device-s31a.sh .. s31f.sh; its final tree passed every GPU check in run 4).
# -DMRT_MEGA_QA_WEIGHTS_FIRST=1 (prepared, compiled, not run): a QKV_A q unit's finalization
# group loads its columns' w_qn factors once before its first claim instead of in each job's
# epilogue (B0's epilogue 1.82 us on the M=16 critical path, session 31 run 5). First
# test_mega_prefix on the switch's build (same bytes expected: the same factors), then A B
# against the default at M=16 KV=8192 and 1024 twice, M=1 KV=8192, M=64 KV=8192, M=128 KV=1024,
# a FIN_PROBE=2 trace of the switch (B0's epilogue phase).
# Run: timeout 560 bash scripts/device-s32a.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant qw -DMRT_MEGA_QA_WEIGHTS_FIRST=1 "megartp tests/gpu/test_mega_prefix" &
build_variant qwfp2 "-DMRT_MEGA_QA_WEIGHTS_FIRST=1 -DMRT_MEGA_FIN_PROBE=2" megartp &
build_or_exit build/megartp
wait
{
echo "builds $((SECONDS - t0)) s"
for rep in 1 2; do ab_shapes "build build-qw" "16 2 8192" "16 2 1024"; done
ab_shapes "build build-qw" "1 1 8192" "64 2 8192" "128 2 1024"
echo "t=$((SECONDS - t0)) s"
mega_trace build-qwfp2 qwfp2-16-8192 | grep -E "^  (B0|D1) |critical"
python3 scripts/trace_phases.py --ordered "$O/trace-qwfp2-16-8192.json" "compute done" "weights issued" visible "input ready" \
    published | grep -E "^(op|B0) "
timeout 150 build-qw/tests/gpu/test_mega_prefix > "$O/test_mega_prefix-qw.log" 2>&1
echo "test_mega_prefix qw rc=$? $(tail -1 "$O/test_mega_prefix-qw.log")"; grep FAIL "$O/test_mega_prefix-qw.log" | head -5
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
