#!/bin/bash
# The next session's first device run (written 2026-11-29, end of session 6). Nothing is
# waiting for verification: HEAD's src and tests ran on the H200 in session 6 (fc8920e = the
# final code; bench/RESULTS.md). Open question first: racecheck of the serial + cmp step ended
# in "unspecified launch failure" (session 6, run g, default watchdog bound); this re-runs it
# with the bound raised 100x (build-san), one kernel family at a time, then the baseline step.
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant san -DMRT_SPIN_LIMIT_CYCLES=2000000000000LL tests/gpu/test_serial &
build_or_exit
wait
echo "builds $((SECONDS - t0)) s"
{
for k in gemm epi_kernel a0_kernel index_logits topk; do
    [ $((SECONDS - t0)) -gt 420 ] && break
    sanitize racecheck 80 $k --kernel-name kns=$k build-san/tests/gpu/test_serial --sanitize
done
timeout 60 build/megartp bench glm5-prefix --modes serial,cmp,mega > "$O/bench.md" 2>&1; echo "bench rc=$?"
grep -E "^\| " "$O/bench.md"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
