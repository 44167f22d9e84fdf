#!/bin/bash
# The next session's first device run (written 2026-11-30, end of session 13; compile-checked,
# the default build's PTX identical to session 13 run 3's for mega.cu and prefix_ops.cu).
# Session 13 ended at mega 95.0-95.8 us roundrobin, 94.3-94.7 critical-path, serial 74.0-74.4,
# cmp 52.3-52.8 (bench/RESULTS.md "Session 13"). Its traces: B0's and D1's group finalizations
# take 8 us each from computed to published, on the critical path twice.
#   ess = -DMRT_EPI_SUM_SMEM: a finalization job keeps its split sums in shared memory and its
#         epilogue reads them there, instead of reading back from global memory what its group
#         just wrote (megakernel and the standalone epilogue kernel; gemm_fp8_epilogues.cuh)
#   qbp = -DMRT_MEGA_QB_PREP: a D0 tile's fused Q_B store gets its rows' fold factors and RoPE
#         rows from shared memory, read by the idle warp 3 during the k-loop (TN <= 32; the
#         store took 4.4 us after the last K block against ~3 for a plain one). By
#         scripts/pool_sim.py the step follows D0's tile length ~1:1 (docs/POOLS.md).
# Then placements and orders, CLI only (--place, --split, --order; session 13 run 3 found
# --split D1=2 with D1, E1 on workers 0-63 and D0, D2 on 64-131 2 us faster than the default).
# test_mega_prefix (both builds) has a new case since session 13: mega = serial bytes under
# --split D1=2 --place D1=0-63,E1=0-63,D0=64-131,D2=64-131 (52 checks in all).
# If ess passes and wins: its compute-sanitizer run is the next one (scripts/device-s13f.sh's
# build flags plus -DMRT_EPI_SUM_SMEM).
# Run: timeout 570 bash scripts/device-next.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant ess -DMRT_EPI_SUM_SMEM "megartp build-ess/tests/gpu/test_mega_prefix build-ess/tests/gpu/test_serial" &
build_variant qbp -DMRT_MEGA_QB_PREP "megartp build-qbp/tests/gpu/test_mega_prefix" &
build_or_exit build/megartp build/tests/gpu/test_mega_prefix
wait
echo "builds $((SECONDS - t0)) s"
{
gpu_tests 120 test_mega_prefix
build_tests 120 test_mega_prefix ess qbp
build_tests 60 "test_serial --quick" ess
echo "t=$((SECONDS - t0)) s"
ab_bench serial,cmp,mega build build-ess build-qbp
cp_bench build build-ess build-qbp
mega_traces 360 build build-ess build-qbp
echo "t=$((SECONDS - t0)) s"
P=("" "--split D1=2 --place D1=0-63,E1=0-63,D0=64-131,D2=64-131"
   "--split D1=2 --place D1=68-131,E1=68-131,D0=0-67,D2=0-67"
   "--split D1=2 --place D1=0-63,E1=0-63,F1=0-15,D0=64-131,D2=64-131"
   "--split D1=2 --place D1=0-63,E1=0-63,D0=64-131"
   "--split D1=2 --place D1=0-65,E1=0-65,D0=66-131,D2=66-131"
   "--order A0,B0,C0,B1,D1,E1,D0,D2,F1 --place F1=116-131,D0=0-115,D2=0-115"
   "--split D1=2 --order A0,B0,C0,B1,D1,E1,D0,D2,F1 --place D1=0-63,E1=0-63,D0=64-131,D2=64-131")
for r in 1 2; do
    for i in "${!P[@]}"; do
        [ $((SECONDS - t0)) -gt 480 ] && break 2
        timeout 60 build/megartp bench glm5-prefix --modes mega ${P[$i]} > "$O/place-$i-$r.md" 2>&1
        echo "place $i round $r rc=$? [${P[$i]}] $(grep -E 'step, mega' "$O/place-$i-$r.md" | tr -s ' ' | cut -c1-90)"
    done
done
echo "t=$((SECONDS - t0)) s"
# The critical-path policy's cost model (schedule.c: a fixed cost per instruction kind, from
# M=16 traces) estimates M=128 KV=8192 at 143.8 us under both policies; measured 285 (rr) and
# 358 (cp), session 13 run 3. Per-op phases at M=64 and 128, for a cost per kind that scales
# with the tile's tokens:
for s in "64 2 8192" "128 2 8192"; do
    set -- $s
    for pol in roundrobin critical-path; do
        [ $((SECONDS - t0)) -gt 555 ] && break 2
        f="$O/trace-m$1-$pol.txt"
        timeout 30 build/megartp trace glm5-prefix --m $1 --batch $2 --kv $3 --backend mega --policy $pol > "$f" 2>&1
        echo "trace M=$1 KV=$3 $pol rc=$?"; sed -n "/^  op /,/critical path/p" "$f"
    done
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
