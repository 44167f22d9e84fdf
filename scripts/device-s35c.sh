#!/bin/bash
# Session 35 run 3 (2026-12-01): E1's keys ahead by TMA (d24ccc4's mechanism with the ahead
# inlined in the GEMM tile and the tile's own cleanup; the GEMM tile's warp 3 issues one box
# a cache block and one bulk copy of its scales, instead of run 2's cp.async from 32 lanes)
# against 8c9a4c7: the same steps as run 2. Carry build/megartp and build-old/megartp.
# Run: timeout 400 bash scripts/device-s35c.sh
exec bash "$(dirname "$0")/device-s35b.sh"
