#!/bin/bash
# The next session's first device run (written 2026-11-30, end of session 15). Session 15 ended
# at mega 91.2-92.5 us (M=16 KV=8192, roundrobin), serial 73.0-73.5, cmp 50.6-51.4
# (bench/RESULTS.md "Session 15"). F1 is last on the critical path and takes 11.1 us a row in
# the step (9.7 a launch for the same row function as a standalone kernel on real logits,
# session 8; `--ops F1` alone runs it on poisoned NaN logits, a shorter path, so it is not
# compared here). Here: the baseline
# A B, then F1's row split into its phases in the step (`-DMRT_MEGA_TOPK_STOP=N`, diagnostic
# builds whose F1 returns after phase N: 1 pass 0, 2 the digit search, 3 pass 1, 4 the list;
# outputs incomplete, timing only; default PTX identical).
# Also: D1's finalization helpers. Each of D1's 128 workers runs its tile (6.8 us), then most
# of them help finalize the group (7.6 us computed -> published), then its D0 tile (12.7),
# and only then reaches E1, whose input is ready at 49 us (E1 done 78). Members that do not
# help (`-DMRT_MEGA_HELP_NS=0`, measured slower in session 10 with 128-thread groups) go on
# to D0 at once, now that one member runs twelve one-warp groups (the default waits up to
# 10 us for the group, then helps); 1000 ns is between. The switch applies to B0's and B1's
# groups too (B0's finalization is on the critical path): the traces show both.
# And qa = -DMRT_MEGA_QA_INPUTS_FIRST (prepared, default PTX identical): a QKV_A q job loads its
# norm weights before the split planes, as INDEX_Q's jobs load their row inputs since session
# 15 (-0.4 us); its bytes against serial by test_mega_prefix.
# Run: timeout 570 bash scripts/device-next.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
for n in 1 2 3 4; do build_variant stop$n -DMRT_MEGA_TOPK_STOP=$n megartp & done
build_variant help0 -DMRT_MEGA_HELP_NS=0 megartp &
build_variant help1k -DMRT_MEGA_HELP_NS=1000 megartp &
build_variant qa -DMRT_MEGA_QA_INPUTS_FIRST "megartp build-qa/tests/gpu/test_mega_prefix" &
build_or_exit build/megartp
wait
echo "builds $((SECONDS - t0)) s"
{
for r in 1 2; do
    timeout 60 build/megartp bench glm5-prefix --modes serial,cmp,mega > "$O/base-$r.md" 2>&1
    echo "baseline $r rc=$? $(grep -E 'step, ' "$O/base-$r.md" | tr -s ' ' | cut -c1-70 | tr '\n' ' ')"
done
ab_bench mega build build-help0 build-help1k build-qa
cp_bench build build-help0 build-help1k build-qa
build_tests 150 test_mega_prefix qa
mega_traces 330 build-help0 build-help1k build-qa
for b in build build-stop1 build-stop2 build-stop3 build-stop4; do
    [ $((SECONDS - t0)) -gt 500 ] && break
    timeout 30 $b/megartp trace glm5-prefix --backend mega -o "$O/step-$b.json" > "$O/step-$b.txt" 2>&1
    echo "$b step rc=$? $(grep -E '^  F1 ' "$O/step-$b.txt")"
done
sed -n "/^  op /,/critical path/p" "$O/step-build.txt"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
