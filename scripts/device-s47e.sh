#!/bin/bash
# Session 47 run 5: compute-sanitizer on test_mega_prefix --tiny (SAN build) with its new case
# of 8 tokens a request (reduced model, M=16 batch 2 KV=300: E1's 4 units a pass, so the third
# warpgroup multiplies; run 4's cases had 1 group, 2 units).
# Run: sh scripts/pack-builds.sh build-san/tests/gpu/test_mega_prefix; timeout 300 bash scripts/device-s47e.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
unpack_builds
{
cat "$O/device.txt"
tiny_sanitize 110 build/tests/gpu/test_mega_prefix san
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
