#!/bin/bash
# Session 53 run 3. Run 2 (device-s53a.sh): the GPU check of the loop's barriers
# (-DMRT_MEGA_BARRIER_CHECK) saw no warp apart from thread 0 in any --tiny or --tiny-place case,
# yet racecheck flags the instruction words in CTAs running A0 after A0 (only CTA barriers).
# (a) test_barrier_pattern's new `prologue` kernel: the megakernel loop's pieces one at a time
#     (the event poll with its proxy fence, the sleep, the operand row copy, A0's sums, the
#     ticket and signal, the shared proxy fence), then all, then all under a cooperative launch
#     with 200 KB of dynamic shared memory; racecheck's errors counted by case.
# (b) This compute-sanitizer's racecheck options (its --help), and racecheck on the A0 -> A0
#     and A0 -> F1 plans with any option it has about barriers turned on.
# Build here: make build/tests/gpu/test_barrier_pattern; the binaries of run 2 otherwise:
#   sh scripts/pack-builds.sh build build/tests/gpu/test_mega_prefix_san build/tests/gpu/test_barrier_pattern
# Run: timeout 200 bash scripts/device-s53b.sh   (carry build-pack)
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
unpack_builds
per_case() {
    awk '/^case:/ {c = $0} /^========= Error/ {n[c]++} END {for (k in n) print "  " n[k] " errors after " k}' "$1"
}
{
cat "$O/device.txt"
compute-sanitizer --version | tail -1
gpu_tests 30 "test_barrier_pattern"
sanitize racecheck 90 pattern build/tests/gpu/test_barrier_pattern
per_case "$O/racecheck-pattern.log"
grep -E '^========= Error' -A1 "$O/racecheck-pattern.log" | grep -oE '(Read|Write) access at .*' | sed -E 's/\+0x[0-9a-f]+//' |
    sort | uniq -c | sort -rn | head -16
echo "t=$((SECONDS - t0)) s"
compute-sanitizer --help > "$O/cs-help.txt" 2>&1
grep -iE -- '--racecheck' -A2 "$O/cs-help.txt" | head -40
for opt in $(grep -oE -- '--racecheck-[a-z-]*barrier[a-z-]*' "$O/cs-help.txt" | sort -u); do
    timeout 60 compute-sanitizer --tool racecheck "$opt" yes build/tests/gpu/test_mega_prefix_san --tiny-place "A0=0" "F1=0" \
        > "$O/racecheck$opt.log" 2>&1
    echo "racecheck $opt yes rc=$? $(grep SUMMARY "$O/racecheck$opt.log" | tail -1) $(tail -1 "$O/racecheck$opt.log")"
    per_case "$O/racecheck$opt.log"
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
