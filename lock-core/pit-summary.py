#!/usr/bin/env python3
"""Summarises a PIT run of lock-core (target/pit-reports/mutations.xml) per package: how many of the generated
mutants a failing assertion killed (KILLED), apart from those that only timed out, ran out of memory, broke the
test run, survived or were not covered.

    python3 lock-core/pit-summary.py [path/to/mutations.xml] [--survivors]

--survivors also lists each mutant not KILLED (status, class, line, method, mutator description)."""
import sys
import xml.etree.ElementTree as ET
from collections import Counter, defaultdict

args = [a for a in sys.argv[1:] if not a.startswith("--")]
path = args[0] if args else "lock-core/target/pit-reports/mutations.xml"
show = "--survivors" in sys.argv
STATUSES = ["KILLED", "TIMED_OUT", "MEMORY_ERROR", "RUN_ERROR", "SURVIVED", "NO_COVERAGE"]

per = defaultdict(Counter)
rest = []
for m in ET.parse(path).getroot().iter("mutation"):
    cls = m.findtext("mutatedClass")
    pkg = cls.rsplit(".", 1)[0]
    status = m.get("status")
    per[pkg][status] += 1
    per["(all)"][status] += 1
    if status != "KILLED":
        rest.append((status, cls.rsplit(".", 1)[1], int(m.findtext("lineNumber")), m.findtext("mutatedMethod"),
                     m.findtext("description")))

print(f"{'package':32} {'KILLED/generated':>22} " + " ".join(f"{s:>12}" for s in STATUSES[1:]))
for pkg in sorted(per, key=lambda p: (p == "(all)", p)):
    c = per[pkg]
    total = sum(c.values())
    killed = c["KILLED"]
    print(f"{pkg:32} {killed:>6}/{total:<5} ({100 * killed / total:5.1f}%) "
          + " ".join(f"{c[s]:>12}" for s in STATUSES[1:]))
if show:
    for status, cls, line, method, desc in sorted(rest):
        print(f"{status:12} {cls}:{line} {method}: {desc}")
