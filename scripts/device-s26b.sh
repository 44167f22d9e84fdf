#!/bin/bash
# Session 26 run 2: E1's block-table lookups a pass ahead of their copies (held as the
# loaded entries, so nothing stalls on them where they are issued), F1's pass 0 with its
# loads in flight together (MRT_TOPK_LOADS float4 a thread before any is used) and F1's
# indices staged in shared memory and stored as whole rows, against the tree before them
# (old.tar: 4a7ffe1, the pairs switch dropped); la0 = the new tree without the pass loop's
# lookahead (-DMRT_ILW_LOOKAHEAD=0), nostage = without the staged emit
# (-DMRT_TOPK_STAGE_EMIT=0). Every byte the same: GPU tests (test_mega_prefix: mega =
# serial; test_serial's digests against run 1's, brought as digests-s26a.txt; test_index_ops:
# the standalone E1 / F1 variants against the reference), `megartp run` on the three
# executors; old / new / la0 / nostage at the target shape twice, traces of old and new at
# M=16 KV=8192 and KV=65536 (E1's and F1's input -> computed), old / new at [E]'s other 11
# shapes (la0 too at KV=65536), serial / cmp / mega with the read, the sanitizers last.
# Run: timeout 590 bash scripts/device-s26b.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_old 6 build/megartp &
build_variant la0 -DMRT_ILW_LOOKAHEAD=0 megartp &
build_variant nostage -DMRT_TOPK_STAGE_EMIT=0 megartp &
build_variant san "$SAN" tests/gpu/test_mega_prefix &
build_gpu_tests
wait
{
echo "builds $((SECONDS - t0)) s"
gpu_checks digests-s26a.txt
echo "t=$((SECONDS - t0)) s"
for r in 1 2; do
    mega_at /tmp/old/build old-$r "16 2 8192"
    mega_at build new-$r "16 2 8192"
    mega_at build-la0 la0-$r "16 2 8192"
    mega_at build-nostage nostage-$r "16 2 8192"
done
for sh in "16 2 8192" "16 2 65536"; do
    s=($sh)
    mega_trace /tmp/old/build old-${s[0]}-${s[2]} --m ${s[0]} --batch ${s[1]} --kv ${s[2]} | grep -E "^  (op|E1|F1) |critical"
    mega_trace build new-${s[0]}-${s[2]} --m ${s[0]} --batch ${s[1]} --kv ${s[2]} | grep -E "^  (op|E1|F1) |critical"
done
echo "t=$((SECONDS - t0)) s"
for sh in "${E_SHAPES[@]}"; do
    [ "$sh" = "16 2 8192" ] && continue
    mega_at /tmp/old/build old "$sh"
    mega_at build new "$sh"
    case "$sh" in *65536) mega_at build-la0 la0 "$sh" ;; esac
done
echo "t=$((SECONDS - t0)) s"
step_shapes serial,cmp,mega build "16 2 8192"
mega_tiny_sanitize 100 build-san s26b
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
