#!/bin/bash
set -u
cd "$(dirname "$0")/.."
O=${OUT:-/tmp/out}; mkdir -p "$O"; export PATH=/usr/local/cuda/bin:$PATH
make -j16 BUILD=build-san EXTRA_NVCCFLAGS=-DMRT_SPIN_LIMIT_CYCLES=2000000000000LL build-san/tests/gpu/test_serial > "$O/build-san.log" 2>&1 || { echo BUILD FAILED; tail -20 "$O/build-san.log"; }
timeout 200 compute-sanitizer --tool racecheck build-san/tests/gpu/test_serial --quick > "$O/racecheck.log" 2>&1
echo "racecheck rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$O/racecheck.log" | tail -2)"; tail -5 "$O/racecheck.log"
timeout 150 compute-sanitizer --tool synccheck build-san/tests/gpu/test_serial --quick > "$O/synccheck.log" 2>&1
echo "synccheck rc=$? $(grep -E 'SUMMARY' "$O/synccheck.log" | tail -1)"
