#!/bin/bash
# Session 21 run 5 (2026-11-30): queue orders with E1 ahead of D0 again. Session 12 measured
# them 10 us slower when a D0 tile took 18 us; it takes 9.3 now, while E1's tiles reach their
# workers 10-15 us after their input is ready behind D0's (session 20 run 6's trace). All
# plan arguments (roundrobin), the default build, M=16 KV=8192 twice, then M=1 and M=64.
# Run: timeout 400 bash scripts/device-s21e.sh
. "$(dirname "$0")/device-common.sh"
t0=$SECONDS
build_or_exit build/megartp
{
echo "build $((SECONDS - t0)) s"
E="--order A0,B0,C0,B1,D1,E1,D0,D2,F1"
EF="--order A0,B0,C0,B1,D1,E1,F1,D0,D2"
variants() {
    mega_at build/ default-$2 "$1"
    mega_at build/ E-$2 "$1" $E
    mega_at build/ Ep-$2 "$1" $E --place F1=0-15,D0=16-131,D2=16-131
    mega_at build/ EF-$2 "$1" $EF
    mega_at build/ EFp-$2 "$1" $EF --place F1=0-15,D0=16-131,D2=16-131
    mega_at build/ EFq-$2 "$1" $EF --place F1=116-131,D0=0-115,D2=0-115
    mega_at build/ P1-$2 "$1" --split D1=2 --place D1=0-63,E1=0-63,F1=0-15,D0=64-131,D2=64-131
}
variants "16 2 8192" 1
variants "16 2 8192" 2
variants "1 1 8192" 1
variants "64 2 8192" 1
echo "t=$((SECONDS - t0)) s"
} 2>&1 | tee "$O/summary.txt"
