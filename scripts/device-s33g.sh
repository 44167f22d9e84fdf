#!/bin/bash
# Session 33, run 7: D1's whole tile in its ring. Run 6 measured the chain link by link: D1
# adds 3.3 us to cmp's chain and 10.6 to the megakernel's (input -> computed 4.8, its
# finalization 6.6). A tile's k-loop after its input takes about (1 + the K blocks past the
# ring / the ring) round trips: D1's tile (split 2: 8 K blocks of 16 KB) with 4 stages waits
# for a second round of weights after its input; with 8 it would have all of them before it,
# as the standalone kernel does. MRT_MEGA_STAGES=D1=8 (environment: the ring's depth is a
# run-time field) against the default at M=16 KV=8192 twice and four more shapes, traced.
# Binary from this machine's build (carried): build/megartp.
# Run: timeout 400 bash scripts/device-s33g.sh   (carry: build/megartp)
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
{
[ -x build/megartp ] || build_or_exit build/megartp
d1() { # "M B KV"
    mega_at build ring4 "$1"
    MRT_MEGA_STAGES=D1=8 mega_at build d1-8 "$1"
    MRT_MEGA_STAGES=D1=8,B0=6 mega_at build d1-8-b0-6 "$1"
    MRT_MEGA_STAGES=D1=8,C0=8,B1=8 mega_at build d1c0b1-8 "$1"
}
d1 "16 2 8192"
d1 "16 2 8192"
d1 "1 1 1024"
d1 "16 2 1024"
d1 "64 2 8192"
d1 "128 2 1024"
d1 "16 2 65536"
echo "t=$((SECONDS - t0)) s"
mega_trace build ring4-16-8192 | grep -E "^  (A0|B0|D1|D0|E1|D2|F1) |critical|span"
MRT_MEGA_STAGES=D1=8 mega_trace build d1-8-16-8192 | grep -E "^  (A0|B0|D1|D0|E1|D2|F1) |critical|span"
MRT_MEGA_STAGES=D1=8 mega_trace build d1-8-chain-16-8192 --ops A0,B0,C0,B1,D1 --split D1=2 | grep -E "^  (A0|B0|D1) |critical|span"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
