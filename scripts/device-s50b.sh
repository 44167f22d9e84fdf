#!/bin/bash
# Session 50 run 2: whether E1's head sums and chains contend for shared memory (the probe's
# MODE 6 in run 1: head sums on two warpgroups beside one warpgroup's chains took 37.4k cycles
# against ~16-20k alone). `wgmma_probe --wv`: the head weights' loads as the tile's (16
# generic 8-byte loads a unit), none (literals), 8 shared 16-byte loads of a per-quad layout,
# 16 ld.shared.v2; Nsight Compute's pipe and shared-memory figures of the chains + head sums
# with and without the loads; the tile functions' SASS (run 1's awk found no .text section:
# callees are labels in the kernel's section).
# Run: nvcc ... -o build/wgmma_probe scripts/wgmma_probe.cu (its header);
#      timeout 300 bash scripts/device-s50b.sh   (carry build/wgmma_probe, build/src/cuda/mega.o)
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
{
cat "$O/device.txt"
timeout 60 build/wgmma_probe --wv > "$O/probe.txt" 2>&1
echo "probe rc=$?"; grep -E "MODE [0-9] EPI [0345]" "$O/probe.txt"
for e in 0 3 4; do
    timeout 90 ncu --kernel-name "regex:probeILi3ELi1ELb0ELi${e}E" --launch-skip 1 --launch-count 1 \
        --section SpeedOfLight --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables \
        --section WarpStateStats --metrics smsp__inst_executed.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum \
        build/wgmma_probe --wv > "$O/ncu-epi$e.txt" 2>&1
    echo "ncu epi $e rc=$?"
    grep -E "Shared|shared|Tensor|tensor|gmma|inst_executed|Issue Slots|Stall|Warp Cycles|Pipe" "$O/ncu-epi$e.txt" | head -40
done
mega_sass
grep -n "il_tile" "$O/sass/mega.sass" | grep -v "CALL" | head -20
awk '/^[_A-Za-z.][^ ]*:/ && !/^\.L/ {on = index($0, "il_tile") > 0} on' "$O/sass/mega.sass" | gzip > "$O/sass/il_tile.sass.gz"
rm -f "$O"/sass/*.cubin "$O/sass/mega.sass"
ls -l "$O/sass"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
