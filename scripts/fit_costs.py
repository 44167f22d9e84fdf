#!/usr/bin/env python3
"""Fit the placement's cost model (src/core/schedule.c) to megakernel traces, and check it.

  python3 scripts/fit_costs.py [--gap US] PLAN.json TRACE.json [PLAN.json TRACE.json ...]

Each pair: `megartp plan glm5-prefix ARGS --json > PLAN.json` and `megartp trace glm5-prefix
--backend mega ARGS -o TRACE.json` with the same ARGS and commit (the plan's task_costs hold
the model's inputs task by task: tokens, bytes, flops, and its current estimate, and
cost_gap_us: the worker's step each estimate includes; --gap US gives it for plans printed by
builds before that field, session 41's runs included).

An instruction's measured time is its "published" stamp less the later of its "visible"
stamp and its producers' publication (so not its wait; a worker's step between instructions
is the gap, reported apart). Per op and pair the medians of those times and of the inputs
are one sample; per instruction kind a least-squares fit over the samples of the terms
schedule.c uses for that kind (TERMS below). Printed: each kind's coefficients in
schedule.c's order (fixed, per_token, bytes_x, per_mflop) with the fit's median and worst
relative error, and per pair the measured span against the queues replayed with (a) each
instruction's own measured time (the check that queues + events explain the span) and (b)
the fitted costs: the estimate the refitted model would give that plan. Last, per pair and op,
the median measured time of its tasks against the median of the plan's cost for them less the
gap (where the table is wrong: session 38's M=64 KV=65536, D0 19.5 measured against 26.7), and
gemm_fp8 refit with one per-token term an op, its spans against the table's.
Session 23 (docs/MEGAKERNEL.md) fitted the model with this procedure."""
import json
import re
import signal
import statistics
import sys

SM_BYTES_PER_US = 4.3e6 / 132.0
COST_GAP_US = None  # the plans' cost_gap_us (schedule.c's MRT_COST_GAP_US): in a task's cost, not in its measured time
# the terms each kind's cost uses (schedule.c's mrt_cost table): 1, tokens, bytes_us, mflops
TERMS = {
    "add_rmsnorm_quant": (1, 0, 0, 0),
    "gemm_fp8": (1, 1, 1, 0),
    "gemm_bf16": (1, 1, 0, 0),
    "bmm_bf16": (1, 1, 0, 0),
    "index_logits": (1, 0, 1, 1),
    "topk": (1, 0, 1, 0),
}


def expand(names):
    out = []
    for n in names:
        m = re.match(r"(\w+)\[(\d+)(?:-(\d+))?\]$", n)
        a, b = int(m.group(2)), int(m.group(3) or m.group(2))
        out += ["%s[%d]" % (m.group(1), i) for i in range(a, b + 1)]
    return out


def load(plan_path, trace_path):
    p = json.load(open(plan_path))
    preds = {}
    for e in p["event_list"]:
        prod = expand(e["producers"])
        for c in expand(e["consumers"]):
            preds.setdefault(c, set()).update(prod)
    ev = json.load(open(trace_path))["traceEvents"]
    tr = {e["name"]: e["args"] for e in ev if e.get("ph") == "X" and "task" in e.get("args", {})}
    kinds = {o["name"]: o["kind"] for o in p["ops"]}
    costs = {c[0]: c[1:] for c in p["task_costs"]}
    return p, p["queues"], preds, tr, kinds, costs


def measured(queues, preds, tr):
    """per task: time from the later of visible and its inputs to published; gap before it"""
    d, gap = {}, {}
    for q in queues:
        prev = 0.0
        for t in q:
            a = tr[t]
            ready = max([a["visible"]] + [tr[x]["published"] for x in preds.get(t, ())])
            d[t], gap[t], prev = a["published"] - ready, a["visible"] - prev, a["published"]
    return d, gap


def tasks_by_op(names):
    """op name -> its task names, in the order given"""
    by = {}
    for t in names:
        by.setdefault(t.split("[")[0], []).append(t)
    return by


