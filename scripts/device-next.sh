#!/bin/bash
# Ran once (session 7, 19:38 UTC, eb7d13e); -DMRT_GEMM_LATE_TRIGGER is gone since (measured slower).
# The next session's first device run (written 2026-11-29, end of session 6). Nothing is
# waiting for verification: HEAD's src and tests ran on the H200 in session 6 (fc8920e = the
# final code; bench/RESULTS.md). Open question first: racecheck of the serial + cmp step ended
# in "unspecified launch failure" (session 6, run g, default watchdog bound); this re-runs it
# with the bound raised 100x (build-san), one kernel family at a time, after the baseline step
# and cmp with the GEMMs' PDL trigger moved after their main loop (-DMRT_GEMM_LATE_TRIGGER,
# compile-checked) against the default, A B A B.
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant san -DMRT_SPIN_LIMIT_CYCLES=2000000000000LL tests/gpu/test_serial &
build_variant late -DMRT_GEMM_LATE_TRIGGER megartp &
build_or_exit
wait
make -j16 BUILD=build-late EXTRA_NVCCFLAGS=-DMRT_GEMM_LATE_TRIGGER build-late/tests/gpu/test_serial \
    > "$O/build-late-test.log" 2>&1 || echo "late test build FAILED"
echo "builds $((SECONDS - t0)) s"
{
timeout 60 build/megartp bench glm5-prefix --modes serial,cmp,mega > "$O/bench.md" 2>&1; echo "bench rc=$?"
grep -E "^\| " "$O/bench.md"
# the GEMMs' PDL trigger after the main loop instead of at the weight loads (-DMRT_GEMM_LATE_TRIGGER):
# cmp A B A B, then its trace (does C0 start right after A0?); test_serial --quick checks its bytes
timeout 120 build-late/tests/gpu/test_serial --quick > "$O/late-test_serial.log" 2>&1
echo "late test_serial --quick rc=$? $(tail -1 "$O/late-test_serial.log")"
ab_bench cmp build build-late
timeout 60 build-late/megartp trace glm5-prefix --backend cmp -o "$O/trace-cmp-late.json" > "$O/trace-cmp-late.txt" 2>&1
sed -n '2,$p' "$O/trace-cmp-late.txt" | grep -v "^wrote"
for k in gemm epi_kernel a0_kernel index_logits topk; do
    [ $((SECONDS - t0)) -gt 480 ] && break
    sanitize racecheck 70 $k --kernel-name kns=$k build-san/tests/gpu/test_serial --sanitize
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
