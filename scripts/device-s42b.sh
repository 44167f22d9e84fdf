#!/bin/bash
# Session 42 run 2 (2026-12-02; prepared in session 41), before device-s42c.sh in one command: the cost model refitted to
# session 41 run 1's 33 plan + trace pairs (-DMRT_COST_FIT41, schedule.c; host code only)
# against the table, the 12 shapes from each build in turn and traces at the target shape.
# (The table was removed from schedule.c after this run: not taken, docs/MEGAKERNEL.md session 42.)
# Offline (`megartp plan`, session 41): no auto or tuning pick moves at 15 shapes; critical-
# path's queues move at 9 of them (the target shape: a few D2 tiles between the B0 workers).
# Nothing is built here. Before the run, on the development machine:
#   cp -a build build-cost41 && find build-cost41 -name '*.o' -exec touch {} + &&
#   rm build-cost41/src/core/schedule.o &&
#   make BUILD=build-cost41 EXTRA_CFLAGS=-DMRT_COST_FIT41 build-cost41/megartp &&
#   sh scripts/pack-builds.sh build build-cost41        (then carry build-pack)
# Run (run 2, then device-s42c.sh): (OUT= timeout 250 bash scripts/device-s42b.sh); tar czf $OUT/logs3.tgz -C /tmp/megartp-logs .
. "$(dirname "$0")/device-common.sh"
unpack_builds
t0=$SECONDS
{
mega_sweep build table
mega_sweep build-cost41 fit41
for s in "16 2 8192" "128 2 1024" "16 2 1024"; do ab_shapes "build build-cost41" "$s"; done
ab_traces "build build-cost41" "16 2 8192"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
