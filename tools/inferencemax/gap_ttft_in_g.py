#!/usr/bin/env python3
"""Two readings of aiconfigurator's gap-analysis dumps (docs/llm.md, h221).

1. TTFT against the output length.  Per (file, TP, clients C, prompt) with at
   least three output lengths G, the least-squares line
       TTFT = a + b x G x TPOT / C
   (G x TPOT is the time a request decodes; G x TPOT / C the spacing of the
   ends of C equal requests in a closed loop).  b near 1: the measured first
   token waits one such spacing, a wait that grows with G at a fixed load;
   b near 0: the TTFT does not depend on G.  Printed per file and C: the
   groups, the median b and the median a (ms).

2. The clients per worker.  Aggregated rows whose silicon_concurrency differs
   from batch_size: aiconfigurator's generator benchmarks BenchConfig.
   estimated_concurrency = agg_workers x max_batch_size
   (src/aiconfigurator/generator/rule_plugin/trtllm.rule), so batch_size is
   one worker's share and silicon_concurrency / batch_size the workers.  Each
   row's TPOT is printed against the one-client TPOT of the same task
   (gtl_task_id) where the task has one.

usage: gap_ttft_in_g.py [silicon_sample.csv]
(default: ../shared/data/aiconfigurator/aic-core/src/aiconfigurator_core/
systems/silicon_sample.csv from the repository root)
"""
import csv
import os
import re
import statistics
import sys
from collections import defaultdict

DEFAULT = os.path.join("..", "shared", "data", "aiconfigurator", "aic-core", "src", "aiconfigurator_core", "systems",
                       "silicon_sample.csv")


def field(src, key):
    m = re.search(key + r"=([^;]*)", src)
    return m.group(1).strip() if m else ""


def gap_file(src):
    """The dump's path under aic-auto-gap-analysis/data/, or ''."""
    f = field(src, "source_file")
    i = f.find("gap-analysis/data/")
    return f[i + len("gap-analysis/data/"):] if i >= 0 else ""


def line_fit(xs, ys):
    """Least-squares (a, b) of y = a + b x."""
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    if sxx <= 0:
        return my, 0.0
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
    return my - b * mx, b


def ttft_in_g(rows):
    groups = defaultdict(list)
    for r in rows:
        f = gap_file(r["silicon_data_source"])
        if not f or r["mode"] != "agg":
            continue
        c = int(r["batch_size"] or 0)
        sc = field(r["silicon_data_source"], "silicon_concurrency")
        if sc and int(sc) != c:
            continue  # several workers: part 2
        if c < 2:
            continue
        g, tpot, ttft = int(r["osl"]), float(r["silicon_tpot_ms"]), float(r["silicon_ttft_ms"])
        groups[(f, r["tp_size"], c, r["isl"])].append((g * tpot / c, ttft))
    by = defaultdict(list)
    for (f, tp, c, isl), pts in groups.items():
        if len({x for x, _ in pts}) < 3:
            continue
        a, b = line_fit([x for x, _ in pts], [y for _, y in pts])
        by[(f, c)].append((a, b))
    for (f, c) in sorted(by):
        v = by[(f, c)]
        print("TTFT = a + b G TPOT / C: %s C %d: %d groups, b %.2f, a %.1f ms" %
              (f, c, len(v), statistics.median(b for _, b in v), statistics.median(a for a, _ in v)))


def workers(rows):
    one = {}
    for r in rows:
        src = r["silicon_data_source"]
        if gap_file(src) and r["mode"] == "agg" and field(src, "silicon_concurrency") == "1":
            one[(gap_file(src), field(src, "gtl_task_id"))] = float(r["silicon_tpot_ms"])
    for r in rows:
        src = r["silicon_data_source"]
        f, sc, bs = gap_file(src), field(src, "silicon_concurrency"), int(r["batch_size"] or 0)
        if not f or r["mode"] != "agg" or not sc or bs < 1 or int(sc) == bs:
            continue
        task = field(src, "gtl_task_id")
        tpot = float(r["silicon_tpot_ms"])
        base = one.get((f, task))
        tail = " = %.2f x one client's %.1f ms" % (tpot / base, base) if base else ""
        print("workers %s task %s: clients %s batch %d -> %.1f workers, TP %s, %sx%s, TPOT %.1f ms%s" %
              (f, task, sc, bs, int(sc) / bs, r["tp_size"], r["isl"], r["osl"], tpot, tail))


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else DEFAULT
    with open(path, newline="") as fh:
        rows = list(csv.DictReader(fh))
    ttft_in_g(rows)
    workers(rows)


if __name__ == "__main__":
    main()
