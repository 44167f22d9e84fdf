#!/bin/bash
# Session 15, run 3: A0's chunks in registers (add_rmsnorm_quant.cuh: run 2's ncu showed each
# loaded chunk stored to the stack and reloaded; the megakernel body's spill 308 -> 148 bytes
# of stores a thread, 648 -> 424 of loads at TN 16, by ptxas). Its tests (test_serial,
# test_mega_prefix: bytes against the reference and serial), A B A B against the old chunks
# (-DMRT_A0_STACK_CHUNKS, temporary), the A0 probe on the new code, M=64 / 128 for the
# record, and where the kernel body's remaining local-memory accesses come from
# (scripts/spill_lines.py on nvdisasm's line-annotated SASS).
# Run: timeout 570 bash scripts/device-s15c.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_variant stk -DMRT_A0_STACK_CHUNKS megartp &
build_variant a0p -DMRT_MEGA_A0_PROBE megartp &
build_or_exit build/megartp build/tests/gpu/test_serial build/tests/gpu/test_mega_prefix
wait
echo "builds $((SECONDS - t0)) s"
{
gpu_tests 150 "test_serial" "test_mega_prefix"
echo "t=$((SECONDS - t0)) s"
ab_bench serial,cmp,mega build build-stk
cp_bench build build-stk
echo "t=$((SECONDS - t0)) s"
mega_traces 400 build build-a0p
python3 scripts/trace_phases.py "$O/trace-build-a0p.json" "input ready" "weights issued" visible "compute done" 2>&1 | sed -n 1,2p
timeout 30 build-a0p/megartp trace glm5-prefix --backend mega --ops A0 -o "$O/a0p-16.json" > "$O/a0p-16.txt" 2>&1
echo "A0 alone probe rc=$? $(grep -E '^  A0 ' "$O/a0p-16.txt")"
python3 scripts/trace_phases.py "$O/a0p-16.json" "input ready" "weights issued" visible "compute done" 2>&1 | tail -1
for m in 64 128; do
    [ $((SECONDS - t0)) -gt 440 ] && break
    for b in build build-stk; do
        timeout 40 $b/megartp bench glm5-prefix --m $m --modes serial,mega --reps 50 > "$O/m$m-$b.md" 2>&1
        echo "M=$m $b rc=$? $(grep -E 'step, ' "$O/m$m-$b.md" | tr -s ' ' | cut -c1-80 | tr '\n' ' ')"
    done
done
echo "t=$((SECONDS - t0)) s"
mkdir -p "$O/sass" && (cd "$O/sass" && cuobjdump -xelf all "$OLDPWD/build/src/cuda/mega.o" > /dev/null 2>&1; \
    nvdisasm -g -c *.cubin > mega.sass 2> nvdisasm.err; echo "sass rc=$? $(wc -l < mega.sass) lines")
python3 scripts/spill_lines.py "$O/sass/mega.sass" mrt_mega_kernelILb0ELi16 60
awk '/\.text\./{on = index($0, "mrt_mega_kernelILb0ELi16") > 0} on' "$O/sass/mega.sass" | gzip > "$O/sass/mega16.sass.gz"
rm -f "$O"/sass/*.cubin "$O/sass/mega.sass"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
