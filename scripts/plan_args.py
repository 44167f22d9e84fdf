#!/usr/bin/env python3
"""megartp bench arguments for a plan-option candidate at one shape (scripts/device-s27c.sh).

usage: plan_args.py BENCH_OUTPUT DELTA
BENCH_OUTPUT: a `megartp bench glm5-prefix` log of the default plan at the shape; its plan line
says what tuning chose ("tuned: --split D1=2 --chunk E1=256", or nothing). DELTA: options to
change on top of that, e.g. "split:B0=3", "chunk:E1=128", "policy:roundrobin", several
separated by "+". Prints the whole argument list: the tuned split and chunk with the delta's
entries replacing or joining them (an explicit --split or --chunk turns tuning off, so the
tuned ones must be passed too)."""
import re
import sys


def main():
    text = open(sys.argv[1]).read()
    m = re.search(r"tuned: (.*)", text)
    tuned = m.group(1) if m else ""
    opts = {"split": {}, "chunk": {}}
    for kind in ("split", "chunk"):
        t = re.search(r"--%s (\S+)" % kind, tuned)
        if t:
            for kv in t.group(1).split(","):
                k, v = kv.split("=")
                opts[kind][k] = v
    policy = None
    for d in sys.argv[2].split("+"):
        kind, val = d.split(":")
        if kind == "policy":
            policy = val
        else:
            k, v = val.split("=")
            opts[kind][k] = v
    args = []
    if policy:
        args += ["--policy", policy]
    for kind in ("split", "chunk"):
        if opts[kind]:
            args += ["--" + kind, ",".join("%s=%s" % kv for kv in opts[kind].items())]
    print(" ".join(args))


if __name__ == "__main__":
    main()
