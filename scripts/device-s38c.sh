#!/bin/bash
# Session 38 run 3 (2026-12-02): (1) bc79f8a's tuning (the candidate priced lowest, no 5%
# margin) against the plan the margin kept, `--no-tune` (the default tiling: what HEAD~2 ran at
# these five shapes), two rounds at the five shapes whose pick moved; (2) M=64 KV=65536, where
# the default (D1 in 2 splits, critical-path) measured 15 us slower than D1 in 4 under
# roundrobin: each tiling under the other policy; (3) INDEX_Q jobs without the q_a block sums
# the tile's warp 3 already folded (build-sv, built on the development machine) against
# build/ (2a85d15), its output digest first, then A B at the target shape twice and three more.
# Run: timeout 560 bash scripts/device-s38c.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
{
for r in 1 2; do
    for s in "1 1 8192" "2 2 8192" "4 2 8192" "8 2 8192" "4 2 65536"; do
        mega_at build margin-$r "$s" --no-tune
        mega_at build tuned-$r "$s"
    done
done
echo "t=$((SECONDS - t0)) s"
mega_at build d1-2-rr "64 2 65536" --split D1=2 --chunk E1=512 --policy roundrobin
mega_at build d1-4-cp "64 2 65536" --split D1=4 --chunk E1=512 --policy critical-path
mega_at build d1-4-rr "64 2 65536" --split D1=4 --chunk E1=512 --policy roundrobin
mega_at build default "64 2 65536"
echo "t=$((SECONDS - t0)) s"
DIGEST_RUNS="build:serial build-sv:mega" run_digests "16 2 8192" "1 1 8192" "64 2 8192"
ab_sv() { ab_shapes "build build-sv" "$1"; }
at_ab_shapes ab_sv
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
