#!/bin/bash
# Session 25 run 1 (device-next.sh as session 24 left it, and the cold-code probe).
# The three questions docs/MEGAKERNEL.md session 24
# leaves, each a trace:
# 1. Where critical-path with D1 in 2 splits loses at M=64 KV=65536 (the refitted model's
#    pick, estimated 198.8 us, measured 233.9 against roundrobin untuned's 218.5): the
#    default plan, roundrobin untuned and critical-path untuned traced there (per-op done
#    times and the critical path), and each plan's JSON for scripts/fit_costs.py.
# 2. D1's finalization by phase where 2 splits cost most (a D1 task 53 us at M=128 KV=8192
#    against 33 in 4 splits): -DMRT_MEGA_FIN_PROBE (a member's finalization split into the
#    ticket and the wait for its group, the claim and one job, the rest), the default plan
#    and --split D1=4 at M = 64 and 128.
# 3. The same at the target shape, M=16 KV=8192 (D1's finalization 8.2 us on the chain).
# 4. (session 25) scripts/icache_probe.cu: what cold code costs an SM.
# Run: timeout 450 bash scripts/device-s25a.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant fprobe -DMRT_MEGA_FIN_PROBE megartp &
nvcc -arch=sm_90a -O3 -o "$O/icache_probe" scripts/icache_probe.cu > "$O/icache-build.log" 2>&1 &
build_or_exit build/megartp
wait
{
echo "builds $((SECONDS - t0)) s"
for opts in "" "--policy roundrobin --no-tune" "--policy critical-path --no-tune"; do
    tag=$(echo "${opts:-default}" | tr -d ' -' | sed 's/policy//')
    build/megartp plan glm5-prefix --m 64 --batch 2 --kv 65536 $opts --json > "$O/plan-$tag-64-65536.json"
    mega_trace build "$tag-64-65536" --m 64 --batch 2 --kv 65536 $opts | grep -E "^  [A-F][0-9] |critical"
done
for sh in "16 2 8192" "64 2 8192" "128 2 8192"; do
    set -- $sh
    for sp in "" "--split D1=4"; do
        l="fprobe-$1-$3$(echo "$sp" | tr -d ' -')"
        timeout 30 build-fprobe/megartp trace glm5-prefix --backend mega --m $1 --batch $2 --kv $3 $sp \
            -o "$O/trace-$l.json" > "$O/trace-$l.txt" 2>&1
        echo "$l rc=$? $(grep -o 'span [0-9.]* us' "$O/trace-$l.txt")"
        python3 scripts/trace_phases.py "$O/trace-$l.json" "compute done" "weights issued" visible published |
            grep -E "tasks|^B0|^D1"
    done
done
timeout 60 "$O/icache_probe" > "$O/icache.txt" 2>&1; echo "icache_probe rc=$?"; cat "$O/icache.txt"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
