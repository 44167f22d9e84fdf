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
