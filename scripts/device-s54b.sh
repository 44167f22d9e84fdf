#!/bin/bash
# Session 54 run 2: test_barrier_pattern (prologue with P_GROUPS32 / P_GROUPS128: a finalization's
# groups, each a different number of job rounds) alone under racecheck. Build: make
# build/tests/gpu/test_barrier_pattern; pack it alone (pack-builds.sh); carry build-pack.
# Run: timeout 150 bash scripts/device-s54b.sh
. "$(dirname "$0")/device-common.sh"
unpack_builds
{
cat "$O/device.txt"
gpu_tests 30 "test_barrier_pattern"
sanitize racecheck 60 pattern build/tests/gpu/test_barrier_pattern
per_case "$O/racecheck-pattern.log"
grep -E "^case|^========= Error|^=========     and" "$O/racecheck-pattern.log" | sed -E 's/\+0x[0-9a-f]+//' | cut -c1-200 | grep -v "^case: aliased" | head -40
} 2>&1 | tee "$O/summary.txt"
