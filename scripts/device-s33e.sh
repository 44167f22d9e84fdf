#!/bin/bash
# Session 33, run 5: the chain kept off D0's and D2's workers with 4-stage rings. Run 3 found
# the chain alone (no D0 / D2) 4 us faster than the step, run 4 the chain alone 1.8 us faster
# again with E1 in 128-key tasks; session 21's partition (roundrobin, `--place`) had won 5.8 us
# at M=16 KV=8192 with 8-stage rings and lost at nine other shapes. Partitions against the
# tuned plan at M=16 KV=8192 twice, then M=1 KV=8192, M=16 KV=1024, M=64 KV=8192 once, and a
# trace of the best-looking one. Binary from this machine's build (carried): build/megartp.
# Run: timeout 400 bash scripts/device-s33e.sh   (carry: build/megartp)
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
{
[ -x build/megartp ] || build_or_exit build/megartp
P21="D1=0-63,E1=0-63,F1=0-15,D0=64-131,D2=64-131"
parts() { # "M B KV"
    mega_at build tuned "$1"
    mega_at build p21-256 "$1" --policy roundrobin --split D1=2 --chunk E1=256 --place $P21
    mega_at build p21-128 "$1" --policy roundrobin --split D1=2 --place $P21
    mega_at build d0d2-256 "$1" --policy roundrobin --split D1=2 --chunk E1=256 --place D0=64-131,D2=64-131
    mega_at build d0d2-128 "$1" --policy roundrobin --split D1=2 --place D0=64-131,D2=64-131
    mega_at build b0-p21 "$1" --policy roundrobin --split D1=2 --chunk E1=256 --place B0=0-62,$P21
    mega_at build d0d2-96 "$1" --policy roundrobin --split D1=2 --chunk E1=256 --place D1=0-63,E1=0-63,F1=0-15,D0=36-131,D2=36-131
}
parts "16 2 8192"
parts "16 2 8192"
parts "1 1 8192"
parts "16 2 1024"
parts "64 2 8192"
echo "t=$((SECONDS - t0)) s"
mega_trace build p21-128-16-8192 --policy roundrobin --split D1=2 --place $P21 | grep -E "^  (A0|B0|D1|D0|E1|D2|F1) |critical|span"
mega_trace build p21-256-16-8192 --policy roundrobin --split D1=2 --chunk E1=256 --place $P21 | grep -E "^  (A0|B0|D1|D0|E1|D2|F1) |critical|span"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
