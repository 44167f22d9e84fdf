#!/usr/bin/env python3
"""Per op of a megakernel trace (megartp trace --backend mega -o F.json): the medians of
visible -> weights issued, weights issued -> input ready and input ready -> computed over its
tasks, and of the same for the tasks reached after their input was ready (visible past the
op's first "input ready": those wait for nothing). Used by scripts/device-s27d.sh to compare
the prologue probes (-DMRT_MEGA_PRO_PROBE, -DMRT_MEGA_WAIT_PROBE), which move the stamps.

usage: trace_gaps.py TRACE.json [TRACE.json ...]"""
import json
import statistics
import sys


def main():
    for fn in sys.argv[1:]:
        ev = [e for e in json.load(open(fn))["traceEvents"] if e.get("ph") == "X"]
        print(fn)
        for op in sorted({e["cat"] for e in ev}):
            a = [e["args"] for e in ev if e["cat"] == op]
            first = min(x["input ready"] for x in a)
            late = [x for x in a if x["visible"] > first]

            def med(xs, f):
                return "%5.2f" % statistics.median(f(x) for x in xs) if xs else "    -"

            vw = lambda x: x["weights issued"] - x["visible"]
            wi = lambda x: x["input ready"] - x["weights issued"]
            ic = lambda x: x["compute done"] - x["input ready"]
            print("  %-3s %4d  vis->w %s w->in %s in->comp %s | late %3d: vis->w %s w->in %s" %
                  (op, len(a), med(a, vw), med(a, wi), med(a, ic), len(late), med(late, vw), med(late, wi)))


if __name__ == "__main__":
    main()
