#!/bin/bash
# The next session's first device run (written 2026-11-29, end of session 4): HEAD differs
# from the last verified commit (64c8017) only in comments, docs and the removal of a build
# switch that left the default code unchanged, so one verification run suffices: the
# megakernel's tests, the three executors' step, the mega trace and compute-sanitizer
# (device-s4g.sh). The experiments that follow are in docs/MEGAKERNEL.md, "Next steps".
exec bash "$(dirname "$0")/device-s4g.sh"
