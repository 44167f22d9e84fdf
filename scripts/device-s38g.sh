#!/bin/bash
# Session 38 run 7 (2026-12-02): the cost model's refit data at [E]'s 12 shapes with today's
# tuning: a plan --json and a megakernel trace of the default plan at each, then roundrobin
# untuned at M = 64, 128 (scripts/fit_costs.py; with runs 1 and 4's pairs, M = 1..128).
# e3e7d53's megartp (build/megartp, carried; device code 99e3b49's).
# Run: timeout 200 bash scripts/device-s38g.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
{
for opts in "" "--policy roundrobin --no-tune"; do
    tag=$([ -z "$opts" ] && echo default || echo rr)
    for sh in "16 2 8192" "1 1 1024" "1 1 8192" "1 1 65536" "16 2 1024" "16 2 65536" "64 2 1024" "64 2 8192" \
        "64 2 65536" "128 2 1024" "128 2 8192" "128 2 65536"; do
        set -- $sh
        [ "$tag" = rr ] && [ $1 -lt 64 ] && continue
        [ $((SECONDS - t0)) -gt 170 ] && break
        plan_trace build "$tag" "$sh" $opts | grep -E "^trace|critical"
    done
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
