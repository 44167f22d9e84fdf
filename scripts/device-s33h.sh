#!/bin/bash
# Session 33, run 8: the final tree's GPU checks (the session removed two experiment switches;
# the default megakernel PTX is unchanged from session 32's last checked tree, 48aa31fe):
# test_mega_prefix, test_mega (watchdog, NoOp), `megartp run` digests of serial / cmp / mega,
# the three sanitizers on the reduced step, then the whole bench at the target shape.
# Run: timeout 460 bash scripts/device-s33h.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
{
mega_builds
mega_checks
timeout 60 build/megartp bench glm5-prefix > "$O/bench.md" 2>&1
echo "bench rc=$?"; grep -E "step, |same-bytes" "$O/bench.md" | tr -s ' ' | cut -c1-110
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
