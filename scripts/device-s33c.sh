#!/bin/bash
# Session 33, run 3: schedule.c's cost model refitted to run 2's 36 plan + trace pairs (4-stage
# rings), against the old fit, and auto's choice between the placements again. Binaries from
# this machine's builds (carried): build/megartp (the refit), build-oldcost/megartp (the old
# table; host code only differs). (1) The default plan of each binary at the four shapes where
# the refit moves critical-path's queues, twice. (2) At the 12 shapes of [E]'s sweep the
# default plan and the other placement with the same tuned tiling (which auto would take
# under another margin). (3) The chain without D0 / D2 (`--ops`), to see how much their
# weight streams slow it, with traces.
# Run: timeout 570 bash scripts/device-s33c.sh   (carry: build/megartp, build-oldcost/megartp)
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
{
for b in build build-oldcost; do [ -x $b/megartp ] || { echo "$b/megartp missing"; exit 1; }; done
for r in 1 2; do
    for s in "1 1 8192" "16 2 8192" "64 2 65536" "128 2 1024"; do
        mega_at build newfit "$s"
        mega_at build-oldcost oldfit "$s"
    done
done
# "M B KV|the other placement with the default's tiling"
for row in "1 1 1024|--policy roundrobin" "1 1 8192|--policy roundrobin" \
    "1 1 65536|--policy roundrobin --split D1=2 --chunk E1=512" "16 2 1024|--policy roundrobin --split D1=2" \
    "16 2 8192|--policy roundrobin --split D1=2 --chunk E1=256" "16 2 65536|--policy roundrobin --split D1=2" \
    "64 2 1024|--policy roundrobin --split D1=2" "64 2 8192|--policy critical-path --split D1=2 --chunk E1=256" \
    "64 2 65536|--policy roundrobin --split D1=2" "128 2 1024|--policy roundrobin --split D1=2" \
    "128 2 8192|--policy critical-path --split D1=2 --chunk E1=256" "128 2 65536|--policy critical-path"; do
    s=${row%%|*}
    mega_at build default "$s"
    mega_at build other "$s" ${row#*|}
done
echo "t=$((SECONDS - t0)) s"
s="16 2 8192"
chain="A0,B0,C0,B1,D1,E1,F1"
mega_at build chain "$s" --ops $chain --split D1=2 --chunk E1=256
mega_at build chain-d0 "$s" --ops $chain,D0 --split D1=2 --chunk E1=256
mega_at build chain-d0d2 "$s" --ops $chain,D0,D2 --split D1=2 --chunk E1=256
mega_at build chain "$s" --ops $chain --split D1=2 --chunk E1=256
mega_trace build chain-16-8192 --ops $chain --split D1=2 --chunk E1=256 | grep -E "^  (A0|B0|D1|E1|F1) |critical|span"
mega_trace build chain-d0-16-8192 --ops $chain,D0 --split D1=2 --chunk E1=256 | grep -E "^  (A0|B0|D1|D0|E1|F1) |critical|span"
mega_trace build default-16-8192 | grep -E "^  (A0|B0|D1|D0|E1|D2|F1) |critical|span"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
