#!/bin/bash
# Session 18 run 2 (2026-11-30). Run 1 (scripts/device-next.sh) measured the opaque words
# offset at TN <= 64 faster at every shape (M=16 KV=8192 82.85 against 86.60 us), now the
# default; scales-late mixed (M=16 -1.7, M=128 +2.8, serial +0.5, cmp +0.9). Here, on the new
# default: scales late at TN <= 64 only (sl, -DMRT_GEMM_SCALES_LATE=64) and the first GEMM
# tiles' weights held 4 us instead of 2 (fw4, -DMRT_MEGA_FIRST_WEIGHTS_NS=4000: A0's rows, on
# the critical path first, take 6.2 us input -> computed against ~5 alone), A B C at the
# shapes that moved, then [E]'s evidence on the default: test_mega_prefix, test_mega (NoOp
# cost, the watchdog), the sanitizers on the reduced-size step, serial / cmp / mega,
# critical-path, traces.
# Run: timeout 570 bash scripts/device-s18b.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant sl -DMRT_GEMM_SCALES_LATE=64 "megartp build-sl/tests/gpu/test_mega_prefix" &
build_variant fw4 -DMRT_MEGA_FIRST_WEIGHTS_NS=4000 megartp &
mega_builds
{
ab_shapes "build build-sl build-fw4" "16 2 8192" "1 1 1024" "16 2 65536" "64 2 8192" "16 2 8192"
gpu_tests 150 test_mega_prefix
build_tests 150 test_mega_prefix sl
gpu_tests 60 test_mega
grep NoOp "$O/test_mega.log" | tail -1
mega_tiny_sanitize 60 build-san new
for s in "16 2 8192" "128 2 8192"; do
    set -- $s
    timeout 40 build/megartp bench glm5-prefix --m $1 --batch $2 --kv $3 --modes serial,cmp,mega > "$O/bench-$1-$3.md" 2>&1
    echo "M=$1 KV=$3 rc=$? $(grep -E 'step, |same-bytes' "$O/bench-$1-$3.md" | tr -s ' ' | cut -c1-90 | tr '\n' ' ')"
done
cp_bench build build-sl build-fw4
mega_traces 540 build build-fw4 build-sl
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
