#!/usr/bin/env python3
"""A kernel's warp stall samples by function and source file: an Nsight Compute source page
(SASS, with stall reasons) joined with the same build's line-annotated SASS by offset.

  ncu --import REP.ncu-rep --page source --csv --print-source sass > SRC.csv
  cuobjdump -xelf all build/src/cuda/mega.o && nvdisasm -g -c mega.*.cubin > mega.sass
  python3 scripts/stalls_by_file.py SRC.csv mega.sass KERNEL [N [FILE]]

prints per function (the kernel body and each callee in its section) and per innermost
source file: stall samples, their share, and the N largest reasons (stall_no_instruction is
an instruction fetch that missed); given FILE (e.g. topk.cuh), then its 30 source lines with
the most samples (innermost line, with where it was inlined)."""
import signal
import collections
import sys

from sass_stalls import num, source_page
from spill_lines import sass_instructions


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    n = int(sys.argv[4]) if len(sys.argv) > 4 else 3
    only = sys.argv[5] if len(sys.argv) > 5 else None
    ins = list(sass_instructions(sys.argv[2], sys.argv[3]))
    where = {off: (fn, loc.split(":")[0]) for fn, loc, off, _ in ins}
    line_of = {off: loc for fn, loc, off, _ in ins if loc.split(":")[0] == only}
    by_line = collections.Counter()
    line_why = collections.defaultdict(collections.Counter)
    head, body, si = source_page(sys.argv[1])
    ai = head.index("Address")
    reasons = [(i, c) for i, c in enumerate(head) if c.startswith("stall_") and "Not Issued" not in c]
    base = min(int(r[ai], 16) for r in body)
    tot = collections.Counter()
    why = collections.defaultdict(collections.Counter)
    unmapped = 0
    for r in body:
        s = num(r[si])
        if not s:
            continue
        key = where.get(int(r[ai], 16) - base)
        if key is None:
            unmapped += s
            continue
        tot[key] += s
        for i, c in reasons:
            why[key][c] += num(r[i])
        loc = line_of.get(int(r[ai], 16) - base)
        if loc:
            by_line[loc] += s
            for i, c in reasons:
                line_why[loc][c] += num(r[i])
    all_s = sum(tot.values()) + unmapped
    print("stall samples %d (%d at offsets the SASS does not list)" % (all_s, unmapped))
    for key, s in tot.most_common():
        top = ", ".join("%s %d" % (c[6:], v) for c, v in why[key].most_common(n) if v)
        print("%-48s %-26s %6d %5.1f%%  %s" % (key[0], key[1], s, 100.0 * s / all_s, top))
    if only:
        print("%s by line (%d samples)" % (only, sum(by_line.values())))
        for loc, s in by_line.most_common(30):
            top = ", ".join("%s %d" % (c[6:], v) for c, v in line_why[loc].most_common(n) if v)
            print("  %-60s %6d  %s" % (loc, s, top))


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # piped into head: stop quietly
    main()
