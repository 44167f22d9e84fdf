#!/bin/bash
# Session 41 run 1 (2026-12-02): the tree of c015928 (the TMA path without its own global proxy
# fence; mega.cu PTX 8eb72681) built on the device with every check (test_mega_prefix,
# test_serial's digests against bench/test_serial-digests.txt, test_mega, test_index_ops, the
# sanitizers), the bench and the 12-shape sweep; then the cost model's refit pairs
# (refit_traces: plan + trace at the 12 shapes under roundrobin, default and critical-path)
# until 560 s.
# Run: timeout 590 bash scripts/device-s41a.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
final_builds
{
tree_evidence
echo "t=$((SECONDS - t0)) s"
refit_traces 560
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
