#!/bin/bash
# Session 44 run 1 (2026-12-02 11:23-11:30 UTC, the tree of fe0c4c2; prepared at the end of
# session 43 as device-next.sh). The finalization's batched signals in the form committed behind
# -DMRT_MEGA_GROUP_SIGNALS=1 (mega_gemm.cuh; session 43 measured the register form: M=128
# KV=8192 -3..-5 us, M=64 up to -1.8, M <= 16 +1.2-1.5) built beside the default: its checks
# (test_mega_prefix, test_mega, serial = mega digests at three shapes, the three sanitizers
# on its reduced step), then A B default / variant at eight shapes (the target shape twice)
# and, if it pays at M <= 16 too, the sweep of it.
# Run: timeout 590 bash scripts/device-s44a.sh (at fe0c4c2: the switch was removed after this run)
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant gs "-DMRT_MEGA_GROUP_SIGNALS=1" "megartp tests/gpu/test_mega_prefix tests/gpu/test_mega" &
build_variant gssan "$SAN -DMRT_MEGA_GROUP_SIGNALS=1" tests/gpu/test_mega_prefix &
build_or_exit build/megartp
wait
{
echo "builds $((SECONDS - t0)) s"
for t in test_mega_prefix test_mega; do
    timeout 150 build-gs/tests/gpu/$t > "$O/$t-gs.log" 2>&1
    echo "gs $t rc=$? $(tail -1 "$O/$t-gs.log")"
done
grep -h "NoOp" "$O/test_mega-gs.log" | tail -1
DIGEST_RUNS="build:serial build-gs:mega" run_digests "16 2 8192" "128 2 1024" "64 2 8192"
mega_tiny_sanitize 60 build-gssan gs
echo "t=$((SECONDS - t0)) s"
for s in "16 2 8192" "16 2 8192" "128 2 1024" "128 2 8192" "64 2 8192" "64 2 1024" "16 2 1024" "1 1 8192"; do
    mega_at build dflt "$s"
    mega_at build-gs gs "$s"
done
echo "t=$((SECONDS - t0)) s"
sweep_until 560 build-gs gs
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