def replay(queues, preds, cost, gap):
    """the queues in order, a task starting when its worker is free (plus the gap) and its
    producers have published"""
    fin, head, free = {}, [0] * len(queues), [0.0] * len(queues)
    left = sum(len(q) for q in queues)
    while left:
        progress = False
        for w, q in enumerate(queues):
            while head[w] < len(q):
                t = q[head[w]]
                ps = preds.get(t, ())
                if any(x not in fin for x in ps):
                    break
                fin[t] = free[w] = max([free[w] + gap(t)] + [fin[x] for x in ps]) + cost(t)
                head[w], left, progress = head[w] + 1, left - 1, True
        if not progress:
            sys.exit("replay: the queues deadlock (plan and trace from different plans?)")
    return max(fin.values())


def lstsq(rows, ys):
    n = len(rows[0])
    m = [[sum(r[i] * r[j] for r in rows) for j in range(n)] + [sum(r[i] * y for r, y in zip(rows, ys))] for i in range(n)]
    for i in range(n):
        piv = max(range(i, n), key=lambda r: abs(m[r][i]))
        m[i], m[piv] = m[piv], m[i]
        if abs(m[i][i]) < 1e-12:
            return None
        for r in range(n):
            if r != i:
                f = m[r][i] / m[i][i]
                m[r] = [x - f * z for x, z in zip(m[r], m[i])]
    return [m[i][n] / m[i][i] for i in range(n)]


def terms(tokens, nbytes, flops):
    """schedule.c's terms: 1, tokens, bytes at an SM's share (us), MFLOP"""
    return (1.0, tokens, nbytes / SM_BYTES_PER_US, flops * 1e-6)


def features(kind, tokens, nbytes, flops):
    return [v for v, use in zip(terms(tokens, nbytes, flops), TERMS[kind]) if use]


def main():
    global COST_GAP_US
    args = sys.argv[1:]
    given = None
    if args[:1] == ["--gap"] and len(args) > 1:
        given, args = float(args[1]), args[2:]
    if len(args) < 2 or len(args) % 2:
        sys.exit(__doc__)
    pairs = [load(args[i], args[i + 1]) for i in range(0, len(args), 2)]
    gaps_in = {p.get("cost_gap_us", given) for p, *_ in pairs}
    if None in gaps_in or len(gaps_in) != 1:
        sys.exit(f"fit_costs.py: the plans' cost_gap_us {sorted(map(str, gaps_in))}: one value wanted "
                 "(plans printed by builds before the field, session 41's runs included, lack it: --gap US)")
    COST_GAP_US = gaps_in.pop()
    meas = [measured(queues, preds, tr) for _, queues, preds, tr, _, _ in pairs]  # (time, gap) per pair
    samples, gaps = {}, []
    for (p, queues, preds, tr, kinds, costs), (d, gap) in zip(pairs, meas):
        gaps += [gap[t] for q in queues for t in q[1:]]
        for op, ts in tasks_by_op(d).items():
            med = lambda i: statistics.median(costs[t][i] for t in ts)
            samples.setdefault(kinds[op], []).append((op, statistics.median(d[t] for t in ts), med(0), med(1), med(2)))
    gap_us = statistics.median(gaps)
    print("gap between instructions: median %.2f us" % gap_us)
    print("kind                 samples  fixed  per_token  bytes_x  per_mflop | rel err median / worst")
    fitted = {}
    for kind, rows in sorted(samples.items()):
        if kind not in TERMS:
            continue
        x = [features(kind, tok, nb, fl) for _, _, tok, nb, fl in rows]
        y = [s[1] for s in rows]
        c = lstsq(x, y) if len(rows) >= len(x[0]) else None
        if c is None:
            print("%-20s %7d  (too few or collinear samples)" % (kind, len(rows)))
            continue
        err = [abs(sum(a * b for a, b in zip(c, xi)) - yi) / yi for xi, yi in zip(x, y)]
        it = iter(c)
        full = [next(it) if use else 0.0 for use in TERMS[kind]]
        fitted[kind] = full
        print("%-20s %7d  %5.2f  %9.3f  %7.3f  %9.3f | %.2f / %.2f" % ((kind, len(rows)) + tuple(full) +
                                                                      (statistics.median(err), max(err))))
    print("\npair  measured span | replay: own times  fitted costs  plan's estimate")
    for i, ((p, queues, preds, tr, kinds, costs), (d, gap)) in enumerate(zip(pairs, meas)):
        span = max(a["published"] for a in tr.values())
        own = replay(queues, preds, lambda t: d[t], lambda t: gap[t])

        def cost(t, kinds=kinds, costs=costs, d=d):
            kind = kinds[t.split("[")[0]]
            if kind not in fitted:  # a kind without a fit keeps its measured times
                return d[t]
            return sum(c * v for c, v in zip(fitted[kind], terms(*costs[t][:3])))

        fit = replay(queues, preds, cost, lambda t: gap_us)
        print("%4d  %13.1f | %17.1f  %12.1f  %15.1f" % (i, span, own, fit, p["estimate_us"]))
    # where the table is wrong, op by op: the median measured time of the op's tasks against the
    # median of the plan's cost for them less the gap (its task_costs: the table's, gap included)
    print("\npair  op: measured / plan's cost less the gap, a task (medians, us), in plan order")
    for i, ((p, queues, preds, tr, kinds, costs), (d, _)) in enumerate(zip(pairs, meas)):
        by_op = tasks_by_op(c[0] for c in p["task_costs"])
        print("%4d  %s" % (i, "  ".join("%s %.1f / %.1f" % (op, statistics.median(d[t] for t in ts),
                                                          statistics.median(costs[t][3] for t in ts) - COST_GAP_US)
                                         for op, ts in by_op.items())))

    by_op_fp8(pairs, meas)


