#!/bin/sh
# Packs megartp binaries built on this machine for a device run: DIR/megartp, stripped and
# gzipped, to build-pack/DIR.gz (~7 MB against 28: the device tool carries at most 64 MiB, two
# binaries as they are, nine packed); device-common.sh's unpack_builds puts each back at
# DIR/megartp on the device.
#   sh scripts/pack-builds.sh build build-stop1 ...   (then carry build-pack)
set -e
rm -rf build-pack
mkdir -p build-pack
for d in "$@"; do
    strip -o build-pack/megartp.tmp "$d/megartp"
    gzip -6 -c build-pack/megartp.tmp > "build-pack/$(basename "$d").gz"
done
rm -f build-pack/megartp.tmp
ls -l build-pack
