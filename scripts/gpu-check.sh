#!/bin/bash
# GPU check of the GEMM engine, in one go (built for one device `run`):
#   build (self-contained: src/cuda/*.cu of the GEMMs + src/ops/*.cuh + include/ +
#   src/core/numerics.h, nothing else of the repo) -> GPU tests -> bench -> SASS check
#   (QGMMA / HGMMA present) -> compute-sanitizer memcheck on the tests -> `make -j all`.
# Logs go to gpu-check-out/; when $OUT is set (the device tool's return folder) the end
# copies summary.txt and bench.md there and packs every log into $OUT/logs.tgz (the tool
# returns at most 8 files). Usage: scripts/gpu-check.sh [steps...]
# steps: build test bench sass memcheck ncu make (default: all but ncu, in that order).
set -u
cd "$(dirname "$0")/.."
RET=${OUT:-}
OUT=$PWD/gpu-check-out
rm -rf "$OUT"
mkdir -p "$OUT"
B=${GPU_BUILD:-build-gpu}
mkdir -p "$B"
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
CUDA_HOME=$(dirname "$(dirname "$NVCC")")
export LD_LIBRARY_PATH=$CUDA_HOME/lib64:${LD_LIBRARY_PATH:-}
ARCH="-gencode=arch=compute_90a,code=sm_90a"
FLAGS="-std=c++17 -O3 -lineinfo $ARCH -Iinclude -Isrc -Isrc/core -Itests \
 -Xcompiler -Wall,-Wextra,-Werror --expt-relaxed-constexpr ${EXTRA_NVCCFLAGS:-}"
LIBS="-L$CUDA_HOME/lib64 -L$CUDA_HOME/targets/x86_64-linux/lib -lcublasLt"
STEPS=${*:-build test bench sass memcheck make}
# the summary (and bench.md) are written straight into $RET when set, so a run killed at its
# time limit still returns them
SUMDIR=${RET:-$OUT}
SUMMARY=$SUMDIR/summary.txt
: > "$SUMMARY"
note() { echo "$*" | tee -a "$SUMMARY"; }
DEADLINE=${DEADLINE:-560} # seconds for the whole script; a step that may not fit is skipped
has() {
    case " $STEPS " in *" $1 "*) ;; *) return 1 ;; esac
    if [ "$SECONDS" -gt $((DEADLINE - ${2:-60})) ]; then note "$1: skipped ($SECONDS s used of $DEADLINE)"; return 1; fi
    return 0
}

note "gpu-check $(date -u '+%Y-%m-%d %H:%M UTC') host $(hostname) nvcc $($NVCC --version | tail -1)"
command -v nvidia-smi > /dev/null && nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader | sed 's/^/gpu: /' | tee -a "$SUMMARY"