def by_op_fp8(pairs, meas):
    """gemm_fp8 with one per-token term an op (fixed and bytes_x shared), fitted to the per-op
    medians, and every pair's queues replayed with it (other kinds at the plan's cost): whether
    telling the GEMMs' epilogues apart explains the spans better than the table (session 38);
    meas: each pair's measured(), as main took them"""
    ops = sorted({op for p, _, _, _, kinds, _ in pairs for op, k in kinds.items() if k == "gemm_fp8"})
    rows, ys = [], []
    for (p, queues, preds, tr, kinds, costs), (d, _) in zip(pairs, meas):
        by = tasks_by_op(d)
        for op in ops:
            if op not in by:
                continue
            med = lambda i: statistics.median(costs[t][i] for t in by[op])
            rows.append([1.0, med(1) / SM_BYTES_PER_US] + [med(0) if o == op else 0.0 for o in ops])
            ys.append(statistics.median(d[t] for t in by[op]))
    c = lstsq(rows, ys) if len(rows) > len(ops) + 2 else None
    if c is None:
        print("\ngemm_fp8 by op: too few or collinear samples")
        return
    print("\ngemm_fp8 with a per-token term an op: fixed %.2f, bytes_x %.3f, a token %s" %
          (c[0], c[1], ", ".join("%s %.3f" % (o, v) for o, v in zip(ops, c[2:]))))
    print("pair  measured span | replay: table  by op")
    errs = ([], [])
    for i, (p, queues, preds, tr, kinds, costs) in enumerate(pairs):
        span = max(a["published"] for a in tr.values())

        def cost(t, by_op, costs=costs):
            op = t.split("[")[0]
            if by_op and op in ops:
                return c[0] + c[1] * costs[t][1] / SM_BYTES_PER_US + c[2 + ops.index(op)] * costs[t][0]
            return costs[t][3] - COST_GAP_US

        r = [replay(queues, preds, lambda t, b=b: cost(t, b), lambda t: COST_GAP_US) for b in (False, True)]
        for e, v in zip(errs, r):
            e.append(abs(v - span) / span)
        print("%4d  %13.1f | %13.1f  %5.1f" % (i, span, r[0], r[1]))
    print("mean |error|: table %.1f%%, by op %.1f%%" % (100 * statistics.mean(errs[0]), 100 * statistics.mean(errs[1])))


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    main()
