#!/bin/sh
# Runs every CPU test binary, then the GPU tests when a GPU is present. Each test prints
# its own "N passed, N failed" line; this prints the totals as the last line.
build=$1; cpu_tests=$2; gpu_tests=$3
pass=0; fail=0; bad=""
run_one() { # runs a test, adds the counts of its last "N passed, N failed" line
    log=$(mktemp); start=$(date +%s)
    if "$1" >"$log" 2>&1; then status=ok; else status=FAILED; bad="$bad $1"; fi
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
    p=$(echo "$line" | sed -E 's/^([0-9]+) passed.*/\1/'); f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
    pass=$((pass + ${p:-0})); fail=$((fail + ${f:-0}))
    echo "$status  $1 ($(( $(date +%s) - start )) s): $(tail -n 1 "$log")"
    [ "$status" = ok ] || { fail=$((fail + 1)); cat "$log"; }
    rm -f "$log"
}
for t in $cpu_tests; do run_one "$t"; done
if [ -n "$gpu_tests" ] && command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
    for t in $gpu_tests; do run_one "$t"; done
else
    echo "GPU tests skipped: no GPU here (nvidia-smi finds none)${gpu_tests:+; built:$gpu_tests}"
fi
echo
[ -z "$bad" ] || echo "failed:$bad"
echo "$pass passed, $fail failed"
[ -z "$bad" ]
