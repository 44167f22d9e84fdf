#!/bin/sh
# What `make test` needs beyond the compiler: Debian's chromium, for the test that renders
# the HTML trace timeline headless. Installed here when missing (as root, with apt).
command -v chromium >/dev/null 2>&1 && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing Debian's chromium for the trace timeline test..."
    (apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium) >/tmp/megartp-test-deps.log 2>&1 ||
        echo "could not install chromium (see /tmp/megartp-test-deps.log): the timeline test will fail"
else
    echo "chromium is missing and cannot be installed here (not root or no apt-get): the timeline test will fail"
fi
exit 0
