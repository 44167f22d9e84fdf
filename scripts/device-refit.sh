#!/bin/bash
# The cost model's refit (written 2026-11-30, end of session 23): E1's megakernel tile got
# faster at M >= 64 (8 resident groups, d11bb1c) after schedule.c's terms were fitted, so
# tuning's choices there rest on stale costs. This traces the 12 shapes of [E]'s sweep under
# roundrobin and critical-path (untuned) and the default plan, each beside its `plan --json`
# from the same binary; then, on the CPU:
#   python3 scripts/fit_costs.py $(for f in plan-*.json; do echo $f trace-${f#plan-}; done)
# prints schedule.c's coefficients and the spans the refitted model gives each plan. A refit
# changes what auto and tuning choose: measure the 12 shapes again before taking it.
# Run: timeout 420 bash scripts/device-refit.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_or_exit build/megartp
{
echo "builds $((SECONDS - t0)) s"
refit_traces 380
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
