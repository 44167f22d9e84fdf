#!/bin/bash
# Session 53 run 2: which instruction sequences racecheck flags, and whether the hardware
# agrees. Run 1 (device-s52b.sh) found the hazards in the TN 16 kernel too, once a CTA runs
# several instructions (16 workers: F1's row, a GEMM tile's staging, the instruction words and
# operand row), and with F1's rows as __syncthreads too (A0 then eight F1 rows on a CTA: the
# instruction words' write and read across the loop's __syncthreads, nothing else).
# (a) The barrier check build (-DMRT_MEGA_BARRIER_CHECK, mega.cu): does any warp pass the
#     loop's barriers apart from thread 0 on the GPU? Printed per mismatch; --tiny and the
#     bisection below.
# (b) racecheck (SAN build) on the reduced model at 16 tokens with every task of one op on
#     worker 0 after its A0 task (--tiny-place X=0), one op at a time; the per-case count.
# (c) The per-hazard report on the two pure cases (A0 -> A0 x31, A0 -> F1 x16).
# (d) tests/gpu/test_barrier_pattern with a GEMM tile's mbarrier handshake added (run 1's
#     reports were all reads by lane 0 of warps 4, 7, 8, 11: the consumer warps' lanes that
#     arrive on a stage's empty barrier), plain and under racecheck.
# Build here (SAN as in device-common.sh):
#   make -j2 build/megartp build/tests/gpu/test_mega_prefix
#   make BUILD=build-san EXTRA_NVCCFLAGS="$SAN" build-san/tests/gpu/test_mega_prefix
#   build-bchk: build/ copied, less mega.o, with EXTRA_NVCCFLAGS=-DMRT_MEGA_BARRIER_CHECK
#   for b in san bchk; do cp build-$b/tests/gpu/test_mega_prefix build/tests/gpu/test_mega_prefix_$b; done
#   sh scripts/pack-builds.sh build build/tests/gpu/test_mega_prefix build/tests/gpu/test_mega_prefix_san \
#       build/tests/gpu/test_mega_prefix_bchk build/tests/gpu/test_barrier_pattern
# Run: timeout 400 bash scripts/device-s53a.sh   (carry build-pack)
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
unpack_builds
PLACES=("A0=0" "F1=0" "A0=1,F1=0" "E1=0" "B0=0" "D1=0" "C0=0" "D2=0" "D0=0")
{
cat "$O/device.txt"
gpu_tests 30 "test_barrier_pattern"
sanitize racecheck 60 pattern build/tests/gpu/test_barrier_pattern
grep -E '^========= Error' -A2 "$O/racecheck-pattern.log" | grep -oE '(Read|Write) access at .*' | sed -E 's/\+0x[0-9a-f]+//' |
    sort | uniq -c | sort -rn | head -12
timeout 60 build/tests/gpu/test_mega_prefix_bchk --tiny > "$O/bchk-tiny.log" 2>&1
echo "bchk --tiny rc=$? $(tail -1 "$O/bchk-tiny.log"); $(grep -c 'barrier check' "$O/bchk-tiny.log") mismatch lines"
grep 'barrier check' "$O/bchk-tiny.log" | head -5
timeout 60 build/tests/gpu/test_mega_prefix_bchk --tiny-place "${PLACES[@]}" > "$O/bchk-place.log" 2>&1
echo "bchk --tiny-place rc=$? $(tail -1 "$O/bchk-place.log"); $(grep -c 'barrier check' "$O/bchk-place.log") mismatch lines"
grep 'barrier check' "$O/bchk-place.log" | head -5
echo "t=$((SECONDS - t0)) s"
timeout 60 build/tests/gpu/test_mega_prefix --tiny-place "${PLACES[@]}" > "$O/place.log" 2>&1
echo "--tiny-place rc=$? $(tail -1 "$O/place.log")"
sanitize racecheck 150 place build/tests/gpu/test_mega_prefix_san --tiny-place "${PLACES[@]}"
per_case "$O/racecheck-place.log"
echo "t=$((SECONDS - t0)) s"
timeout 100 compute-sanitizer --tool racecheck --racecheck-report hazard --print-limit 400 \
    build/tests/gpu/test_mega_prefix_san --tiny-place "A0=0" "F1=0" > "$O/racecheck-hazards.log" 2>&1
echo "hazard report rc=$?"
per_case "$O/racecheck-hazards.log"
# each hazard's accesses as access, warp.lane, line, counted; then lanes alone
grep -E '^=========     (Write|Read) Thread' "$O/racecheck-hazards.log" | sed -E 's/\(([0-9]+),0,0\)/\1/' |
    awk '{print $2, int($4 / 32) "." $4 % 32, $NF}' | sort | uniq -c | sort -rn | head -40
echo "lanes of the reports' accesses:"
grep -E '^=========     (Write|Read) Thread' "$O/racecheck-hazards.log" | sed -E 's/\(([0-9]+),0,0\)/\1/' |
    awk '{print $2, "lane", $4 % 32}' | sort | uniq -c | sort -rn | head -12
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
