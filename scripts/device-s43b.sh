#!/bin/bash
# Session 43 run 2: plans by CLI options alone at the target shape (and B0's split at M=64 and
# M=128), from build/ as carried (2047a92's kernels; no device build), each `megartp bench
# --modes mega` (mega_at); the default plan three times between them for drift. Then the GEMM
# probe with "visible" = the scales landed (build-sx/, -DMRT_GEMM_PROBE -DMRT_GEMM_PROBE_SX,
# its lane-0 wait fixed: run 1 hung there) at M=128 KV=1024 and M=16 KV=8192. Then the
# finalization's claims ahead (build-ca/: -DMRT_MEGA_CLAIM_AHEAD=1, the default since) against
# build/ at four shapes, and its digests against serial's at two.
# Run: sh scripts/pack-builds.sh build build-sx build-ca; timeout 540 bash scripts/device-s43b.sh (carry build-pack)
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
unpack_builds
T="16 2 8192"
{
mega_at build dflt1 "$T"
i=0
for v in "--split B0=4,D1=2 --chunk E1=256" "--split A0=1,B0=4,D1=2 --chunk E1=256" \
    "--split B0=6,D1=2 --chunk E1=256" "--split B0=2,D1=2 --chunk E1=256" \
    "--split D1=1 --chunk E1=256" "--split D1=1" "--split D1=4 --chunk E1=256" \
    "--split D1=2 --chunk E1=512" "--split D1=2 --chunk E1=128" \
    "--split D1=2,F1=2 --chunk E1=256" "--split D1=2,D0=2 --chunk E1=256" \
    "--split D1=2,C0=8 --chunk E1=256" "--split D1=2,B1=8 --chunk E1=256" \
    "--policy critical-path --no-tune" "--policy roundrobin --split D1=2 --chunk E1=256" \
    "--policy roundrobin --split D1=2 --chunk E1=256 --order A0,B0,C0,B1,D0,D1,E1,D2,F1" \
    "--split D1=2 --chunk E1=256 --place D1=0-63,E1=0-63,F1=0-15,D0=64-131,D2=64-131" \
    "--split D1=2 --chunk E1=256 --place D1=68-131,E1=68-131,F1=116-131,D0=0-127,D2=0-127"; do
    i=$((i + 1))
    echo "v$i: $v"
    mega_at build v$i "$T" $v
    [ $i = 9 ] && mega_at build dflt2 "$T"
done
mega_at build dflt3 "$T"
for s in "64 2 8192" "128 2 1024"; do
    mega_at build dflt "$s"
    for b in 2 3 4 6; do mega_at build b0s$b "$s" --split B0=$b,D1=2; done
done
echo "t=$((SECONDS - t0)) s"
for s in "128 2 1024" "16 2 8192"; do
    trace_phases_at build-sx sx "$s" "B0|B1|D1|D0" "input ready" visible "weights issued" "compute done"
done
echo "t=$((SECONDS - t0)) s"
for s in "16 2 8192" "16 2 8192" "64 2 8192" "128 2 1024" "128 2 8192"; do
    mega_at build old "$s"
    mega_at build-ca ca "$s"
done
for s in "16 2 8192" "128 2 1024"; do
    set -- $s
    for be in serial mega; do
        timeout 60 build-ca/megartp run glm5-prefix --backend $be --m $1 --batch $2 --kv $3 > "$O/run-ca-$be-$1.txt" 2>&1
        echo "ca run $be M=$1 KV=$3 rc=$? $(grep -E 'pass|digest' "$O/run-ca-$be-$1.txt" | tr '\n' ' ')"
    done
done
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
