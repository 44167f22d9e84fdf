# Sourced by the device scripts (scripts/device-*.sh): repository root, $O = the log folder
# ($OUT, the device tool's return folder, or /tmp/out), CUDA on PATH, the device and commit.
set -u
cd "$(dirname "$0")/.."
O=${OUT:-/tmp/out}; mkdir -p "$O"
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$O/device.txt"
git log -1 --format=%H > "$O/commit.txt" 2>/dev/null
