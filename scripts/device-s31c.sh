#!/bin/bash
# Session 31, run 3 (2026-12-01).
# 1. -DMRT_MEGA_JOB_SIGNALS=1 against the default: every finalization job performs its group's
#    finalizer signals (red.release), the split-0 member having corrected the events by
#    increment * (1 - jobs) at its tile's start; no done count, no last job, no acquire fence
#    between the last job's stores and the consumers (run 2's FIN_PROBE=2: 2.0-2.5 us from a
#    job's epilogue to the member's published). A B at 7 shapes, traces at M=16 KV=8192,
#    `megartp run` mega digests, then test_mega_prefix on the switch's build (last: 130 s).
# 2. The placement tie rule (runs 1-2: where the estimates tie, critical-path faster at every
#    KV=1024 shape M <= 16, roundrobin at M=32 KV=1024, M=128 KV=8192, M=32 / 128 KV=65536;
#    critical-path faster at M=64 KV=8192, estimate ratio 0.990): auto and the other
#    placement (tuning's picks given) at KV=2048 / 4096 M <= 16 and the shapes whose ratio is
#    0.97-0.997 (M=24 / 96 KV=4096, M=96 KV=8192).
# Run: timeout 560 bash scripts/device-s31c.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant js -DMRT_MEGA_JOB_SIGNALS=1 "megartp tests/gpu/test_mega_prefix" &
build_or_exit build/megartp
wait
{
echo "builds $((SECONDS - t0)) s"
for rep in 1 2; do ab_shapes "build build-js" "16 2 8192" "16 2 1024"; done
ab_shapes "build build-js" "1 1 8192" "64 2 8192" "128 2 1024" "16 2 65536" "128 2 65536"
echo "t=$((SECONDS - t0)) s"
for b in build build-js; do mega_trace $b $b-16-8192 | grep -E "^  (A0|B0|D1|E1|F1) |critical"; done
python3 scripts/trace_phases.py "$O/trace-build-js-16-8192.json" "compute done" published | grep -E "^(op|B0|D1|D0) "
python3 scripts/trace_phases.py "$O/trace-build-16-8192.json" "compute done" published | grep -E "^(op|B0|D1|D0) "
for s in "16 2 8192" "128 2 1024" "1 1 65536"; do
    set -- $s
    timeout 60 build-js/megartp run glm5-prefix --backend mega --m $1 --batch $2 --kv $3 > "$O/run-js-$1-$3.txt" 2>&1
    echo "run js M=$1 KV=$3 rc=$? $(grep -c ' pass$' "$O/run-js-$1-$3.txt") pass; $(grep 'output digest' "$O/run-js-$1-$3.txt")"
    timeout 60 build/megartp run glm5-prefix --backend serial --m $1 --batch $2 --kv $3 > "$O/run-serial-$1-$3.txt" 2>&1
    echo "run serial M=$1 KV=$3 rc=$? $(grep 'output digest' "$O/run-serial-$1-$3.txt")"
done
echo "t=$((SECONDS - t0)) s"
# auto's pick first, then the other placement with tuning's picks
TIES=("1 1 2048 critical-path --split D1=2" "4 2 2048 critical-path --split D1=2" "16 2 2048 critical-path --split D1=2"
    "1 1 4096 critical-path --split D1=2" "4 2 4096 critical-path --split D1=2" "8 2 4096 critical-path --split D1=2"
    "24 2 4096 critical-path --split D1=2 --chunk E1=256" "96 2 4096 critical-path --split D1=2"
    "96 2 8192 critical-path --split D1=2 --chunk E1=256")
for t in "${TIES[@]}"; do
    set -- $t
    m=$1 b=$2 kv=$3 other=$4
    shift 4
    mega_at build auto "$m $b $kv"
    mega_at build $other "$m $b $kv" --policy $other "$@"
done
echo "t=$((SECONDS - t0)) s"
timeout 150 build-js/tests/gpu/test_mega_prefix > "$O/test_mega_prefix-js.log" 2>&1
echo "test_mega_prefix js rc=$? $(tail -1 "$O/test_mega_prefix-js.log")"; grep FAIL "$O/test_mega_prefix-js.log" | head -5
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
