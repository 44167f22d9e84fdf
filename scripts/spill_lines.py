#!/usr/bin/env python3
"""Where a kernel's local-memory accesses (spills, stack arrays) come from, by source line,
from `nvdisasm -g` output (line info needs a -lineinfo or -g build, as the Makefile's):

  cuobjdump -xelf all build/src/cuda/mega.o          # writes *.cubin here
  nvdisasm -g -c mega.*.cubin > mega.sass
  python3 scripts/spill_lines.py mega.sass FUNCTION [N]

prints, for the function whose name contains FUNCTION, its STL / LDL counts and the N source
lines (innermost location, and where it is inlined into the function) with the most."""
import collections
import re
import sys


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    want, n = sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 40
    loc_re = re.compile(r'//## File "([^"]+)", line (\d+)(?: inlined at "([^"]+)", line (\d+))?')
    fn, loc, on, seen = None, "?", False, []
    count = collections.Counter()
    kinds = collections.Counter()
    for line in open(sys.argv[1], errors="replace"):
        m = re.match(r"\s*\.text\.(\S+):", line) or re.match(r"\s*\.section\s+\.text\.(\S+),", line)
        if m:
            fn = m.group(1)
            on = want in fn
            seen.append(fn)
            continue
        if not on:
            continue
        m = loc_re.search(line)
        if m:
            f = m.group(1).split("/")[-1]
            loc = "%s:%s" % (f, m.group(2))
            if m.group(3):
                loc += " (in %s:%s)" % (m.group(3).split("/")[-1], m.group(4))
            continue
        m = re.search(r"\b(STL|LDL)(\.[A-Z0-9.]+)?\s", line)
        if m:
            kinds[m.group(1)] += 1
            count[(m.group(1), loc)] += 1
    print("function containing %r: %s (%d functions in the file)" % (want, dict(kinds), len(seen)))
    if not kinds:
        print("functions:", " ".join(seen[:20]))
    for (k, l), c in count.most_common(n):
        print("%5d %s %s" % (c, k, l))


if __name__ == "__main__":
    main()
