#!/bin/sh
# Packs binaries built on this machine for a device run, stripped and gzipped (~7 MB against
# 28: the device tool carries at most 64 MiB, two binaries as they are, nine packed);
# device-common.sh's unpack_builds puts each back on the device. A folder DIR packs DIR/megartp
# (build-pack/DIR.gz, back at DIR/megartp); a GPU test binary named as a file
# (build/tests/gpu/NAME) packs to build-pack/tests-NAME.gz.bin (back at build/tests/gpu/NAME).
#   sh scripts/pack-builds.sh build build-stop1 build/tests/gpu/test_mega ...   (then carry build-pack)
set -e
rm -rf build-pack
mkdir -p build-pack
for d in "$@"; do
    if [ -f "$d" ]; then
        strip -o build-pack/megartp.tmp "$d"
        gzip -6 -c build-pack/megartp.tmp > "build-pack/tests-$(basename "$d").gz.bin"
    else
        strip -o build-pack/megartp.tmp "$d/megartp"
        gzip -6 -c build-pack/megartp.tmp > "build-pack/$(basename "$d").gz"
    fi
done
rm -f build-pack/megartp.tmp
ls -l build-pack
