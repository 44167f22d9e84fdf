#!/bin/sh
# Runs every CPU test binary, then the GPU tests when a GPU is present. Each test prints
# its own "N passed, N failed" line; this prints the totals as the last line.
build=$1; cpu_tests=$2; gpu_tests=$3
pass=0; fail=0; bad=""
count() { # adds the counts of a test's last "N passed, N failed" line
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$1" | tail -n 1)
    p=$(echo "$line" | sed -E 's/^([0-9]+) passed.*/\1/'); f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
    pass=$((pass + ${p:-0})); fail=$((fail + ${f:-0}))
}
for t in $cpu_tests; do
    log=$(mktemp)
    start=$(date +%s)
    if "$t" >"$log" 2>&1; then status=ok; else status=FAILED; bad="$bad $t"; fi
    count "$log"
    echo "$status  $t ($(( $(date +%s) - start )) s): $(tail -n 1 "$log")"
    [ "$status" = ok ] || { fail=$((fail + 1)); cat "$log"; }
    rm -f "$log"
done
if [ -n "$gpu_tests" ] && command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
    for t in $gpu_tests; do
        log=$(mktemp)
        if "$t" >"$log" 2>&1; then status=ok; else status=FAILED; bad="$bad $t"; fi
        count "$log"
        echo "$status  $t: $(tail -n 1 "$log")"
        [ "$status" = ok ] || { fail=$((fail + 1)); cat "$log"; }
        rm -f "$log"
    done
else
    echo "GPU tests skipped: no GPU here (nvidia-smi finds none)${gpu_tests:+; built:$gpu_tests}"
fi
echo
[ -z "$bad" ] || echo "failed:$bad"
echo "$pass passed, $fail failed"
[ -z "$bad" ]
