#!/bin/bash
# Session 10, run 3 (2026-11-30). After run 2: session 9's prepared finalization changes
# reverted (they cost the megakernel 19 us and serial 0.7: run 2, build-old), cmp's cross-stream
# joins back to events by default, the A0 cluster kernel waits on the cluster barrier before
# its distributed-shared-memory writes (racecheck's finding in run 2).
#  - tests: test_serial (20 shapes), test_serial --tiny, test_mega_prefix
#  - A B C A B C of cmp: events (default) against -DMRT_CMP_CROSS_PDL=1 (every cross-stream
#    join programmatic) and =2 (only joins into an op that already follows a producer)
#  - racecheck of the reduced-size step, one kernel family at a time (--kernel-name), A0 first
# Run: timeout 590 bash scripts/device-s10b.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant xpdl1 -DMRT_CMP_CROSS_PDL=1 megartp &
build_variant xpdl2 -DMRT_CMP_CROSS_PDL=2 "megartp build-xpdl2/tests/gpu/test_serial" &
build_variant san -DMRT_SPIN_LIMIT_CYCLES=2000000000000LL tests/gpu/test_serial &
build_or_exit
wait
echo "builds $((SECONDS - t0)) s"
{
gpu_tests 240 test_serial "test_serial --tiny" test_mega_prefix
grep "cmp graph" "$O/test_serial.log" | sort | uniq -c | head -3
timeout 60 build-xpdl2/tests/gpu/test_serial --quick > "$O/test_serial-xpdl2.log" 2>&1
echo "xpdl2 test_serial --quick rc=$? $(tail -1 "$O/test_serial-xpdl2.log") $(grep 'cmp graph' "$O/test_serial-xpdl2.log")"
echo "t=$((SECONDS - t0)) s"
ab_bench serial,cmp,mega build build-xpdl1 build-xpdl2
timeout 30 build-xpdl2/megartp trace glm5-prefix --backend cmp -o "$O/trace-cmp-xpdl2.json" > "$O/trace-cmp-xpdl2.txt" 2>&1
echo "trace cmp xpdl2 rc=$?"; sed -n 2,15p "$O/trace-cmp-xpdl2.txt"
echo "t=$((SECONDS - t0)) s"
for k in mrt_a0 epi_kernel topk index_logits gemm; do
    left=$((560 - (SECONDS - t0)))
    [ $left -lt 40 ] && break
    lim=$((left < 150 ? left : 150))
    sanitize racecheck $lim $k --kernel-name kns=$k build-san/tests/gpu/test_serial --tiny
    grep -E "^=========     at " "$O/racecheck-$k.log" | sed 's/+0x[0-9a-f]*//' | sort | uniq -c | head -5
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
