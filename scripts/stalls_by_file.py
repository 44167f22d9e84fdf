#!/usr/bin/env python3
"""A kernel's warp stall samples by function and source file: an Nsight Compute source page
(SASS, with stall reasons) joined with the same build's line-annotated SASS by offset.

  ncu --import REP.ncu-rep --page source --csv --print-source sass > SRC.csv
  cuobjdump -xelf all build/src/cuda/mega.o && nvdisasm -g -c mega.*.cubin > mega.sass
  python3 scripts/stalls_by_file.py SRC.csv mega.sass KERNEL [N]

prints per function (the kernel body and each callee in its section) and per innermost
source file: stall samples, their share, and the N largest reasons (stall_no_instruction is
an instruction fetch that missed)."""
import collections
import csv
import re
import sys


def sass_map(path, want):
    """offset -> (function, file) for the section of the kernel whose name contains want"""
    loc_re = re.compile(r'//## File "([^"]+)", line (\d+)')
    ins_re = re.compile(r"^\s*/\*([0-9a-f]{4,})\*/\s+\S")
    out, on, fn, f = {}, False, "?", "?"
    for line in open(path, errors="replace"):
        m = re.match(r"\s*\.text\.(\S+):", line)
        if m:
            on = want in m.group(1)
            fn, f = "kernel body", "?"
            continue
        if not on:
            continue
        m = re.match(r"^\$[^$]+\$(\S+):\s*$", line)
        if m:
            fn = re.sub(r"^_ZN\d+_INTERNAL_\w+?\d+(mrt_\w+?)E.*$", r"\1", m.group(1))
            fn = re.sub(r"^_ZN37_INTERNAL_[0-9a-f]+_\d+_mega_cu_[0-9a-f]+\d+", "", fn)[:48]
            continue
        m = loc_re.search(line)
        if m:
            f = m.group(1).split("/")[-1]
            continue
        m = ins_re.match(line)
        if m:
            out[int(m.group(1), 16)] = (fn, f)
    return out


def num(s):
    try:
        return float(str(s).replace(",", ""))
    except ValueError:
        return 0.0


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    n = int(sys.argv[4]) if len(sys.argv) > 4 else 3
    where = sass_map(sys.argv[2], sys.argv[3])
    rows = list(csv.reader(open(sys.argv[1], newline="")))
    hi = next(i for i, r in enumerate(rows) if any("Source" == c.strip() for c in r))
    head = [c.strip() for c in rows[hi]]
    body = [r for r in rows[hi + 1:] if len(r) == len(head)]
    ai = head.index("Address")
    si = next(i for i, c in enumerate(head) if c.startswith("Warp Stall Sampling (All"))
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
    all_s = sum(tot.values()) + unmapped
    print("stall samples %d (%d at offsets the SASS does not list)" % (all_s, unmapped))
    for key, s in tot.most_common():
        top = ", ".join("%s %d" % (c[6:], v) for c, v in why[key].most_common(n) if v)
        print("%-48s %-26s %6d %5.1f%%  %s" % (key[0], key[1], s, 100.0 * s / all_s, top))


if __name__ == "__main__":
    main()
