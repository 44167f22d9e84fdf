#!/bin/bash
# Prepared in session 52 (run 2; no device was lent after run 1): the racecheck hazards of run
# 1, which are not barrier 1's shared id. (a) The SAN build with the two --tiny cases of 16
# tokens added in session 52, where a CTA runs several instructions (16 workers; F1's rows on 2
# workers): every earlier clean case ran one instruction a CTA (queues of length 1), so is any
# CTA's second instruction the trigger, in the TN 16 kernel too? The new cases' bytes are
# unchecked on a GPU until this runs (the CPU executor runs both plans within tolerance). (b)
# The same with racecheck's per-hazard report (threads, addresses), the first hazards only.
# (c) F1's row barrier as __syncthreads (-DMRT_TOPK_BAR=0). (d) That build's step against
# build/ (A B, two rounds) and its bytes (digests against serial), in case (c) is clean, with
# memcheck and synccheck on its SAN build and its full test_mega_prefix. (e) E1 without its
# release mbarriers (-DMRT_MEGA_ILW_RELEASE=0: a CTA barrier a pass), which only the 64- and
# 128-token cases use (32 or more tokens a request): racecheck does not follow an order made
# by mbarriers.
# Build here: SAN as in device-common.sh;
#   make -j2 build/megartp build/tests/gpu/test_mega_prefix
#   make -j2 BUILD=build-san EXTRA_NVCCFLAGS="$SAN" build-san/tests/gpu/test_mega_prefix
#   make -j2 BUILD=build-san0 EXTRA_NVCCFLAGS="$SAN -DMRT_TOPK_BAR=0" build-san0/tests/gpu/test_mega_prefix
#   make -j2 BUILD=build-sannorel EXTRA_NVCCFLAGS="$SAN -DMRT_MEGA_ILW_RELEASE=0" build-sannorel/tests/gpu/test_mega_prefix
#   make -j2 BUILD=build-b0 EXTRA_NVCCFLAGS=-DMRT_TOPK_BAR=0 build-b0/megartp build-b0/tests/gpu/test_mega_prefix
#   for b in san san0 sannorel b0; do cp build-$b/tests/gpu/test_mega_prefix build/tests/gpu/test_mega_prefix_$b; done
#   sh scripts/pack-builds.sh build build-b0 build/tests/gpu/test_mega_prefix build/tests/gpu/test_mega_prefix_san \
#       build/tests/gpu/test_mega_prefix_san0 build/tests/gpu/test_mega_prefix_sannorel build/tests/gpu/test_mega_prefix_b0
# The --tiny cases change the test, so build/ and the SAN builds above are from the tree that
# has them (the binaries packed in session 52 came before the 16-worker case: rebuild).
# Session 53: test_mega_prefix names each case before it runs, so every racecheck log's
# errors are counted by case (per_case).
# Run: timeout 560 bash scripts/device-s52b.sh   (carry build-pack)
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
unpack_builds
{
cat "$O/device.txt"
sanitize racecheck 120 san0 build/tests/gpu/test_mega_prefix_san0 --tiny
sanitize racecheck 120 san build/tests/gpu/test_mega_prefix_san --tiny
sanitize racecheck 120 sannorel build/tests/gpu/test_mega_prefix_sannorel --tiny
timeout 120 compute-sanitizer --tool racecheck --racecheck-report hazard --print-limit 60 \
    build/tests/gpu/test_mega_prefix_san --tiny > "$O/racecheck-hazards.log" 2>&1
echo "hazard report rc=$? $(grep -c 'Error' "$O/racecheck-hazards.log") lines with Error"
for l in racecheck-san0 racecheck-san racecheck-sannorel racecheck-hazards; do echo "$l:"; per_case "$O/$l.log"; done
echo "t=$((SECONDS - t0)) s"
gpu_tests 60 "test_mega_prefix --tiny"
sanitize memcheck 100 san0 build/tests/gpu/test_mega_prefix_san0 --tiny
sanitize synccheck 100 san0 build/tests/gpu/test_mega_prefix_san0 --tiny
echo "t=$((SECONDS - t0)) s"
DIGEST_RUNS="build:serial build-b0:mega" run_digests "16 2 8192" "128 2 1024" "64 2 8192"
for round in 1 2; do
    [ $((SECONDS - t0)) -lt 240 ] && ab_shapes "build build-b0" "16 2 8192" "64 2 8192" "128 2 8192" "128 2 65536"
done
echo "t=$((SECONDS - t0)) s"
[ $((SECONDS - t0)) -lt 260 ] && gpu_tests 200 "test_mega_prefix_b0"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
