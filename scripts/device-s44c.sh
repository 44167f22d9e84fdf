#!/bin/bash
# Session 44 run 3: tall FP8 tiles (`--block-n OP=256`: 256 weight rows a megakernel GEMM
# tile, two accumulator chains a warpgroup; MRT_GEMM_FP8_TALL), all built on the development
# machine and carried: build/ (megartp, test_mega_prefix, test_mega, test_gemm_fp8 and the
# sanitizer build of test_mega_prefix as test_mega_prefix_san) and build-old/ (megartp of
# e24ae32, before the tall kind). The sanitizer build is of 12:05 (the tall dispatch then in the
# kernel body, the tall tile the same at TN 8). Checks (the tests,
# serial = mega digests with the tall plans, the three sanitizers on the reduced step with a
# tall D0), then A B at five shapes: old default / new default / new D0 tall / new D0 and B0
# tall (B0's split as planned, 3, and 6: 66 tiles of 8 K blocks), a trace of three plans at
# M=16 KV=8192, and the default at M=64 / 128 old / new.
# Run: sh scripts/pack-builds.sh build build-old build/tests/gpu/test_mega_prefix
#      build/tests/gpu/test_mega build/tests/gpu/test_gemm_fp8 /tmp/san/test_mega_prefix_san;
#      timeout 560 bash scripts/device-s44c.sh   (carry build-pack)
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
unpack_builds
{
gpu_tests 200 "test_mega_prefix" "test_mega" "test_gemm_fp8"
grep -h "NoOp" "$O/test_mega.log" | tail -1
DIGEST_ARGS="--block-n D0=256,B0=256" run_digests "16 2 8192" "32 2 1024" "1 1 8192"
tiny_sanitize 60 build/tests/gpu/test_mega_prefix_san final
echo "t=$((SECONDS - t0)) s"
for s in "16 2 8192" "16 2 8192" "16 2 1024" "1 1 8192" "16 2 65536"; do
    mega_at build-old old "$s"
    mega_at build dflt "$s"
    mega_at build d0t "$s" --block-n D0=256
    mega_at build d0b0t "$s" --block-n D0=256,B0=256
    mega_at build d0b0t6 "$s" --block-n D0=256,B0=256 --split B0=6,D1=2 --chunk E1=256
done
echo "t=$((SECONDS - t0)) s"
for s in "64 2 8192" "128 2 1024"; do
    mega_at build-old old "$s"
    mega_at build dflt "$s"
done
echo "t=$((SECONDS - t0)) s"
mega_trace build dflt | grep -E "^  (A0|B0|B1|C0|D1|D0|D2|E1|F1) |critical|span"
mega_trace build d0t --block-n D0=256 | grep -E "^  (A0|B0|B1|C0|D1|D0|D2|E1|F1) |critical|span"
mega_trace build d0b0t --block-n D0=256,B0=256 | grep -E "^  (A0|B0|B1|C0|D1|D0|D2|E1|F1) |critical|span"
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
