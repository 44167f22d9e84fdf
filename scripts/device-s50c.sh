#!/bin/bash
# Session 50 run 3: E1's head weights by ld.shared.v2 (build-lds/: the tile's 16 generic loads
# a unit now mrt_lds_f32x2) against the tree before (build/): the probe's --wv again (EPI 4's
# layout padded: run 2's had a 4-way bank conflict) with Nsight Compute's shared-memory and
# pipe figures (--kernel-name-base mangled: run 2's regex met the demangled "probe"); A B of
# the step (mega) in two rounds at four shapes, serial's E1 at two; digests (the logits'
# bytes must not change: the same loads, the same math); test_index_ops and test_mega_prefix
# of build-lds.
# Run: sh scripts/pack-builds.sh build build-lds build-lds/tests/gpu/test_mega_prefix \
#        build-lds/tests/gpu/test_index_ops; timeout 540 bash scripts/device-s50c.sh
#      (carry build-pack, build/wgmma_probe)
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
unpack_builds
{
cat "$O/device.txt"
timeout 60 build/wgmma_probe --wv > "$O/probe.txt" 2>&1
echo "probe rc=$?"; grep -E "MODE [156] EPI [0345]" "$O/probe.txt" | tail -14
for e in 0 4 5; do
    timeout 60 ncu --kernel-name-base mangled --kernel-name "regex:probeILi3ELi1ELb0ELi${e}E" --launch-skip 1 \
        --launch-count 1 --section SpeedOfLight --section ComputeWorkloadAnalysis \
        --section MemoryWorkloadAnalysis_Tables --section WarpStateStats \
        --metrics smsp__inst_executed.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum \
        build/wgmma_probe --wv > "$O/ncu-epi$e.txt" 2>&1
    echo "ncu epi $e rc=$?"
    grep -iE "shared|tensor|inst_executed|issue slots|stall|warp cycles|pipe|bank" "$O/ncu-epi$e.txt" | head -30
done
echo "t=$((SECONDS - t0)) s"
shapes=("128 2 65536" "16 2 8192" "64 2 65536" "16 2 65536")
ab_shapes "build build-lds" "${shapes[@]}"
ab_shapes "build-lds build" "${shapes[@]}"
for s in "128 2 65536" "16 2 8192"; do
    set -- $s
    for b in build build-lds; do
        timeout 60 $b/megartp bench glm5-prefix --m $1 --batch $2 --kv $3 --modes serial > "$O/serial-$b-${s// /-}.md" 2>&1
        echo "serial $b $s rc=$? $(grep -E '^\| E1 |step, serial' "$O/serial-$b-${s// /-}.md" | tr -s ' ' | cut -c1-90 | tr '\n' ' ')"
    done
done
echo "t=$((SECONDS - t0)) s"
DIGEST_RUNS="build:mega build-lds:mega build-lds:serial" run_digests "16 2 8192" "64 2 8192" "128 2 1024"
echo "t=$((SECONDS - t0)) s"
gpu_tests 90 test_index_ops
echo "t=$((SECONDS - t0)) s"
[ $((SECONDS - t0)) -lt 380 ] && gpu_tests $((520 - (SECONDS - t0))) test_mega_prefix
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
