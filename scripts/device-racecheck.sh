#!/bin/bash
# compute-sanitizer racecheck and synccheck of a small megakernel step (test_mega_prefix --quick).
. "$(dirname "$0")/device-common.sh"
build_or_exit build/tests/gpu/test_mega_prefix
for tool in racecheck synccheck memcheck; do
    timeout 100 compute-sanitizer --tool $tool build/tests/gpu/test_mega_prefix --quick > "$O/$tool.log" 2>&1
    echo "$tool rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$O/$tool.log" | tail -1)"
    grep -E "^========= Error|FAIL" "$O/$tool.log" | head -12
done
