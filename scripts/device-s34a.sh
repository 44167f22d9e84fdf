#!/bin/bash
# Session 34 run 1 (written 2026-12-01 as device-next.sh at the end of session 33; E1 in
# 128-key tasks, session 33 run 9: the chain ends
# 4.2 us earlier in the step (F1 done 59.1 against 63.3 us at M=16 KV=8192), but D0's tiles
# then queue behind E1 on the D1 workers and D0 -> D2 ends the step at 67. `--place` now works
# under critical-path (only a range's workers take its op's tasks; e2a9eb4): partitions that
# keep D0 and D2 off the D1 workers, with E1 at 128 and 256 keys, against the tuned plan, at
# M=16 KV=8192 twice and three more shapes; traces of the first two. No code to build but
# build/megartp: carry it from a local `make build/megartp` (sm_90a; saves ~100 s of device).
# Run: timeout 400 bash scripts/device-s34a.sh   (carry: build/megartp)
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
{
[ -x build/megartp ] || build_or_exit build/megartp
run_at() { mega_at build "$@"; }
parts() { # "M B KV"
    run_at tuned "$1"
    run_at cp-e128 "$1" --policy critical-path --split D1=2 --chunk E1=128 --place D1=0-63,D0=64-131,D2=64-131
    run_at cp-e128-e1 "$1" --policy critical-path --split D1=2 --chunk E1=128 --place D1=0-63,E1=0-63,D0=64-131,D2=64-131
    run_at cp-e256 "$1" --policy critical-path --split D1=2 --chunk E1=256 --place D1=0-63,D0=64-131,D2=64-131
    run_at cp-e128-d0 "$1" --policy critical-path --split D1=2 --chunk E1=128 --place D0=64-131
}
at_ab_shapes parts
echo "t=$((SECONDS - t0)) s"
mega_trace build cp-e128-16-8192 --policy critical-path --split D1=2 --chunk E1=128 \
    --place D1=0-63,D0=64-131,D2=64-131 | grep -E "^  (A0|B0|D1|D0|E1|D2|F1) |critical|span"
mega_trace build cp-e128-e1-16-8192 --policy critical-path --split D1=2 --chunk E1=128 \
    --place D1=0-63,E1=0-63,D0=64-131,D2=64-131 | grep -E "^  (A0|B0|D1|D0|E1|D2|F1) |critical|span"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
