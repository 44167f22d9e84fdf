#!/bin/bash
# Session 45 run 4: (1) where the E1 tile's spills are (mrt_mega_il_tile_wg: 92 / 212 bytes at
# TN 16 in the default build, 32 / 48 at TN 128, 144 / 372 in the tall build, from the same
# PTX): nvdisasm's line-annotated SASS of build/src/cuda/mega.o (carried), spill_lines.py;
# (2) D2's ring at 3 stages (its whole 96-KB tile) and 1, against the default 2, A B at M=16
# KV=8192 and 1024, M=1 KV=8192, and a trace of D2=3. The default build of run 1.
# Run: timeout 300 bash scripts/device-s45d.sh   (carry build-pack of run 1, build/src/cuda/mega.o)
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
unpack_builds
{
S=/tmp/sass; mkdir -p $S && (cd $S && cuobjdump -xelf all "$OLDPWD/build/src/cuda/mega.o" > /dev/null 2>&1; \
    nvdisasm -g -c *.cubin > mega.sass 2> nvdisasm.err; echo "sass rc=$? $(wc -l < mega.sass) lines")
for k in mrt_mega_kernelILb0ELi16 mrt_mega_kernelILb0ELi128; do
    python3 scripts/spill_lines.py $S/mega.sass $k 200 > "$O/spills-$k.txt"
    head -1 "$O/spills-$k.txt"; grep -E "index_logits|il_tile|mega.cu:(1[6-9][0-9]|20[0-9])" "$O/spills-$k.txt" | head -40
done
echo "t=$((SECONDS - t0)) s"
MRT_MEGA_STAGES=D2=3 mega_trace build d2s3 | grep -E "^  (A0|B0|B1|C0|D1|D0|D2|E1|F1) |critical|span"
for s in "16 2 8192" "16 2 1024" "1 1 8192" "16 2 8192"; do
    mega_at build dflt "$s"
    MRT_MEGA_STAGES=D2=3 mega_at build d2s3 "$s"
    MRT_MEGA_STAGES=D2=1 mega_at build d2s1 "$s"
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
