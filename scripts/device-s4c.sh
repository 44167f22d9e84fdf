#!/bin/bash
# Session 4, run 3: does the megakernel lose its time to queueing behind its own weight
# prefetch? The step against the pipeline depth (MRT_MEGA_STAGES caps the stages a GEMM tile
# keeps in flight), with a trace at each depth.
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_or_exit build/megartp
echo "build $((SECONDS - t0)) s"
{
for s in 8 1 2 3 4 6; do
    MRT_MEGA_STAGES=$s timeout 40 build/megartp bench glm5-prefix --modes mega --reps 100 > "$O/bench-st$s.md" 2>&1
    echo "stages $s rc=$?: $(grep -E 'step, mega' "$O/bench-st$s.md" | awk -F'|' '{print $4}')"
    MRT_MEGA_STAGES=$s timeout 30 build/megartp trace glm5-prefix --backend mega -o "$O/trace-st$s.json" > "$O/trace-st$s.txt" 2>&1
    sed -n 4,14p "$O/trace-st$s.txt"
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
