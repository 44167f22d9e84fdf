#!/bin/bash
# Session 46 run 7: the 24-bit-prefix row with its output as bitmaps (one classification pass,
# then the bitmap row's emit; the bitmaps in the histogram's words, the staging in the
# prefixes'), the final tree's checks: test_index_ops --quick (variant 14 exactly against the
# reference up to kv = 65536), test_mega_prefix, test_mega, `run` digests serial = mega,
# compute-sanitizer (memcheck / racecheck / synccheck) on test_index_ops --tiny (the row's
# code as a kernel) and on the SAN build of test_mega_prefix --tiny; A B against 8e7659f; a
# trace at M=128 KV=65536; [E]'s sweep.
# Run: make -j2 BUILD=build-san EXTRA_NVCCFLAGS="$SAN" build-san/tests/gpu/test_mega_prefix;
#      cp build-san/tests/gpu/test_mega_prefix /tmp/san/test_mega_prefix_san;
#      sh scripts/pack-builds.sh build build-old build/tests/gpu/test_index_ops build/tests/gpu/test_mega_prefix
#      build/tests/gpu/test_mega /tmp/san/test_mega_prefix_san; timeout 560 bash scripts/device-s46g.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
unpack_builds
{
gpu_tests 120 "test_index_ops --quick"
mega_tests 200
run_digests "16 2 8192" "64 2 1024"
tiny_sanitize 100 build/tests/gpu/test_index_ops idx
tiny_sanitize 80 build/tests/gpu/test_mega_prefix_san final
echo "t=$((SECONDS - t0)) s"
mega_trace build m128 --m 128 --batch 2 --kv 65536 | grep -E "^  (E1|F1) |critical"
mega_ab "128 2 65536" "16 2 8192" "128 2 65536"
mega_at build new-f1s2 "128 2 65536" --split F1=2
echo "t=$((SECONDS - t0)) s"
sweep_until 520 build new
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
