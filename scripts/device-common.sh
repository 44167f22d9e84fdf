# Sourced by the device scripts (scripts/device-*.sh): repository root, $O = the log folder,
# CUDA on PATH, the device and commit. The device tool brings back at most 8 files, so logs
# collect in $O and, when $OUT is set, leave as one archive $OUT/logs.tgz when the script
# ends (also when a timeout kills a step).
set -u
# the repository root: where a device script is run from, or above the script's folder (a
# command line that sources this file from the root has $0 = bash)
[ -f Makefile ] && [ -d scripts ] || cd "$(dirname "$0")/.."
O=/tmp/megartp-logs; rm -rf "$O"; mkdir -p "$O"
[ -n "${OUT:-}" ] && trap 'tar czf "$OUT/logs.tgz" -C "$O" . 2>/dev/null' EXIT
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$O/device.txt"
git log -1 --format=%H > "$O/commit.txt" 2>/dev/null

# unpack_builds: the binaries scripts/pack-builds.sh packed on this machine (build-pack/DIR.gz,
# carried) back at DIR/megartp.
unpack_builds() {
    local f d
    for f in build-pack/*.gz; do
        d=$(basename "$f" .gz)
        mkdir -p "$d" && gunzip -c "$f" > "$d/megartp" && chmod +x "$d/megartp"
    done
    for f in build-pack/tests-*.gz.bin; do
        [ -e "$f" ] || continue
        d=$(basename "$f" .gz.bin)
        mkdir -p build/tests/gpu && gunzip -c "$f" > "build/tests/gpu/${d#tests-}" && chmod +x "build/tests/gpu/${d#tests-}"
    done
}

# build_or_exit [make targets and variables]: builds (log: $O/build.log); a failure prints
# its error lines and ends the script.
build_or_exit() {
    make -j16 "${@:-all}" > "$O/build.log" 2>&1 || { echo "BUILD FAILED"; grep -E "error" "$O/build.log" | head -30; exit 1; }
}

# build_tree NAME JOBS [TARGET...]: NAME.tar (a git archive of a tree an A B compares
# against, made before the run: `git archive COMMIT -o NAME.tar`) built into /tmp/NAME/ with
# make -jJOBS, TARGETs (default build/megartp; log: $O/build-NAME.log); a failure is
# reported, not fatal. build_old JOBS [TARGET...]: the same for old.tar.
build_tree() {
    local n=$1 j=$2
    shift 2
    mkdir -p /tmp/$n && tar -xf $n.tar -C /tmp/$n
    (cd /tmp/$n && make -j"$j" "${@:-build/megartp}" > "$O/build-$n.log" 2>&1) || echo "$n build FAILED"
}
build_old() { build_tree old "$@"; }

# build_variant NAME FLAGS TARGET...: the same tree built with EXTRA_NVCCFLAGS=FLAGS into
# build-NAME/ (TARGET under it; log: $O/build-NAME.log); a failure is reported, not fatal.
build_variant() {
    local n=$1 f=$2 t targets=""
    shift 2
    for t in $*; do targets="$targets build-$n/$t"; done # "TARGET TARGET" in one argument too
    make -j16 BUILD=build-$n EXTRA_NVCCFLAGS="$f" $targets > "$O/build-$n.log" 2>&1 || echo "$n build FAILED"
}

# The megakernel's sanitizer build flags: the spin bound 1000x (compute-sanitizer slows
# kernels 100x or more), no clusters (racecheck does not follow distributed shared memory).
SAN="-DMRT_SPIN_LIMIT_CYCLES=2000000000000LL -DMRT_A0_CLUSTER=1 -DMRT_GEMM_NO_CLUSTER"

# mega_builds [NAME FLAGS]: build/ (megartp, test_mega_prefix, test_mega), build-san/
# (test_mega_prefix with $SAN) and, given NAME, build-NAME/ (megartp with FLAGS) side by
# side; reports the time taken (needs $t0).
mega_builds() {
    [ $# -ge 2 ] && build_variant "$1" "$2" megartp &
    build_variant san "$SAN" tests/gpu/test_mega_prefix &
    build_or_exit build/megartp build/tests/gpu/test_mega_prefix build/tests/gpu/test_mega
    wait
    echo "builds $((SECONDS - t0)) s"
}

# mega_checks: test_mega_prefix and test_mega (and its NoOp line), `megartp run` serial / cmp /
# mega and how many print each output digest (one: all three), then the three sanitizers on
# the reduced step from build-san/ (mega_builds); reports the time (needs $t0).
mega_checks() {
    mega_checks_carried
    run_backends serial cmp mega
    grep -h "output digest" "$O"/run-*.txt | sort | uniq -c
    echo "t=$((SECONDS - t0)) s"
    mega_tiny_sanitize 60 build-san final
    echo "t=$((SECONDS - t0)) s"
}

# mega_checks_carried: test_mega_prefix and test_mega of build/ (built here or carried by
# pack-builds.sh and unpack_builds), NoOp's step, the time so far (needs $t0).
mega_checks_carried() {
    gpu_tests 150 "test_mega_prefix" "test_mega"
    grep -h "NoOp" "$O/test_mega.log" | tail -1
    echo "t=$((SECONDS - t0)) s"
}

# build_with NAME FLAGS TARGET: build/megartp and, beside it, the variant (build_variant NAME
# FLAGS TARGET); reports the time taken (needs $t0).
build_with() {
    build_variant "$1" "$2" "$3" &
    build_or_exit build/megartp
    wait
    echo "builds $((SECONDS - t0)) s"
}

# build_variant_c NAME FLAGS TARGET: the same with EXTRA_CFLAGS=FLAGS (host C: the planner,
# the models), e.g. a plan-rule A/B.
build_variant_c() {
    make -j16 BUILD=build-$1 EXTRA_CFLAGS="$2" build-$1/$3 > "$O/build-$1.log" 2>&1 || echo "$1 build FAILED"
}

# build_nostamps: the same tree with the trace stamps compiled out, in build-nostamps/.
build_nostamps() { build_variant nostamps -DMRT_NO_STAMPS megartp; }

# stamps_ab: what the stamps cost when tracing is off: the step benchmark (serial, cmp) of
# build/ against build-nostamps/, alternated A B A B so drift shows.
stamps_ab() {
    for round in 1 2; do
        for b in build build-nostamps; do
            timeout 100 $b/megartp bench glm5-prefix --m 16 --batch 2 --kv 8192 --modes serial,cmp \
                > "$O/bench-$b-$round.md" 2>&1
            echo "bench $b round $round rc=$?: $(grep -E 'step, (serial|cmp)|same-bytes' "$O/bench-$b-$round.md" | tr -s ' ' | head -3 | tr '\n' ' ')"
        done
    done
}

# build_both: build/ (everything) and build-nostamps/ side by side; reports the time taken.
build_both() {
    local t=$SECONDS
    build_nostamps &
    build_or_exit
    wait
    echo "builds $((SECONDS - t)) s"
}

# gpu_tests TIMEOUT "test [args]"...: each GPU test (build/tests/gpu/) under TIMEOUT seconds,
# log $O/<test>.log; prints its rc, summary line and first failures.
gpu_tests() {
    local limit=$1 t
    shift
    for t in "$@"; do
        set -- $t
        timeout "$limit" build/tests/gpu/"$@" > "$O/$1.log" 2>&1
        echo "$t rc=$? $(tail -1 "$O/$1.log")"
        grep FAIL "$O/$1.log" | head -5
    done
}

# mega_tests LIMIT: the megakernel's two GPU tests (mega = serial bytes; NoOp cost, watchdog)
# of carried binaries, each bounded by LIMIT seconds, and the NoOp line.
mega_tests() {
    gpu_tests "$1" "test_mega_prefix" "test_mega"
    grep -h "NoOp" "$O/test_mega.log" | tail -1
}

# run_backends BACKEND...: `build/megartp run glm5-prefix --backend B` (one step, every output
# against the naive reference; log $O/run-B.txt); prints its pass count and verdict line.
run_backends() {
    local be
    for be in "$@"; do
        timeout 60 build/megartp run glm5-prefix --backend $be > "$O/run-$be.txt" 2>&1
        echo "run $be rc=$? $(grep -c ' pass$' "$O/run-$be.txt") pass; $(tail -1 "$O/run-$be.txt")"
        grep -E 'FAIL' "$O/run-$be.txt" | head -3
    done
}

# run_digests "M BATCH KV"...: run_backends' check at each shape, serial and mega (log
# $O/run-B-M-KV.txt): pass count and output digest, which the two must share. DIGEST_RUNS
# (default "build:serial build:mega") names the BUILD_DIR:BACKEND runs, e.g. a variant's mega
# beside the tree's serial (log $O/run-BUILD_DIR-B-M-KV.txt for a folder other than build).
# DIGEST_ARGS: more `run` options for every run (e.g. --block-n D0=256).
run_digests() {
    local s r b be f rc
    for s in "$@"; do
        set -- $s
        for r in ${DIGEST_RUNS:-build:serial build:mega}; do
            b=${r%%:*} be=${r#*:}
            f="$O/run-$be-$1-$3.txt"
            [ "$b" = build ] || f="$O/run-$b-$be-$1-$3.txt"
            timeout 60 $b/megartp run glm5-prefix --m $1 --batch $2 --kv $3 --backend $be ${DIGEST_ARGS:-} > "$f" 2>&1
            rc=$?
            echo "run $([ "$b" = build ] || echo "$b ")$be M=$1 KV=$3 rc=$rc $(grep -c ' pass$' "$f") pass; $(grep 'output digest' "$f")"
            grep -E 'FAIL' "$f" | head -3
        done
    done
}

# same_bytes REFERENCE: test_serial's digest lines (its log, $O/test_serial.log) into
# $O/digests.txt, compared with REFERENCE (a file of the same lines from an earlier tree);
# then run_backends serial cmp mega and how many of them print each output digest (the
# three must print one).
same_bytes() {
    grep "serial digest" "$O/test_serial.log" > "$O/digests.txt"
    echo "digests: $(wc -l < "$O/digests.txt") lines; against $1: $(diff -q "$1" "$O/digests.txt" > /dev/null && echo same || echo DIFFER)"
    run_backends serial cmp mega
    grep -h "output digest" "$O"/run-*.txt | sort | uniq -c
}

# build_gpu_tests: build/megartp and the four GPU tests gpu_checks runs (build_or_exit).
build_gpu_tests() {
    build_or_exit build/megartp build/tests/gpu/test_mega_prefix build/tests/gpu/test_mega build/tests/gpu/test_serial \
        build/tests/gpu/test_index_ops
}

# gpu_checks REFERENCE [TEST...]: a tree's GPU checks: the TESTs (default test_mega_prefix,
# test_serial, test_mega, test_index_ops --quick; gpu_tests), the NoOp framework cost test_mega
# printed, then same_bytes REFERENCE.
gpu_checks() {
    local ref=$1
    shift
    [ $# -gt 0 ] || set -- "test_mega_prefix" "test_serial" "test_mega" "test_index_ops --quick"
    gpu_tests 150 "$@"
    grep -h "NoOp" "$O/test_mega.log" | tail -1
    same_bytes "$ref"
}

# final_builds: the sanitizer build (build-san/tests/gpu/test_mega_prefix, $SAN) in the
# background beside build_gpu_tests, then waits for every background build (the caller's
# variants too). final_checks: a tree's whole check after it: gpu_checks against
# bench/test_serial-digests.txt, the three sanitizers on the reduced step (mega_tiny_sanitize
# 100 build-san final) and the time so far (needs $t0).
final_builds() {
    build_variant san "$SAN" tests/gpu/test_mega_prefix &
    build_gpu_tests
    wait
}
final_checks() {
    gpu_checks bench/test_serial-digests.txt
    mega_tiny_sanitize 100 build-san final
    echo "t=$((SECONDS - t0)) s"
}

# tree_checks: final_checks, racecheck on test_index_ops --tiny (the standalone E1 and F1
# kernels) and the whole bench at the target shape (log $O/bench.md; its step lines), then the
# time so far (needs $t0 and final_builds' binaries).
tree_checks() {
    final_checks
    sanitize racecheck 120 index-tiny build/tests/gpu/test_index_ops --tiny
    timeout 60 build/megartp bench glm5-prefix > "$O/bench.md" 2>&1
    echo "bench rc=$?"; grep -E "step, |same-bytes" "$O/bench.md" | tr -s ' ' | cut -c1-110
    echo "t=$((SECONDS - t0)) s"
}

# tree_evidence: [E]'s evidence for a tree after final_builds: the build time, tree_checks and
# the 12-shape sweep of build/ (needs $t0).
tree_evidence() {
    echo "builds $((SECONDS - t0)) s"
    tree_checks
    mega_sweep build build
}

# clocks LABEL BUILD_DIR [ARGS...]: `megartp bench glm5-prefix --modes mega --reps 20000 ARGS`
# from BUILD_DIR with nvidia-smi sampling the SM clock, memory clock and power every 20 ms
# beside it (logs $O/clocks-LABEL.csv, $O/clocks-bench-LABEL.md); prints the step line and each
# quantity's min / median / max.
clocks() {
    local l=$1 b=$2 p
    shift 2
    nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw --format=csv,noheader,nounits -lms 20 > "$O/clocks-$l.csv" &
    p=$!
    sleep 1
    timeout 60 $b/megartp bench glm5-prefix --modes mega --reps 20000 "$@" > "$O/clocks-bench-$l.md" 2>&1
    sleep 0.5; kill $p
    echo "$l: $(grep -E 'step, mega' "$O/clocks-bench-$l.md" | tr -s ' ' | cut -c1-90)"
    python3 - "$O/clocks-$l.csv" <<'PY'
import sys
rows = [[float(x) for x in l.split(",")] for l in open(sys.argv[1]) if l.strip() and "N/A" not in l]
for i, name in enumerate(["sm MHz", "mem MHz", "power W"]):
    v = sorted(r[i] for r in rows)
    print(f"  {name}: {len(v)} samples, min {v[0]:.0f}, median {v[len(v)//2]:.0f}, max {v[-1]:.0f}")
PY
}

# cp_bench BUILD_DIR...: megartp bench glm5-prefix --modes serial,mega --policy critical-path
# from each build folder (log $O/bench-cp-<dir>.md); prints the step lines.
cp_bench() {
    local b
    for b in "$@"; do
        timeout 60 $b/megartp bench glm5-prefix --modes serial,mega --policy critical-path > "$O/bench-cp-$b.md" 2>&1
        echo "critical-path $b rc=$? $(grep -E 'step, ' "$O/bench-cp-$b.md" | tr -s ' ' | cut -c1-100 | tr '\n' ' ')"
    done
}

# build_tests TIMEOUT TEST NAME...: build-NAME/tests/gpu/TEST of each variant under TIMEOUT
# seconds (log $O/TEST-NAME.log); prints its rc, last line and first failures.
build_tests() {
    local limit=$1 t=$2 b
    shift 2
    for b in "$@"; do
        timeout "$limit" build-$b/tests/gpu/$t > "$O/$t-$b.log" 2>&1
        echo "$b $t rc=$? $(tail -1 "$O/$t-$b.log")"
        grep FAIL "$O/$t-$b.log" | head -5
    done
}

# sweep REPS DEADLINE "M BATCH KV"...: megartp bench glm5-prefix --modes serial,mega at each
# shape (log $O/sweep-M-KV[-POLICY].md) until the script has run DEADLINE seconds (needs $t0).
# SWEEP_BUILD (default build) picks the build folder, SWEEP_POLICY (default roundrobin) the
# megakernel's placement policy.
sweep() {
    local reps=$1 deadline=$2 s b=${SWEEP_BUILD:-build} pol=${SWEEP_POLICY:-roundrobin} f
    shift 2
    for s in "$@"; do
        set -- $s
        [ $((SECONDS - t0)) -gt "$deadline" ] && break
        f="$O/sweep-$1-$3.md"
        [ "$pol" != roundrobin ] && f="$O/sweep-$1-$3-$pol.md"
        timeout 60 $b/megartp bench glm5-prefix --m $1 --batch $2 --kv $3 --modes serial,mega --reps "$reps" \
            --policy "$pol" > "$f" 2>&1
        echo "sweep M=$1 KV=$3 $pol rc=$? $(grep -E 'step, |same-bytes' "$f" | tr -s ' ' | cut -c1-90 | tr '\n' ' ')"
    done
}

# tiny_sanitize TIMEOUT BINARY NAME: memcheck, racecheck and synccheck of a test_mega_prefix
# binary --tiny ([E] criterion 3: the megakernel's step, then serial's, on the reduced-size
# model), each under TIMEOUT seconds (logs $O/TOOL-NAME.log). mega_tiny_sanitize TIMEOUT
# BUILD_DIR NAME: the same for BUILD_DIR/tests/gpu/test_mega_prefix.
tiny_sanitize() {
    local tool
    for tool in memcheck racecheck synccheck; do
        sanitize $tool "$1" "$3" "$2" --tiny
    done
}
mega_tiny_sanitize() { tiny_sanitize "$1" "$2"/tests/gpu/test_mega_prefix "$3"; }

# e_sweep DEADLINE_RR DEADLINE_CP: the shape sweep of [E] (M in {1, 16, 64, 128} x KV in
# {1024, 8192, 65536}, 30 replays), roundrobin until the script has run DEADLINE_RR seconds,
# then critical-path until DEADLINE_CP (SWEEP_BUILD as for sweep).
# [E]'s 12 shapes, "M BATCH KV": M in {1, 16, 64, 128} x KV in {1024, 8192, 65536}.
E_SHAPES=("1 1 1024" "1 1 8192" "1 1 65536" "16 2 1024" "16 2 8192" "16 2 65536" "64 2 1024" "64 2 8192"
    "64 2 65536" "128 2 1024" "128 2 8192" "128 2 65536")
e_sweep() {
    sweep 30 "$1" "${E_SHAPES[@]}"
    SWEEP_POLICY=critical-path sweep 30 "$2" "${E_SHAPES[@]}"
}

# per_case LOG: a sanitizer log's error reports counted under the test case named last before
# them (test_mega_prefix and test_barrier_pattern print "case: ..." before each case).
per_case() {
    awk '/^case:/ {c = $0} /^========= Error/ {n[c]++} END {for (k in n) print "  " n[k] " errors after " k}' "$1"
}

# sanitize TOOL TIMEOUT NAME command...: compute-sanitizer --tool TOOL on the command (log
# $O/TOOL-NAME.log); prints its rc, summary line, the test's last line and the first errors.
sanitize() {
    local tool=$1 limit=$2 name=$3
    shift 3
    timeout "$limit" compute-sanitizer --tool "$tool" "$@" > "$O/$tool-$name.log" 2>&1
    echo "$tool $name rc=$? $(grep -E 'SUMMARY' "$O/$tool-$name.log" | tail -1) $(tail -1 "$O/$tool-$name.log")"
    grep -E "^========= Error" -A1 "$O/$tool-$name.log" | cut -c1-160 | head -6
}

# mega_trace BUILD_DIR LABEL [ARGS...]: `megartp trace glm5-prefix --backend mega ARGS` from
# BUILD_DIR (log $O/trace-LABEL.txt, JSON beside it); prints its rc and per-op table.
mega_trace() {
    local b=$1 l=$2
    shift 2
    timeout 30 $b/megartp trace glm5-prefix --backend mega "$@" -o "$O/trace-$l.json" > "$O/trace-$l.txt" 2>&1
    echo "trace $l rc=$?"; sed -n "/^  op /,/critical path/p" "$O/trace-$l.txt"
}

# mega_traces DEADLINE BUILD_DIR...: mega_trace of each build folder (label: the folder) until
# the script has run DEADLINE seconds (needs $t0).
mega_traces() {
    local deadline=$1 b
    shift
    for b in "$@"; do
        [ $((SECONDS - t0)) -gt "$deadline" ] && break
        mega_trace "$b" "$b"
    done
}

# probe_traces BUILD_NAME...: `megartp trace glm5-prefix --backend mega` from each probe build
# build-NAME/ (-DMRT_GEMM_PROBE: a GEMM tile's "weights issued" and "visible" are K block 0's
# and the last K block's data ready; log $O/trace-NAME.txt, JSON beside it); prints the GEMM
# ops' medians of input -> K block 0 -> last K block -> computed (scripts/trace_phases.py).
probe_traces() {
    local b
    for b in "$@"; do
        timeout 30 build-$b/megartp trace glm5-prefix --backend mega -o "$O/trace-$b.json" > "$O/trace-$b.txt" 2>&1
        echo "trace-$b rc=$?"
        python3 scripts/trace_phases.py "$O/trace-$b.json" "input ready" "weights issued" visible "compute done" |
            grep -E "tasks|B0|D1|D0|B1"
    done
}

# mega_sass: the build's megakernel SASS with line information in $O/sass/mega.sass (for
# scripts/stalls_by_file.py); mega_sass_keep KERNEL then keeps that kernel's section, gzipped
# ($O/sass/mega16.sass.gz), and removes the rest.
mega_sass() {
    mkdir -p "$O/sass" && (cd "$O/sass" && cuobjdump -xelf all "$OLDPWD/build/src/cuda/mega.o" > /dev/null 2>&1; \
        nvdisasm -g -c *.cubin > mega.sass 2> nvdisasm.err; echo "sass rc=$? $(wc -l < mega.sass) lines")
}
mega_sass_keep() {
    awk -v k="$1" '/\.text\./{on = index($0, k) > 0} on' "$O/sass/mega.sass" | gzip > "$O/sass/mega16.sass.gz"
    rm -f "$O"/sass/*.cubin "$O/sass/mega.sass"
}

# ncu_stalls NAME KERNEL TOP [bench args]: Nsight Compute's SASS stall samples (SourceCounters,
# WarpStateStats) of one megakernel step of build/ (`megartp bench glm5-prefix --modes mega`
# with the args), by function and file for KERNEL (scripts/stalls_by_file.py, needs mega_sass)
# and, TOP > 0, its TOP instructions with the most samples (scripts/sass_stalls.py); keeps the
# source page as $O/src-NAME.csv.gz. NCU_ARGS (e.g. --sampling-interval 0) go to ncu; for each
# file in STALL_FILES (e.g. "topk.cuh index_logits_wg.cuh") its lines with the most samples.
ncu_stalls() {
    local w=$1 k=$2 top=$3 f
    shift 3
    timeout 150 ncu ${NCU_ARGS:-} --kernel-name regex:mrt_mega_kernel --launch-skip 10 --launch-count 1 \
        --section SourceCounters --section WarpStateStats -o "$O/$w" \
        build/megartp bench glm5-prefix --modes mega --reps 10 "$@" > "$O/ncu-$w.log" 2>&1
    echo "ncu $w rc=$? $(grep -E '==PROF==|==ERROR==' "$O/ncu-$w.log" | tail -2 | tr '\n' ' ')"
    ncu --import "$O/$w.ncu-rep" --page source --csv --print-source sass > "$O/src-$w.csv" 2> "$O/src-$w.err"
    python3 scripts/stalls_by_file.py "$O/src-$w.csv" "$O/sass/mega.sass" "$k" 3 | head -25
    for f in ${STALL_FILES:-}; do
        python3 scripts/stalls_by_file.py "$O/src-$w.csv" "$O/sass/mega.sass" "$k" 3 "$f" | sed -n '/ by line /,$p'
    done
    [ "$top" -gt 0 ] && python3 scripts/sass_stalls.py "$O/src-$w.csv" "$top" | head -$((top + 30))
    gzip -f "$O/src-$w.csv"; rm -f "$O/$w.ncu-rep"
}

# step_shapes MODES "BUILD_DIR..." "M BATCH KV"...: megartp bench glm5-prefix --modes MODES at
# each shape from each build folder (log $O/step-<dir>-M-KV.md); prints the step lines and the
# same-bytes read.
step_shapes() {
    local modes=$1 builds=$2 s b f
    shift 2
    for s in "$@"; do
        set -- $s
        for b in $builds; do
            f="$O/step-$b-$1-$3.md"
            timeout 60 $b/megartp bench glm5-prefix --m $1 --batch $2 --kv $3 --modes "$modes" > "$f" 2>&1
            echo "M=$1 KV=$3 $modes $b rc=$? $(grep -E 'step, |same-bytes' "$f" | tr -s ' ' | cut -c1-90 | tr '\n' ' ')"
        done
    done
}

# ab_bench MODES BUILD_DIR...: megartp bench glm5-prefix --modes MODES from each build folder in
# turn, twice (A B A B, so drift shows); logs $O/bench-<modes>-<dir>-<round>.md; prints each
# step line.
ab_bench() {
    local modes=$1 r b
    shift
    for r in 1 2; do
        for b in "$@"; do
            timeout 60 $b/megartp bench glm5-prefix --modes "$modes" > "$O/bench-$modes-$b-$r.md" 2>&1
            echo "$modes $b round $r rc=$? $(grep -E 'step, ' "$O/bench-$modes-$b-$r.md" | tr -s ' ' | cut -c1-100 | tr '\n' ' ')"
        done
    done
}

# sc_ab "M B KV" BUILD_DIR...: `megartp bench glm5-prefix --modes serial,cmp` at the shape from
# each build folder in turn (log $O/sc-BUILD_DIR.md, overwritten by a folder named twice);
# prints the step lines and the E1 op's.
sc_ab() {
    local s=($1) b
    shift
    for b in "$@"; do
        timeout 60 $b/megartp bench glm5-prefix --m ${s[0]} --batch ${s[1]} --kv ${s[2]} --modes serial,cmp > "$O/sc-$b.md" 2>&1
        echo "$b M=${s[0]} KV=${s[2]} rc=$? $(grep -E 'step, ' "$O/sc-$b.md" | tr -s ' ' | cut -c1-90 | tr '\n' ' ')"
        grep -E "^\| E1" "$O/sc-$b.md" | head -2 | cut -c1-100
    done
}

# mega_at BUILD_DIR LABEL "M B KV" [ARGS...]: `megartp bench glm5-prefix --modes mega` from
# BUILD_DIR at the shape with ARGS (e.g. --workers 128; log $O/at-LABEL-M-KV.md); prints the
# step line, and the log's head on a failure.
mega_at() {
    local b=$1 l=$2 s=($3) f rc
    shift 3
    f="$O/at-$l-${s[0]}-${s[2]}.md"
    timeout 40 $b/megartp bench glm5-prefix --m ${s[0]} --batch ${s[1]} --kv ${s[2]} --modes mega "$@" > "$f" 2>&1
    rc=$?
    echo "M=${s[0]} KV=${s[2]} $l rc=$rc $(grep -E 'step, mega' "$f" | tr -s ' ' | cut -c1-150)"
    [ $rc != 0 ] && grep -v "GEMM tile" "$f" | head -12 | cut -c1-400
}

# mega_ab SHAPE...: old (build-old/) / new (build/) mega_at, alternated, at each shape.
mega_ab() {
    local s
    for s in "$@"; do
        mega_at build-old old "$s"
        mega_at build new "$s"
    done
}

# mega_sweep BUILD_DIR LABEL [ARGS...]: mega_at each of [E]'s 12 shapes, the target shape
# (M=16 KV=8192) first.
mega_sweep() {
    local b=$1 l=$2 sh
    shift 2
    mega_at "$b" "$l" "16 2 8192" "$@"
    for sh in "${E_SHAPES[@]}"; do
        [ "$sh" = "16 2 8192" ] || mega_at "$b" "$l" "$sh" "$@"
    done
}

# sweep_until DEADLINE BUILD_DIR LABEL [ARGS...]: mega_at each of [E]'s 12 shapes in order
# until the script has run DEADLINE seconds (needs $t0).
sweep_until() {
    local d=$1 b=$2 l=$3 sh
    shift 3
    for sh in "${E_SHAPES[@]}"; do
        [ $((SECONDS - t0)) -gt "$d" ] && break
        mega_at "$b" "$l" "$sh" "$@"
    done
}

# ab_shapes "BUILD_DIR..." "M BATCH KV"...: mega_at each shape from each build folder in turn
# (label: the folder; a shape given twice overwrites its first log, its line stays in the
# summary).
ab_shapes() {
    local builds=$1 s b
    shift
    for s in "$@"; do
        for b in $builds; do mega_at "$b" "$b" "$s"; done
    done
}

# ab_traces "BUILD_DIR..." "M BATCH KV"...: mega_trace from each build folder at each shape
# (label BUILD_DIR-M-KV); prints E1's, D2's and F1's lines and the critical path.
ab_traces() {
    local builds=$1 s b
    shift
    for s in "$@"; do
        set -- $s
        for b in $builds; do
            mega_trace $b $b-$1-$3 --m $1 --batch $2 --kv $3 | grep -E "^trace|^  (E1|D2|F1) |critical"
        done
    done
}

# ab_op_traces "BUILD_DIR..." "M BATCH KV"...: trace_phases_at every op's input ready ->
# compute done -> published from each build folder at each shape, then the trace's op table
# (first / last visible, input, done) and critical path.
ab_op_traces() {
    local builds=$1 s b
    shift
    for s in "$@"; do
        for b in $builds; do
            trace_phases_at $b $b "$s" "A0|B0|C0|B1|D1|D0|D2|E1|F1" "input ready" "compute done" published
            set -- $s
            sed -n "/^  op /,/critical path/p" "$O/trace-$b-$1-$3.txt"
        done
    done
}

# at_ab_shapes FUNC: FUNC "M B KV" at the target shape twice (M=16 KV=8192), then M=1 KV=8192,
# M=16 KV=1024 and M=64 KV=8192: the shapes where a placement or tiling A B shows first whether
# it holds beyond the target (session 33 runs 5 and after).
at_ab_shapes() {
    local s
    for s in "16 2 8192" "16 2 8192" "1 1 8192" "16 2 1024" "64 2 8192"; do "$1" "$s"; done
}

# f1_phases BUILD_DIR LABEL PHASE...: F1's medians between the given trace phases
# (scripts/trace_phases.py) at M=16 KV=8192, M=64 KV=8192 and M=128 KV=1024, then with the
# chain alone (--ops A0,B0,C0,B1,D1,E1,F1) at M=16 KV=8192: a -DMRT_MEGA_TOPK_PROBE build's
# split of an F1 row (mega.cu).
f1_phases() {
    local b=$1 l=$2 s
    shift 2
    for s in "16 2 8192" "64 2 8192" "128 2 1024"; do
        trace_phases_at "$b" "$l" "$s" "F1" "$@"
    done
    mega_trace "$b" "$l-chain" --ops A0,B0,C0,B1,D1,E1,F1 > /dev/null
    python3 scripts/trace_phases.py "$O/trace-$l-chain.json" "$@" | grep -E "tasks|^F1 " | sed "s/^/chain alone: /"
}

# plan_trace BUILD_DIR TAG "M BATCH KV" [ARGS...]: one pair of scripts/fit_costs.py's input, a
# `megartp plan glm5-prefix ... ARGS --json` ($O/plan-TAG-M-KV.json) and mega_trace of the same
# plan beside it (label TAG-M-KV); prints mega_trace's lines.
plan_trace() {
    local b=$1 tag=$2 s=($3)
    shift 3
    $b/megartp plan glm5-prefix --m ${s[0]} --batch ${s[1]} --kv ${s[2]} "$@" --json > "$O/plan-$tag-${s[0]}-${s[2]}.json"
    mega_trace $b "$tag-${s[0]}-${s[2]}" --m ${s[0]} --batch ${s[1]} --kv ${s[2]} "$@"
}

# refit_traces DEADLINE [BUILD_DIR]: the cost model's refit data (scripts/fit_costs.py): the 12
# shapes of [E]'s sweep under roundrobin and critical-path (untuned) and the default plan,
# each a `plan --json` ($O/plan-TAG-M-KV.json) and a megakernel trace beside it, until the
# script has run DEADLINE seconds (needs $t0).
refit_traces() {
    local deadline=$1 b=${2:-build} opts tag sh
    for opts in "--policy roundrobin --no-tune" "" "--policy critical-path --no-tune"; do
        tag=$(echo "${opts:-default}" | tr -d ' -' | sed 's/policy//')
        for sh in "1 1 1024" "1 1 8192" "1 1 65536" "16 2 1024" "16 2 8192" "16 2 65536" "64 2 1024" "64 2 8192" \
            "64 2 65536" "128 2 1024" "128 2 8192" "128 2 65536"; do
            [ $((SECONDS - t0)) -gt "$deadline" ] && break
            plan_trace $b "$tag" "$sh" $opts > /dev/null
        done
    done
    echo "refit traces: $(ls "$O"/plan-*.json | wc -l)"
}

# trace_phases_at BUILD_DIR LABEL "M BATCH KV" OPS PHASE...: `megartp trace glm5-prefix
# --backend mega` at the shape from BUILD_DIR (a probe build: its stamps mean what the probe
# says; log $O/trace-LABEL-M-KV.txt, JSON beside it); prints the span and, for the ops
# matching the regex OPS, scripts/trace_phases.py's medians of the gaps between PHASEs.
trace_phases_at() {
    local b=$1 s=($3) ops=$4 l
    l="$2-${s[0]}-${s[2]}"
    shift 4
    timeout 30 $b/megartp trace glm5-prefix --backend mega --m ${s[0]} --batch ${s[1]} --kv ${s[2]} \
        -o "$O/trace-$l.json" > "$O/trace-$l.txt" 2>&1
    echo "$l rc=$? $(grep -o 'span [0-9.]* us' "$O/trace-$l.txt")"
    python3 scripts/trace_phases.py "$O/trace-$l.json" "$@" | grep -E "tasks|^($ops) "
}
