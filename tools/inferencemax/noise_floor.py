#!/usr/bin/env python3
"""The measurement noise floor of the silicon serving rows (docs/llm.md, the
scoreboard's session-20 line).

Rows whose configuration (model, system, engine, ISL, OSL, clients, GPUs, EP,
DP, phase, format) was measured more than once give the floor any predictor
that answers one number per configuration must pay: for each such group the
best constant c (the one of its measured values with the least summed
|c - y| / y: an MAPE minimiser lies at one of the points) and its error,
beside the model's on the same rows.

    bash bench/bench_llm.sh --serving silicon --analytic-only --rows ROWS.csv
    python3 tools/inferencemax/noise_floor.py ROWS.csv
"""
import collections
import csv
import sys

KEY = ("model", "system", "backend", "isl", "osl", "conc", "gpus", "ep", "dp", "phase", "quant")


def main():
    rows = list(csv.DictReader(open(sys.argv[1])))
    for name, yk, ak in (("TTFT", "y_0", "a_0"), ("TPOT", "y_1", "a_1")):
        groups = collections.defaultdict(list)
        for r in rows:
            try:
                y, a = float(r[yk]), float(r[ak])
            except ValueError:
                continue
            if y > 0 and a > 0:
                groups[tuple(r[k] for k in KEY)].append((y, a))
        dup = [g for g in groups.values() if len(g) > 1]
        n = sum(len(g) for g in dup)
        if not n:
            print(f"{name}: no configuration measured twice")
            continue
        floor = sum(min(sum(abs(c - y) / y for y, _ in g) for c, _ in g) for g in dup)
        ours = sum(abs(a - y) / y for g in dup for y, a in g)
        print(f"{name}: {n} rows in {len(dup)} configurations measured more than once: "
              f"best constant per configuration {100 * floor / n:.1f} % MAPE, the model {100 * ours / n:.1f} %")


if __name__ == "__main__":
    main()
