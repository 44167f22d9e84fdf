#!/bin/bash
# Session 28, run 1 (as device-next.sh stood at the end of session 27; session 27's runs are
# scripts/device-s27a.sh .. s27e.sh). The timeout ended it during the third trace: the
# trace_gaps line, serial / cmp / mega and the sweep did not run (device-s28b.sh runs the last two).
# The next session's first device run (written 2026-12-01, end of session 27; session 27's
# runs are scripts/device-s27a.sh .. s27e.sh). Session 27's final tree changed the event
# waits (acquire polls, no fence.acq_rel.gpu: mega_gemm.cuh) after run 5 measured them and
# ran test_mega_prefix on them; not yet run on that code: test_serial, test_mega (the
# watchdog's broken plan), test_index_ops, `megartp run` on the three executors, and the
# three sanitizers. So: those first; then the prepared -DMRT_MEGA_GROUP_ACQUIRE=1 (the group
# waits the same way: mega_gemm.cuh) and =2 (also the gemm_fp8 tickets a release add, the
# completer acquiring by a load), their test_mega_prefix, racecheck of =1, the A B at 7
# shapes, traces; serial / cmp / mega with the read; the 12-shape sweep until the time is spent.
# Run: timeout 590 bash scripts/device-next.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant ga -DMRT_MEGA_GROUP_ACQUIRE=1 "megartp tests/gpu/test_mega_prefix" &
build_variant ga2 -DMRT_MEGA_GROUP_ACQUIRE=2 "megartp tests/gpu/test_mega_prefix" &
build_variant gasan "$SAN -DMRT_MEGA_GROUP_ACQUIRE=1" tests/gpu/test_mega_prefix &
final_builds
{
echo "builds $((SECONDS - t0)) s"
final_checks
build_tests 150 test_mega_prefix ga ga2
sanitize racecheck 100 ga build-gasan/tests/gpu/test_mega_prefix --tiny
for sh in "16 2 8192" "16 2 8192" "64 2 8192" "128 2 8192" "128 2 1024" "16 2 65536" "1 1 8192"; do
    mega_at build default "$sh"
    mega_at build-ga ga "$sh"
    mega_at build-ga2 ga2 "$sh"
done
mega_trace build default-16-8192 | grep -E "^  [A-F][0-9] |critical"
mega_trace build-ga ga-16-8192 | grep -E "^  [A-F][0-9] |critical"
mega_trace build-ga2 ga2-16-8192 | grep -E "^  [A-F][0-9] |critical"
python3 scripts/trace_gaps.py "$O/trace-default-16-8192.json" "$O/trace-ga-16-8192.json" "$O/trace-ga2-16-8192.json"
step_shapes serial,cmp,mega build "16 2 8192"
echo "t=$((SECONDS - t0)) s"
sweep_until 570 build sweep
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
