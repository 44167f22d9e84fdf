#!/usr/bin/env python3
"""Per-op medians of the gaps between a megakernel trace's phase stamps, in a given order.

  python3 scripts/trace_phases.py TRACE.json "input ready" "weights issued" visible "compute done"

prints, for each op, its task count and the median (p10, p90) of each consecutive gap in us.
For probe builds whose phases mean something else (-DMRT_GEMM_PROBE: an fp8 GEMM tile's
"weights issued" is K block 0's data ready, "visible" the last K block's).

  python3 scripts/trace_phases.py --ordered TRACE.json PHASE...

counts only the tasks whose stamps are in the given order (e.g. -DMRT_MEGA_FIN_PROBE=2, where a
member whose group 0 got no job keeps the instruction's own stamps)."""
import signal
import json
import sys


def pct(v, q):
    v = sorted(v)
    return v[min(len(v) - 1, int(q * (len(v) - 1) + 0.5))]


def main():
    args = sys.argv[1:]
    ordered = bool(args) and args[0] == "--ordered"
    if ordered:
        args = args[1:]
    if len(args) < 3:
        sys.exit(__doc__)
    names = args[1:]
    ev = json.load(open(args[0]))["traceEvents"]
    ops = {}
    for e in ev:
        a = e.get("args", {})
        if e.get("ph") != "X" or "task" not in a or any(n not in a for n in names):
            continue
        r = [a[n] for n in names]
        if ordered and any(r[i + 1] < r[i] for i in range(len(r) - 1)):
            continue
        ops.setdefault(e["cat"], []).append(r)
    print("op    tasks | " + " | ".join("%s -> %s" % (names[i], names[i + 1]) for i in range(len(names) - 1)))
    for op, rows in ops.items():
        cells = []
        for i in range(len(names) - 1):
            d = [r[i + 1] - r[i] for r in rows]
            cells.append("%6.2f (%6.2f, %6.2f)" % (pct(d, 0.5), pct(d, 0.1), pct(d, 0.9)))
        print("%-4s %6d | %s" % (op, len(rows), " | ".join(cells)))


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # piped into head: stop quietly
    main()
