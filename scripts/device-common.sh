# Sourced by the device scripts (scripts/device-*.sh): repository root, $O = the log folder,
# CUDA on PATH, the device and commit. The device tool brings back at most 8 files, so logs
# collect in $O and, when $OUT is set, leave as one archive $OUT/logs.tgz when the script
# ends (also when a timeout kills a step).
set -u
cd "$(dirname "$0")/.."
O=/tmp/megartp-logs; rm -rf "$O"; mkdir -p "$O"
[ -n "${OUT:-}" ] && trap 'tar czf "$OUT/logs.tgz" -C "$O" . 2>/dev/null' EXIT
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$O/device.txt"
git log -1 --format=%H > "$O/commit.txt" 2>/dev/null

# build_or_exit [make targets and variables]: builds (log: $O/build.log); a failure prints
# its error lines and ends the script.
build_or_exit() {
    make -j16 "${@:-all}" > "$O/build.log" 2>&1 || { echo "BUILD FAILED"; grep -E "error" "$O/build.log" | head -30; exit 1; }
}

# build_variant NAME FLAGS TARGET: the same tree built with EXTRA_NVCCFLAGS=FLAGS into
# build-NAME/ (TARGET under it; log: $O/build-NAME.log); a failure is reported, not fatal.
build_variant() {
    make -j16 BUILD=build-$1 EXTRA_NVCCFLAGS="$2" build-$1/$3 > "$O/build-$1.log" 2>&1 || echo "$1 build FAILED"
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
