#!/bin/bash
# Session 23 run 5 (2026-11-30): the kernel's timing knobs on the tuned default plan, whose
# step is now the chain A0 -> B0 -> D1 -> E1 -> F1: the first GEMM tiles' weights held
# 0 / 4 / 6 us instead of 2 (A0's rows meet a quieter memory system), and how long a reduce
# group's earlier members wait to help its finalization (5 / 20 us instead of 10; D1's groups
# have 2 members now). Interleaved A B with the default build.
# Run: timeout 560 bash scripts/device-s23f.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant fw0 "-DMRT_MEGA_FIRST_WEIGHTS_NS=0" megartp &
build_variant fw4 "-DMRT_MEGA_FIRST_WEIGHTS_NS=4000" megartp &
build_variant fw6 "-DMRT_MEGA_FIRST_WEIGHTS_NS=6000" megartp &
build_variant h5 "-DMRT_MEGA_HELP_NS=5000" megartp &
build_variant h20 "-DMRT_MEGA_HELP_NS=20000" megartp &
build_or_exit build/megartp
wait
{
echo "builds $((SECONDS - t0)) s"
ab_shapes "build build-fw0 build-fw4 build-fw6 build-h5 build-h20 build" "16 2 8192" "1 1 8192" "64 2 8192" "16 2 1024"
ab_shapes "build build-fw4 build-fw6" "16 2 8192"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
