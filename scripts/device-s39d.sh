#!/bin/bash
# Session 39 run 4 (2026-12-02): the tree's evidence with auto's new rule (d31137f: above 16
# tokens roundrobin where E1's tasks are more than 1.5x the workers; the device code is
# session 37's, mega.cu PTX 4cabab59): every check (test_mega_prefix with the new default
# plan at M=64 KV=65536, test_serial's digests against bench/test_serial-digests.txt), the
# bench and the 12-shape sweep, then the other new picks at KV=65536.
# Run: timeout 585 bash scripts/device-s39d.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
final_builds
{
tree_evidence
for sh in "24 2 65536" "32 2 65536" "48 2 65536" "96 2 65536"; do
    [ $((SECONDS - t0)) -gt 550 ] && break
    mega_at build build "$sh"
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
