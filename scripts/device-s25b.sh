#!/bin/bash
# Session 25 run 2 (2026-12-01): the finalization jobs' round trips (run 1: a D1 job, claim
# included, 4.8 us at M=16 KV=8192). Three changes, each A B'd against the others: (1) the
# job's columns summed from the split planes into shared memory, not into the reduced
# buffer in global memory and read back (gemm_fp8_epilogues.cuh; the standalone
# finalization kernel too); (2) the op's positions copied into shared memory during the
# ticket, so the RoPE pair's and the cache slot's chains are one round trip
# (-DMRT_MEGA_FIN_POS_COPY=0: without); (3) a group's next claim in flight during its job
# (-DMRT_MEGA_CLAIM_AHEAD=0: without). old = old.tar (git archive of HEAD before them).
# GPU tests (test_mega_prefix: mega = serial bytes; test_serial; test_gemm_fp8; test_mega),
# the sanitizers on the reduced step, the A B at 8 shapes, traces and D1's phases.
# Run: timeout 590 bash scripts/device-s25b.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_old 4 &
build_variant nopos -DMRT_MEGA_FIN_POS_COPY=0 megartp &
build_variant noahead -DMRT_MEGA_CLAIM_AHEAD=0 megartp &
build_variant fprobe -DMRT_MEGA_FIN_PROBE megartp &
build_variant san "$SAN" tests/gpu/test_mega_prefix &
build_or_exit build/megartp build/tests/gpu/test_mega_prefix build/tests/gpu/test_mega build/tests/gpu/test_serial \
    build/tests/gpu/test_gemm_fp8
wait
lab() { case $1 in /tmp/old/build) echo old ;; build) echo new ;; *) echo "${1#build-}" ;; esac; }
{
echo "builds $((SECONDS - t0)) s"
gpu_tests 150 "test_mega_prefix" "test_serial" "test_gemm_fp8" "test_mega"
grep -h "NoOp" "$O/test_mega.log" | tail -1
mega_tiny_sanitize 150 build-san new
echo "t=$((SECONDS - t0)) s"
for r in 1 2; do
    for b in /tmp/old/build build build-nopos build-noahead; do mega_at $b "$(lab $b)-$r" "16 2 8192"; done
done
for sh in "64 2 8192" "128 2 8192"; do
    for b in /tmp/old/build build build-nopos build-noahead; do mega_at $b "$(lab $b)" "$sh"; done
done
for sh in "1 1 1024" "1 1 65536" "16 2 65536" "64 2 65536" "128 2 65536"; do
    for b in /tmp/old/build build; do mega_at $b "$(lab $b)" "$sh"; done
done
echo "t=$((SECONDS - t0)) s"
mega_trace build new-16-8192 | grep -E "^  [A-F][0-9] |critical"
for sh in "16 2 8192" "64 2 8192"; do
    set -- $sh
    l="fprobe-$1-$3"
    timeout 30 build-fprobe/megartp trace glm5-prefix --backend mega --m $1 --batch $2 --kv $3 \
        -o "$O/trace-$l.json" > "$O/trace-$l.txt" 2>&1
    echo "$l rc=$? $(grep -o 'span [0-9.]* us' "$O/trace-$l.txt")"
    python3 scripts/trace_phases.py "$O/trace-$l.json" "compute done" "weights issued" visible published |
        grep -E "tasks|^B0|^D1"
done
step_shapes serial,cmp,mega build "16 2 8192"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
