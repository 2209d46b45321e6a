#!/usr/bin/env python3
"""Where the silicon serving error sits: each cell's share of the headline.

A cell is the rows of one (engine, family, GPU, format, phase, data source).
For TTFT (y_0 / a_0) and TPOT (y_1 / a_1) it prints the headline MAPE and,
largest first, each cell's points of it (its summed |a - y| / y over all the
scored rows, so the shares add up to the headline), its rows, its own MAPE
and its median predicted / measured.  Rows without a measured or predicted
value, or measured <= 0, are not scored (as in the bench).

    bash bench/bench_llm.sh --serving silicon --analytic-only --rows ROWS.csv
    python3 tools/inferencemax/cells.py ROWS.csv [TOP]   (TOP cells a metric, 20)
"""
import collections
import csv
import math
import sys

CELL = ("backend", "family", "system", "quant", "phase", "src_name")


def scored(r, yk, ak):
    try:
        y, a = float(r[yk]), float(r[ak])
    except (KeyError, ValueError):
        return None
    if math.isnan(y) or math.isnan(a) or y <= 0:
        return None
    return y, a


def report(rows, name, yk, ak, top):
    cells = collections.defaultdict(list)
    for r in rows:
        ya = scored(r, yk, ak)
        if ya:
            cells[tuple(r[k] for k in CELL)].append(ya)
    n = sum(len(v) for v in cells.values())
    if n == 0:
        print("%s: no scored rows" % name)
        return
    out = []
    for key, v in cells.items():
        err = sum(abs(a - y) / y for y, a in v)
        ratios = sorted(a / y for y, a in v)
        out.append((100.0 * err / n, len(v), 100.0 * err / len(v), ratios[len(ratios) // 2], key))
    out.sort(key=lambda o: (-o[0], o[4]))
    print("%s: %d rows, MAPE %.2f %%" % (name, n, sum(o[0] for o in out)))
    for pts, cnt, mape, med, key in out[:top]:
        print("  %5.2f points  %4d rows  MAPE %5.1f %%  median %.2f  %s" % (pts, cnt, mape, med, " / ".join(key)))


def main():
    rows = list(csv.DictReader(open(sys.argv[1])))
    top = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    report(rows, "TTFT", "y_0", "a_0", top)
    report(rows, "TPOT", "y_1", "a_1", top)


if __name__ == "__main__":
    main()
