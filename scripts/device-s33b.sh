#!/bin/bash
# Session 33, run 2: the plan's tiling choices and the cost model again with 4-stage rings
# (session 32 capped every megakernel ring at 64 KB of weights; tuning's picks, auto's margins
# and schedule.c's costs were all measured or fitted with 8-stage rings). No code change: the
# megartp binary comes from this machine's build (carried as build/megartp; sm_90a, CUDA 13.0),
# so no device time goes to compiling. Plan options on top of and instead of the tuned plan at
# M=16 KV=8192 (twice) and four more shapes, then refit_traces (plan + trace pairs of the 12
# shapes under roundrobin, the default and critical-path) for scripts/fit_costs.py.
# Run: timeout 570 bash scripts/device-s33b.sh   (carry: build/megartp)
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
{
[ -x build/megartp ] || build_or_exit build/megartp
build/megartp plan glm5-prefix | head -1
t16() { # the M=16 KV=8192 variants
    local s="16 2 8192"
    mega_at build tuned "$s"
    mega_at build notune "$s" --no-tune
    mega_at build d1-4 "$s" --split D1=4 --chunk E1=256
    mega_at build d1-1 "$s" --split D1=1 --chunk E1=256
    mega_at build e1-128 "$s" --split D1=2
    mega_at build e1-512 "$s" --split D1=2 --chunk E1=512
    mega_at build b0-2 "$s" --split D1=2,B0=2 --chunk E1=256
    mega_at build b0-4 "$s" --split D1=2,B0=4 --chunk E1=256
    mega_at build b0-6 "$s" --split D1=2,B0=6 --chunk E1=256
    mega_at build f1-2 "$s" --split D1=2,F1=2 --chunk E1=256
    mega_at build rr "$s" --policy roundrobin --split D1=2 --chunk E1=256
}
t16
s="1 1 1024"
mega_at build tuned "$s"; mega_at build b0-8 "$s" --split B0=8; mega_at build d1-2 "$s" --split D1=2
mega_at build rr "$s" --policy roundrobin
s="64 2 8192"
mega_at build tuned "$s"; mega_at build notune "$s" --no-tune
mega_at build b0-8 "$s" --split D1=2,B0=8 --chunk E1=256; mega_at build cp "$s" --policy critical-path --split D1=2 --chunk E1=256
s="128 2 1024"
mega_at build tuned "$s"; mega_at build notune "$s" --no-tune
mega_at build b0-8 "$s" --split D1=2,B0=8; mega_at build rr "$s" --policy roundrobin --split D1=2
s="16 2 65536"
mega_at build tuned "$s"; mega_at build notune "$s" --no-tune
mega_at build b0-6 "$s" --split D1=2,B0=6; mega_at build rr "$s" --policy roundrobin --split D1=2
t16
echo "t=$((SECONDS - t0)) s"
refit_traces 520
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
