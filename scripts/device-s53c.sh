#!/bin/bash
# Prepared in session 53 for branch s53-queue-len, run in session 54 (run 1, an H100; with
# test_barrier_pattern's `aliased` and P_LANE0 cases, and build-conv / test_mega_prefix_sanconv:
# session 54's -DMRT_MEGA_TILE_CONVERGE=1, a diagnostic since removed, docs/MEGAKERNEL.md
# "Session 54"). Session 53's run 2 (device-s53a.sh) found
# racecheck's A0=0 reports in the CTAs that run one task and then 32 NoOp pads: a WAR on the
# instruction words from a NoOp's read to the next slot's write. Now the kernel stops at each
# worker's queue length (mega.cu mega_queue_len): pads are not visited.
# (a) test_barrier_pattern (prologue: the loop's pieces one at a time, NoOp slots among them)
#     under racecheck, errors by case.
# (b) racecheck of the new kernel (SAN) on --tiny and the 9 --tiny-place plans, by case.
# (c) The new kernel's tests: test_mega (NoOp plan cost, the watchdog's broken plan) and the
#     full test_mega_prefix (mega = serial bytes at every shape, 1000 replays).
# (d) The step, old (build-old: the kernel visiting pads) against new (build), two shapes.
# Build here (SAN as in device-common.sh): cp build/megartp build-old/megartp (before the
# change); make -j2 build/megartp build/tests/gpu/test_mega_prefix build/tests/gpu/test_mega
# build/tests/gpu/test_barrier_pattern; make -j2 BUILD=build-san EXTRA_NVCCFLAGS="$SAN"
# build-san/tests/gpu/test_mega_prefix, copied to build/tests/gpu/test_mega_prefix_san;
#   sh scripts/pack-builds.sh build build-old build/tests/gpu/test_mega_prefix build/tests/gpu/test_mega_prefix_san \
#       build/tests/gpu/test_mega build/tests/gpu/test_barrier_pattern
#   (session 54 also: build-conv/megartp and build/tests/gpu/test_mega_prefix_sanconv)
# Run: timeout 560 bash scripts/device-s53c.sh   (carry build-pack)
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
unpack_builds
{
cat "$O/device.txt"
gpu_tests 30 "test_barrier_pattern"
gpu_tests 30 "test_mega"
grep -h "NoOp" "$O/test_mega.log" | tail -2
gpu_tests 150 "test_mega_prefix"
for round in 1 2; do
    ab_shapes "build-old build build-conv" "16 2 8192" "128 2 1024"
done
echo "t=$((SECONDS - t0)) s"
sanitize racecheck 40 pattern build/tests/gpu/test_barrier_pattern
per_case "$O/racecheck-pattern.log"
sanitize racecheck 60 tiny build/tests/gpu/test_mega_prefix_san --tiny
per_case "$O/racecheck-tiny.log"
sanitize racecheck 60 place build/tests/gpu/test_mega_prefix_san --tiny-place "A0=0" "F1=0" "A0=1,F1=0" "E1=0" "B0=0" "D1=0" "C0=0" "D2=0" "D0=0"
per_case "$O/racecheck-place.log"
grep -E '^========= Error' -A1 "$O/racecheck-place.log" "$O/racecheck-tiny.log" | grep -oE '(Read|Write) access at .*' |
    sed -E 's/\+0x[0-9a-f]+//; s/\[[0-9]+ hazards\]//' | cut -c1-140 | sort | uniq -c | sort -rn | head -12
echo "t=$((SECONDS - t0)) s"
# (b'') the same with the GEMM tile's warps converged before its closing CTA barrier
# (-DMRT_MEGA_TILE_CONVERGE=1: warp 0's every lane waits for the tile, __syncwarp)
if [ -x build/tests/gpu/test_mega_prefix_sanconv ]; then
    sanitize racecheck 60 conv-tiny build/tests/gpu/test_mega_prefix_sanconv --tiny
    per_case "$O/racecheck-conv-tiny.log"
    sanitize racecheck 60 conv-place build/tests/gpu/test_mega_prefix_sanconv --tiny-place "A0=0" "A0=1,F1=0" "B0=0" "D1=0"
    per_case "$O/racecheck-conv-place.log"
fi
# (b') what stays after the pads: the hazards' accesses (R/W, warp.lane, line) of F1 after a
# GEMM tile on its CTA (A0=1,F1=0: B0's tiles then F1 on worker 0) and of --tiny's cases
timeout 100 compute-sanitizer --tool racecheck --racecheck-report hazard --print-limit 400 \
    build/tests/gpu/test_mega_prefix_san --tiny-place "A0=1,F1=0" > "$O/racecheck-hazards.log" 2>&1
echo "hazard report rc=$?"
per_case "$O/racecheck-hazards.log"
grep -E '^=========     (Write|Read) Thread' "$O/racecheck-hazards.log" | sed -E 's/\(([0-9]+),0,0\)/\1/' |
    awk '{print $2, int($4 / 32) "." $4 % 32, $NF}' | sort | uniq -c | sort -rn | head -30
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
