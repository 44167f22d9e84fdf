#!/bin/bash
# Session 33, run 1 (written 2026-12-01, end of session 32; session 32's runs
# are scripts/device-s32a.sh .. s32f.sh; its final tree passed every GPU check in runs 4 and 6).
# -DMRT_MEGA_PRE_STAGES=P (prepared, compiled, not run; default PTX unchanged): a GEMM tile
# issues at most pre_stages ring stages before its input and the rest once K block 0 has
# landed; pre_stages is P or what MRT_MEGA_PRE says for the op ("N" or "OP=N,..."), so one
# build serves the sweep. Session 32 found every ring at 4 stages faster than 8 (the weights in
# flight set the chain's load latency); this asks whether the stages a waiting tile holds are
# the ones that cost. test_mega_prefix and test_mega (its watchdog case) on that build, then
# A B against the default build at M=16 KV=8192 twice and four more shapes: pre 2 with rings
# of 4 (default), 6 and 8 (MRT_MEGA_STAGES), pre 1, pre 1 for D0 alone; a trace of pre 2.
# Run: timeout 560 bash scripts/device-s33a.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
{
build_with pre -DMRT_MEGA_PRE_STAGES=2 "megartp tests/gpu/test_mega_prefix tests/gpu/test_mega"
pre_ab() { # "M B KV": the default build, then the pre build under five settings
    mega_at build ring4 "$1"
    mega_at build-pre pre2 "$1"
    MRT_MEGA_STAGES=6 mega_at build-pre pre2-ring6 "$1"
    MRT_MEGA_STAGES=8 mega_at build-pre pre2-ring8 "$1"
    MRT_MEGA_PRE=1 mega_at build-pre pre1 "$1"
    MRT_MEGA_PRE=D0=1,B0=4,D1=4,C0=4,B1=4,D2=4 mega_at build-pre pre1-d0 "$1"
}
for sh in "16 2 8192" "16 2 65536" "64 2 8192" "128 2 1024" "16 2 8192" "1 1 1024"; do pre_ab "$sh"; done
MRT_MEGA_PRE=0 timeout 30 build-pre/megartp bench glm5-prefix --modes mega > "$O/bad-env.txt" 2>&1
echo "MRT_MEGA_PRE=0 rc=$? $(grep -i 'MRT_MEGA_PRE' "$O/bad-env.txt" | head -1)"
echo "t=$((SECONDS - t0)) s"
mega_trace build-pre pre2-16-8192 | grep -E "^  (A0|B0|D1|D0|E1|D2|F1) |critical|span"
mega_trace build ring4-16-8192 | grep -E "^  (A0|B0|D1|D0|E1|D2|F1) |critical|span"
build_tests 150 test_mega_prefix pre
build_tests 60 test_mega pre
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
