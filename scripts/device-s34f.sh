#!/bin/bash
# Session 34 run 6 (2026-12-01): the tree's GPU checks with F1's runs row (built here):
# test_mega_prefix (mega = serial bytes at every shape of [E], both policies, replays),
# test_serial (digests against bench/test_serial-digests.txt), test_mega (watchdog, NoOp),
# test_index_ops --quick (F1 variant 13, the runs row, exact against the reference on the
# adversarial rows), `megartp run` digests of serial / cmp / mega, the three sanitizers on the
# reduced step and racecheck on test_index_ops --tiny (the standalone runs kernel); the whole
# bench at the target shape. Then, from the carried probe build of run 4 (build-ps: the
# shared-memory row run twice), F1's cold and warm runs with the chain alone (no D0 / D2).
# Run: timeout 560 bash scripts/device-s34f.sh   (carry: build-ps/megartp)
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant san "$SAN" tests/gpu/test_mega_prefix &
build_gpu_tests
wait
{
echo "builds $((SECONDS - t0)) s"
tree_checks
if [ -x build-ps/megartp ]; then
    mega_trace build-ps ps-chain --ops A0,B0,C0,B1,D1,E1,F1 > /dev/null
    python3 scripts/trace_phases.py "$O/trace-ps-chain.json" "input ready" "weights issued" "compute done" |
        sed "s/^/chain alone: /"
fi
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
