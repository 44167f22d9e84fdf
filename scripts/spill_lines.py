#!/usr/bin/env python3
"""Where a kernel's local-memory accesses (spills, stack arrays) come from, by source line,
from `nvdisasm -g` output (line info needs a -lineinfo or -g build, as the Makefile's):

  cuobjdump -xelf all build/src/cuda/mega.o          # writes *.cubin here
  nvdisasm -g -c mega.*.cubin > mega.sass
  python3 scripts/spill_lines.py mega.sass FUNCTION [N]

prints, for the function whose name contains FUNCTION, its STL / LDL counts and the N source
lines (innermost location, and where it is inlined into the function) with the most.
sass_instructions() is also scripts/stalls_by_file.py's reader of the same files."""
import signal
import collections
import re
import sys

LOC_RE = re.compile(r'//## File "([^"]+)", line (\d+)(?: inlined at "([^"]+)", line (\d+))?')
INS_RE = re.compile(r"^\s*/\*([0-9a-f]{4,})\*/\s+(\S.*)$")


def sass_instructions(path, want, seen=None):
    """Yields (callee, loc, offset, instruction) for every instruction of the section of the
    kernel whose name contains want: callee "kernel body" or the name of a function called
    from it (placed in its section), loc "file:line" of the innermost source line with
    " (in file:line)" where that is inlined. Section names found go into seen, if given."""
    on, fn, loc = False, "kernel body", "?"
    for line in open(path, errors="replace"):
        m = re.match(r"\s*\.text\.(\S+):", line) or re.match(r"\s*\.section\s+\.text\.(\S+),", line)
        if m:
            if seen is not None and m.group(1) not in seen:
                seen.append(m.group(1))
            on, fn, loc = want in m.group(1), "kernel body", "?"
            continue
        if not on:
            continue
        m = re.match(r"^\$[^$]+\$(\S+):\s*$", line)
        if m:
            fn = re.sub(r"^_ZN\d+_INTERNAL_\w+?\d+(mrt_\w+?)E.*$", r"\1", m.group(1))
            fn = re.sub(r"^_ZN37_INTERNAL_[0-9a-f]+_\d+_mega_cu_[0-9a-f]+\d+", "", fn)[:48]
            continue
        m = LOC_RE.search(line)
        if m:
            loc = "%s:%s" % (m.group(1).split("/")[-1], m.group(2))
            if m.group(3):
                loc += " (in %s:%s)" % (m.group(3).split("/")[-1], m.group(4))
            continue
        m = INS_RE.match(line)
        if m:
            yield fn, loc, int(m.group(1), 16), m.group(2)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    want, n = sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 40
    seen = []
    count = collections.Counter()
    kinds = collections.Counter()
    for _, loc, _, ins in sass_instructions(sys.argv[1], want, seen):
        m = re.search(r"\b(STL|LDL)(\.[A-Z0-9.]+)?\s", ins)
        if m:
            kinds[m.group(1)] += 1
            count[(m.group(1), loc)] += 1
    print("function containing %r: %s (%d functions in the file)" % (want, dict(kinds), len(seen)))
    if not kinds:
        print("functions:", " ".join(seen[:20]))
    for (k, l), c in count.most_common(n):
        print("%5d %s %s" % (c, k, l))


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # piped into head: stop quietly
    main()
