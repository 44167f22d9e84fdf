#!/bin/bash
# Session 26 run 3: F1's two changes alone (pass 0's loads in flight together, the staged
# emit; E1's lookahead reverted), the tree 364b863, against old.tar = 4a7ffe1: GPU tests
# (test_mega_prefix: mega = serial bytes; test_serial's digests against run 1's, brought as
# digests-s26a.txt), `megartp run` on the three executors; old / new at the target shape
# three times and at [E]'s other 11 shapes; F1's row by phase on the new code
# (-DMRT_MEGA_TOPK_STOP=1..4: the row returns after pass 0, the digit search, pass 1, the
# list; the trace's F1 input -> computed of each); serial / cmp / mega with the read; the
# sanitizers on the reduced step if time is left. Run: timeout 560 bash scripts/device-s26c.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_old 6 build/megartp &
for n in 1 2 3 4; do build_variant stop$n -DMRT_MEGA_TOPK_STOP=$n megartp & done
build_variant san "$SAN" tests/gpu/test_mega_prefix &
build_or_exit build/megartp build/tests/gpu/test_mega_prefix build/tests/gpu/test_serial
wait
{
echo "builds $((SECONDS - t0)) s"
gpu_tests 150 "test_mega_prefix" "test_serial"
same_bytes digests-s26a.txt
echo "t=$((SECONDS - t0)) s"
for r in 1 2 3; do
    mega_at /tmp/old/build old-$r "16 2 8192"
    mega_at build new-$r "16 2 8192"
done
mega_trace build new-16-8192 | grep -E "^  [A-F][0-9] |critical"
for n in 1 2 3 4; do mega_trace build-stop$n stop$n-16-8192 | grep -E "^  F1 "; done
echo "t=$((SECONDS - t0)) s"
for sh in "${E_SHAPES[@]}"; do
    [ "$sh" = "16 2 8192" ] && continue
    mega_at /tmp/old/build old "$sh"
    mega_at build new "$sh"
done
echo "t=$((SECONDS - t0)) s"
step_shapes serial,cmp,mega build "16 2 8192"
[ $((SECONDS - t0)) -lt 440 ] && mega_tiny_sanitize 100 build-san s26c
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
