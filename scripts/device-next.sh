#!/bin/bash
# The next device run (written 2026-11-29 without device time left to run it):
# 1. issue [G]'s missing figure: the step with the untraced kernels of this build against a
#    build with the stamps compiled out (-DMRT_NO_STAMPS), alternated A B A B;
# 2. a profile of one megakernel step (ncu, if present): per-op stall reasons and local
#    memory traffic, to find why each instruction computes ~2x its standalone time
#    (docs/MEGAKERNEL.md). Logs: scripts/device-common.sh.
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_or_exit
build_nostamps
echo "builds $((SECONDS - t0)) s"
{
stamps_ab
if command -v ncu > /dev/null; then
    timeout 300 ncu --kernel-name regex:mrt_mega_kernel --launch-skip 3 --launch-count 1 --set full \
        --import-source yes -o "$O/mega" build/megartp bench glm5-prefix --modes mega --reps 10 --copies 6 \
        > "$O/ncu.log" 2>&1
    echo "ncu rc=$?"; tail -3 "$O/ncu.log"
    ncu --import "$O/mega.ncu-rep" --page details > "$O/ncu-details.txt" 2>&1; head -60 "$O/ncu-details.txt"
else
    echo "no ncu on this machine"
fi
} 2>&1 | tee "$O/summary.txt"
