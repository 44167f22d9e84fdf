#!/bin/bash
# Prepared in session 45, not run (the device time ran out): [E]'s sanitizers on the reduced
# step with D0's q_pe straight into the query (39df8bf; compute-sanitizer last ran on the code
# before it, session 44 run 3), a sanitizer build of test_mega_prefix (device-common.sh SAN
# flags) carried as test_mega_prefix_san; then [E]'s 12-shape sweep of build/ (mega, the
# default plans) while the device time lasts.
# Run: make -j2 BUILD=build-san EXTRA_NVCCFLAGS="$SAN" build-san/tests/gpu/test_mega_prefix
#      (SAN: device-common.sh); mkdir -p /tmp/san; cp build-san/tests/gpu/test_mega_prefix
#      /tmp/san/test_mega_prefix_san; sh scripts/pack-builds.sh build /tmp/san/test_mega_prefix_san;
#      timeout 380 bash scripts/device-next.sh   (carry build-pack)
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
unpack_builds
{
tiny_sanitize 80 build/tests/gpu/test_mega_prefix_san final
echo "t=$((SECONDS - t0)) s"
sweep_until 330 build new
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
