#!/bin/bash
# Prepared in sessions 54-55 (not run: no device was lent). What racecheck's remaining
# megakernel reports share (session 54 run 1): a CTA that ran a grouped fp8 GEMM tile and its
# finalization (groups of 32-128 threads on named barriers 2-13, each claiming jobs until none
# is left, so each group passes its barrier a different number of times) and then more
# instructions.
# (a) test_barrier_pattern under racecheck: prologue's P_GROUPS32 / P_GROUPS128 (unequal job
#     rounds), with F1's scan after them (P_ROWBAR) and with the groups padded to equal rounds
#     (P_EVEN); errors by case.
# (b) racecheck of the megakernel (SAN) on B0's tiles with and without their split-K groups
#     (`--tiny-place PLACE/SPLIT`: B0=1 makes B0's tiles lone, each finalizing itself in 3
#     groups of 128), and F1 after a B0 tile likewise; errors by case, then the hazard report
#     of B0=0/B0=1.
# (c) the same plans and --tiny with -DMRT_MEGA_FIN_EVEN_BARS (every finalization's groups
#     padded to equal barrier passes, mega.cu): whether the reports follow the unequal counts;
#     --tiny without it in the same run, then memcheck and synccheck of --tiny (must-show 3;
#     last run in session 53, before the kernel stopped at its queue lengths).
# (d) main's step at the target shape (serial, cmp, mega) and [E]'s shapes under mega until
#     the script has run 500 s (build/megartp, packed from `build`).
# Build here (SAN as in device-common.sh):
#   make -j2 build/tests/gpu/test_barrier_pattern
#   make -j2 BUILD=build-san EXTRA_NVCCFLAGS="$SAN" build-san/tests/gpu/test_mega_prefix
#   make -j2 BUILD=build-saneven EXTRA_NVCCFLAGS="$SAN -DMRT_MEGA_FIN_EVEN_BARS" build-saneven/tests/gpu/test_mega_prefix
#   cp build-san/tests/gpu/test_mega_prefix build/tests/gpu/test_mega_prefix_san
#   cp build-saneven/tests/gpu/test_mega_prefix build/tests/gpu/test_mega_prefix_saneven
#   make -j2 build/megartp
#   sh scripts/pack-builds.sh build build/tests/gpu/test_barrier_pattern build/tests/gpu/test_mega_prefix_san \
#       build/tests/gpu/test_mega_prefix_saneven
# Run: timeout 560 bash scripts/device-s56a.sh   (carry build-pack)
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
unpack_builds
{
cat "$O/device.txt"
gpu_tests 30 "test_barrier_pattern"
sanitize racecheck 60 pattern build/tests/gpu/test_barrier_pattern
per_case "$O/racecheck-pattern.log"
sanitize racecheck 90 place build/tests/gpu/test_mega_prefix_san --tiny-place "B0=0" "B0=0/B0=1" "A0=1,F1=0" "A0=1,F1=0/B0=1"
per_case "$O/racecheck-place.log"
echo "t=$((SECONDS - t0)) s"
timeout 60 compute-sanitizer --tool racecheck --racecheck-report hazard --print-limit 400 \
    build/tests/gpu/test_mega_prefix_san --tiny-place "B0=0/B0=1" > "$O/racecheck-hazards.log" 2>&1
echo "hazard report rc=$?"
grep -E '^=========     (Write|Read) Thread' "$O/racecheck-hazards.log" | sed -E 's/\(([0-9]+),0,0\)/\1/' |
    awk '{print $2, int($4 / 32) "." $4 % 32, $NF}' | sort | uniq -c | sort -rn | head -30
echo "t=$((SECONDS - t0)) s"
sanitize racecheck 90 place-even build/tests/gpu/test_mega_prefix_saneven --tiny-place "B0=0" "B0=0/B0=1" "A0=1,F1=0" "A0=1,F1=0/B0=1"
per_case "$O/racecheck-place-even.log"
echo "t=$((SECONDS - t0)) s"
sanitize racecheck 120 tiny-even build/tests/gpu/test_mega_prefix_saneven --tiny
per_case "$O/racecheck-tiny-even.log"
sanitize racecheck 120 tiny build/tests/gpu/test_mega_prefix_san --tiny
per_case "$O/racecheck-tiny.log"
echo "t=$((SECONDS - t0)) s"
# memcheck and synccheck on the kernel that stops at its queue lengths (last run in session 53)
sanitize memcheck 150 tiny build/tests/gpu/test_mega_prefix_san --tiny
sanitize synccheck 150 tiny build/tests/gpu/test_mega_prefix_san --tiny
echo "t=$((SECONDS - t0)) s"
# (d) main's step figures on this device (the last H200 ones are session 51's): the target
# shape under serial, cmp and mega, then [E]'s shapes under mega while time is left
step_shapes "serial,cmp,mega" build "16 2 8192"
sweep_until 500 build main
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
