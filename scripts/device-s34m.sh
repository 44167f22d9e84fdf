#!/bin/bash
# Session 34 run 13 (2026-12-01): the review's host change (index_ops.cu: the one-CTA-a-row F1
# launchers share mrt_topk_rows_launch). test_index_ops --quick (every F1 variant exact against
# the reference) and `megartp run` serial / cmp / mega (serial's F1 is variant 9 through the
# changed launcher; one digest). Nothing is built here: carry build/megartp and
# build/tests/gpu/test_index_ops (local builds, sm_90a).
# Run: timeout 200 bash scripts/device-s34m.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
{
gpu_tests 150 "test_index_ops --quick"
run_backends serial cmp mega
grep -h "output digest" "$O"/run-*.txt | sort | uniq -c
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