if has build; then
    t0=$(date +%s)
    pids=""
    rm -f $B/fail
    for f in gpu gemm_fp8_standalone gemm_bf16_standalone bench_gemm; do
        ( timeout 300 $NVCC $FLAGS -Xptxas -v -c src/cuda/$f.cu -o $B/$f.o > $B/$f.log 2>&1 || echo "FAILED $f" >> $B/fail ) &
        pids="$pids $!"
    done
    for t in test_gemm_fp8 test_gemm_bf16; do
        ( timeout 300 $NVCC $FLAGS -c tests/gpu/$t.cu -o $B/$t.o > $B/$t.log 2>&1 || echo "FAILED $t" >> $B/fail ) &
        pids="$pids $!"
    done
    wait $pids
    cc -std=c11 -O2 -Wall -Wextra -Werror -Isrc -c bench/gemm/bench_gemm_main.c -o $B/bench_main.o || echo "FAILED bench_main" >> $B/fail
    LIBOBJ="$B/gpu.o $B/gemm_fp8_standalone.o $B/gemm_bf16_standalone.o"
    for t in test_gemm_fp8 test_gemm_bf16; do
        $NVCC $ARCH $B/$t.o $LIBOBJ -o $B/$t $LIBS || echo "FAILED link $t" >> $B/fail
    done
    $NVCC $ARCH $B/bench_main.o $B/bench_gemm.o $LIBOBJ -o $B/bench_gemm $LIBS || echo "FAILED link bench" >> $B/fail
    cat $B/*.log > "$OUT/build.log"
    grep -h -E "error|warning|C75|spill|Used [0-9]+ registers" $B/*.log | sort | uniq -c | sort -rn | head -20 | sed 's/^/  /' >> "$SUMMARY"
    if [ -f $B/fail ]; then note "build: FAILED: $(cat $B/fail | tr '\n' ' ')"; else note "build: ok ($(( $(date +%s) - t0 )) s)"; fi
fi

run_test() { # name timeout args...
    local name=$1 to=$2; shift 2
    local t0=$(date +%s)
    timeout "$to" "$B/$name" "$@" > "$OUT/$name.log" 2>&1
    local rc=$?
    note "$name $*: rc=$rc ($(( $(date +%s) - t0 )) s): $(tail -1 "$OUT/$name.log")"
    return $rc
}

if has test 120; then
    if ! run_test test_gemm_fp8 150; then
        grep -E "FAIL|bad|watchdog|error|block" "$OUT/test_gemm_fp8.log" | head -30 >> "$SUMMARY"
        # isolate: one process per case family, so one trap does not hide the others
        for c in T0 B0 B1 D0 D1 forced; do
            timeout 40 $B/test_gemm_fp8 --only $c --reps 3 > "$OUT/fp8_$c.log" 2>&1
            note "  fp8 --only $c: rc=$? $(grep -c ': ok' "$OUT/fp8_$c.log") ok lines; $(tail -1 "$OUT/fp8_$c.log")"
        done
    fi
    if ! run_test test_gemm_bf16 100; then
        grep -E "FAIL|bad|watchdog|error|block" "$OUT/test_gemm_bf16.log" | head -30 >> "$SUMMARY"
        for c in C0 D2; do
            timeout 40 $B/test_gemm_bf16 --only $c --reps 3 > "$OUT/bf16_$c.log" 2>&1
            note "  bf16 --only $c: rc=$? $(tail -1 "$OUT/bf16_$c.log")"
        done
    fi
    grep -h -E "^(fp8|bf16) " "$OUT/test_gemm_fp8.log" "$OUT/test_gemm_bf16.log" | sed 's/^/  /' >> "$SUMMARY"
fi

if has bench 100; then
    t0=$(date +%s)
    timeout 200 $B/bench_gemm ${BENCH_MS:-} > "$SUMDIR/bench.md" 2>&1
    note "bench: rc=$? ($(( $(date +%s) - t0 )) s)"
fi

if has sass; then
    if command -v cuobjdump > /dev/null; then
        q=$(cuobjdump -sass $B/gemm_fp8_standalone.o | grep -c QGMMA)
        h=$(cuobjdump -sass $B/gemm_bf16_standalone.o | grep -c HGMMA)
        ldl=$(cuobjdump -sass $B/gemm_fp8_standalone.o $B/gemm_bf16_standalone.o | grep -c -E "LDL|STL")
        cuobjdump -sass $B/gemm_fp8_standalone.o | grep -E "QGMMA|UTMALDG|SYNCS|WARPGROUP" | sort | uniq -c | sort -rn | head -12 > "$OUT/sass_fp8.txt"
        note "sass: QGMMA in gemm_fp8_standalone.o: $q, HGMMA in gemm_bf16_standalone.o: $h, local-memory LDL/STL: $ldl"
    else
        note "sass: cuobjdump not found"
    fi
fi

if has memcheck 100; then
    if command -v compute-sanitizer > /dev/null; then
        for t in test_gemm_fp8 test_gemm_bf16; do
            t0=$(date +%s)
            timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 $B/$t --quick --reps 2 > "$OUT/memcheck_$t.log" 2>&1
            rc=$?
            note "memcheck $t --quick --reps 2: rc=$rc ($(( $(date +%s) - t0 )) s): $(grep -E 'ERROR SUMMARY' "$OUT/memcheck_$t.log" | tail -1) | $(grep -E 'passed' "$OUT/memcheck_$t.log" | tail -1)"
        done
    else
        note "memcheck: compute-sanitizer not found"
    fi
fi

if has ncu 60; then
    # hardware counters of the D0 GEMM at M = 1, 16, 256 (speed of light, memory workload)
    if command -v ncu > /dev/null; then
        timeout 90 ncu --clock-control none --kernel-name regex:mrt_gemm_kernel --launch-count 3 \
            --section SpeedOfLight --section MemoryWorkloadAnalysis \
            $B/test_gemm_fp8 --only D0 --quick --reps 1 > "$OUT/ncu_d0.txt" 2>&1
        note "ncu: rc=$? $(grep -E 'DRAM Throughput|Memory Throughput|Duration' "$OUT/ncu_d0.txt" | tr -s ' ' | tr '\n' ';' | cut -c1-400)"
    else
        note "ncu: not found"
    fi
fi

if has make 60; then
    t0=$(date +%s)
    timeout 150 make -j16 all > "$OUT/make.log" 2>&1
    note "make -j all: rc=$? ($(( $(date +%s) - t0 )) s); last: $(tail -2 "$OUT/make.log" | tr '\n' ' ')"
fi
note "done"
if [ -n "$RET" ] && [ "$RET" != "$OUT" ]; then
    tar czf "$RET/logs.tgz" -C "$OUT" . 2>/dev/null
fi
