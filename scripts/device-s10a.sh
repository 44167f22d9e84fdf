#!/bin/bash
# Session 10, run 2 (2026-11-30). 
#  - cmp's cross-stream joins as programmatic graph edges (MRT_CMP_CROSS_PDL, default on)
#    against events (build-xpdl0), A B A B, and both builds' cmp traces; test_serial (all 20
#    shapes) prints the cmp graph's edge census and checks the slow producer (A0 held 200 us,
#    now also read by C0 and B1 over programmatic edges).
#  - Did session 9's prepared finalization changes (run 1: mega 129.9 / 134.8 against 122-128
#    in session 9) cost the megakernel? build-old = this tree with run-old.patch applied
#    (`git diff 324046c 4ed3f26 -- src/ models/ tests/`: the finalization code as session 9's
#    run 7 measured it; an untracked file, not committed), and MRT_MEGA_HELP_NS=10000
#    (help0 lost 34 us in run 1: does helping longer pay?), mega A B C A B C.
#  - memcheck of the GLM-5 serial + cmp step (test_serial --sanitize), then racecheck of the
#    reduced-size model's step (test_serial --tiny: hidden 1024, 4 heads, q_lora 512), which
#    the GLM-5-size step never finished under racecheck.
# Run: timeout 590 bash scripts/device-s10a.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant xpdl0 -DMRT_CMP_CROSS_PDL=0 "megartp build-xpdl0/tests/gpu/test_serial" &
build_variant help10k -DMRT_MEGA_HELP_NS=10000 megartp &
build_variant san -DMRT_SPIN_LIMIT_CYCLES=2000000000000LL tests/gpu/test_serial &
( rm -rf /tmp/old && mkdir -p /tmp/old && tar c --exclude='./build*' . | tar x -C /tmp/old && cd /tmp/old &&
  patch -p1 < run-old.patch > "$O/patch-old.log" && make -j16 BUILD=build build/megartp > "$O/build-old.log" 2>&1 ||
  echo "old build FAILED" ) &
build_or_exit
wait
ln -sfn /tmp/old/build build-old
echo "builds $((SECONDS - t0)) s"
{
gpu_tests 240 test_serial "test_serial --tiny"
grep "cmp graph" "$O/test_serial.log" | sort | uniq -c | head -5
timeout 60 build-xpdl0/tests/gpu/test_serial --quick > "$O/test_serial-xpdl0.log" 2>&1
echo "xpdl0 test_serial --quick rc=$? $(tail -1 "$O/test_serial-xpdl0.log") $(grep 'cmp graph' "$O/test_serial-xpdl0.log")"
echo "t=$((SECONDS - t0)) s"
ab_bench serial,cmp build build-xpdl0
ab_bench mega build build-old build-help10k
for b in build build-xpdl0; do
    timeout 30 $b/megartp trace glm5-prefix --backend cmp -o "$O/trace-cmp-$b.json" > "$O/trace-cmp-$b.txt" 2>&1
    echo "trace cmp $b rc=$?"; sed -n 2,15p "$O/trace-cmp-$b.txt"
done
echo "t=$((SECONDS - t0)) s"
sanitize memcheck 150 step build/tests/gpu/test_serial --sanitize
echo "t=$((SECONDS - t0)) s"
left=$((575 - (SECONDS - t0)))
[ $left -gt 30 ] && sanitize racecheck $left tiny build-san/tests/gpu/test_serial --tiny
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
