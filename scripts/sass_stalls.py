#!/usr/bin/env python3
"""Where a kernel's warps stall, per SASS instruction, from an Nsight Compute source page:

  ncu --import REP.ncu-rep --page source --csv --print-source sass > SRC.csv
  python3 scripts/sass_stalls.py SRC.csv [N]

prints the columns found, the N instructions with the most stall samples (address, samples,
the three largest reasons, the instruction), and the samples within 24 instructions after
each HGMMA or QGMMA (a GEMM consumer's k-loop) against the kernel's total."""
import signal
import csv
import sys


def num(s):
    try:
        return float(str(s).replace(",", ""))
    except ValueError:
        return 0.0


def source_page(path):
    """(columns, rows, index of the all-samples column) of an ncu source page CSV (also
    scripts/stalls_by_file.py's reader)"""
    rows = list(csv.reader(open(path, newline="")))
    hi = next(i for i, r in enumerate(rows) if any("Source" == c.strip() for c in r))
    head = [c.strip() for c in rows[hi]]
    body = [r for r in rows[hi + 1:] if len(r) == len(head)]
    return head, body, next(i for i, c in enumerate(head) if c.startswith("Warp Stall Sampling (All"))


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    head, body, allc = source_page(sys.argv[1])
    src = head.index("Source")
    reasons = [i for i, c in enumerate(head) if c.startswith("stall_") or "Stall Reason" in c]
    print("columns:", "; ".join(head))
    total = sum(num(r[allc]) for r in body)
    print("instructions %d, stall samples %d" % (len(body), total))
    top = sorted(range(len(body)), key=lambda i: -num(body[i][allc]))[:n]
    for i in top:
        r = body[i]
        rs = sorted(((num(r[j]), head[j]) for j in reasons), reverse=True)[:3]
        print("%5d %7d  %-60s %s" % (i, num(r[allc]), " ".join("%s=%d" % (h[:22], v) for v, h in rs if v), r[src].strip()[:90]))
    near = set()
    for i, r in enumerate(body):
        if "GMMA" in r[src]:  # HGMMA (bf16) and QGMMA (fp8)
            near.update(range(max(0, i - 24), min(len(body), i + 24)))
    s = sum(num(body[i][allc]) for i in near)
    print("samples within 24 instructions of a wgmma: %d of %d (%.1f%%)" % (s, total, 100.0 * s / max(total, 1)))


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # piped into head: stop quietly
    main()
