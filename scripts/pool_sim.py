#!/usr/bin/env python3
"""Bound what task pools (docs/POOLS.md) could buy, from a megakernel trace of GLM-5.

Usage: pool_sim.py TRACE.json   (from `megartp trace glm5-prefix --backend mega -o TRACE.json`,
default plan: every worker runs D1, then D0, E1, D2 from its queue; F1 on 16 workers)

Each worker is free from the end of its last task before D0 (A0, B0, C0, B1, D1, as traced).
From there D0's and E1's 128 tasks each are list-scheduled with the trace's median durations
(D0: visible -> published, its weights stream from the moment it is visible; E1, D2, F1:
from max(visible, input ready) to published), E1 not before its input was ready in the
trace. Orders compared:
  static    a worker takes D0 tiles while there are any, then E1 (the default queues)
  pool      a worker takes E1 first once its input is ready, else D0 (POOL(E1 | D0))
  quota K   before E1 is ready at most K D0 tiles are started; other workers wait for E1
Then D2 (each task after its pair of D0 tiles, on the first free worker) and F1 (after
every E1 task). Medians, no contention model: a bound on the order's effect, not a forecast
(on session 13 run 3's default trace the static order gives 88.5 us against 95.9 measured).
"""
import signal
import heapq
import json
import statistics
import sys


def load(path):
    d = json.load(open(path))
    return [e for e in (d["traceEvents"] if isinstance(d, dict) else d) if e.get("ph") == "X"]


def main(path):
    ev = load(path)
    a = lambda e, k: e["args"][k]
    med = lambda op, start: statistics.median(a(e, "published") - start(e) for e in ev if e["cat"] == op)
    ready = lambda e: max(a(e, "visible"), a(e, "input ready"))
    d0, e1, d2, f1 = med("D0", lambda e: a(e, "visible")), med("E1", ready), med("D2", ready), med("F1", ready)
    e1_ready = min(a(e, "input ready") for e in ev if e["cat"] == "E1")
    free = {}
    for e in ev:
        if e["cat"] in ("A0", "B0", "C0", "B1", "D1"):
            free[e["tid"]] = max(free.get(e["tid"], 0.0), a(e, "published"))
    step = max(a(e, "published") for e in ev)
    print(f"trace: step {step:.2f} us; E1's input ready at {e1_ready:.2f}; medians D0 {d0:.2f} (visible -> "
          f"published), E1 {e1:.2f}, D2 {d2:.2f}, F1 {f1:.2f}")

    def run(first_e1, quota):
        h = [(t, w) for w, t in free.items()]
        heapq.heapify(h)
        n_d0 = n_e1 = 128
        started = 0
        d0_end, e1_end = [], []
        while n_d0 or n_e1:
            t, w = heapq.heappop(h)
            if t < e1_ready and n_d0 and started < quota:
                n_d0, started, t2 = n_d0 - 1, started + 1, t + d0
                d0_end.append(t2)
            elif t < e1_ready and (first_e1 or not n_d0):
                t2 = e1_ready  # wait for E1's input
            elif n_e1 and (first_e1 or not n_d0):
                n_e1, t2 = n_e1 - 1, max(t, e1_ready) + e1
                e1_end.append(t2)
            else:
                n_d0, t2 = n_d0 - 1, t + d0
                d0_end.append(t2)
            heapq.heappush(h, (t2, w))
        s = sorted(d0_end)
        d2_end = 0.0
        for r in sorted(max(s[2 * i], s[2 * i + 1]) for i in range(64) for _ in range(2)):
            t, w = heapq.heappop(h)
            t2 = max(t, r) + d2
            d2_end = max(d2_end, t2)
            heapq.heappush(h, (t2, w))
        f1_end = max(e1_end) + f1
        return max(d0_end), max(e1_end), d2_end, f1_end

    rows = [("static", False, 128), ("pool", True, 128)] + [(f"quota {k}", True, k) for k in (96, 64, 32)]
    for name, first_e1, quota in rows:
        r = run(first_e1, quota)
        print(f"{name:9s} D0 done {r[0]:6.1f}  E1 done {r[1]:6.1f}  D2 done {r[2]:6.1f}  F1 done {r[3]:6.1f}  "
              f"step ~{max(r[2], r[3]):6.1f} us")


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # piped into head: stop quietly
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
