#!/bin/bash
# Session 20 run 5 (2026-11-30): where the new default's F1 row goes (-DMRT_MEGA_TOPK_STOP=N:
# the row returns after pass 0 / the digit search / pass 1 / the list; F1 input -> computed
# in each build's step trace), and the trace of the partitioned placement that run 4 found
# 1.4-1.6 us faster at M=16 KV=8192 (P1), beside the default's.
# Run: timeout 300 bash scripts/device-s20e.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
for n in 1 2 3 4; do build_variant ts$n -DMRT_MEGA_TOPK_STOP=$n megartp & done
build_or_exit build/megartp
wait
echo "builds $((SECONDS - t0)) s"
{
mega_traces 200 build build-ts1 build-ts2 build-ts3 build-ts4
timeout 30 build/megartp trace glm5-prefix --backend mega --split D1=2 \
    --place D1=0-63,E1=0-63,F1=0-15,D0=64-131,D2=64-131 -o "$O/trace-P1.json" > "$O/trace-P1.txt" 2>&1
echo "trace P1 rc=$?"; sed -n "/^  op /,/critical path/p" "$O/trace-P1.txt"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
