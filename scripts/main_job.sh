#!/bin/sh
# `make run`: on a GPU machine, the benchmark of every executor that exists; without one,
# one GLM-5 prefix step on the CPU executor (M=16, batch 2, KV=8192), checked against the
# naive reference.
megartp=$1
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1 && "$megartp" help | grep -q '^  bench'; then
    exec "$megartp" bench glm5-prefix --m 16 --batch 2 --kv 8192 --modes serial,cmp,mega
fi
if "$megartp" help | grep -q '^  run'; then
    exec "$megartp" run glm5-prefix --backend cpu --m 16 --batch 2 --kv 8192
fi
exec "$megartp" plan glm5-prefix --m 16 --batch 2 --kv 8192
