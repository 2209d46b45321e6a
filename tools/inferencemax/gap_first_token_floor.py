#!/usr/bin/env python3
"""Is the first-token floor of TensorRT-LLM 1.0.0rc3's gap-analysis rows an
engine step?  Three readings of the rows dump (docs/llm.md, h234).

usage: gap_first_token_floor.py ROWS.csv
ROWS.csv: `bash bench/bench_llm.sh --serving silicon --analytic-only --rows
ROWS.csv` (columns used: set, backend, model, system, phase, src_name, gpus,
isl, osl, conc, y_0 / a_0 measured / predicted TTFT, y_1 / a_1 TPOT, req_ms,
decode_step_ms, prefill_ms).  Only the aggregated gap-analysis rows on
h100_sxm are read (every engine: vLLM and SGLang ran the same harness).

1. The prompt step's cost, from the TPOT.  In a closed loop of C equal
   requests each of the other C - 1 clients sends one prompt while a request
   makes its G tokens, and every step that carries a prompt holds up the
   decodes it rides with, so
       TPOT = d + m (C - 1) / (G - 1)
   with m what a step with a prompt costs over a decode step.  Per (engine,
   model, TP, prompt, C) with two output lengths or more, m is the slope of
   the least-squares line through (x = (C - 1) / (G - 1), TPOT), fitted on the
   measured TPOT and on the library's; printed beside the mean TTFT excess
   (measured - predicted).  A first-token excess that were a longer prompt
   step (an eager context iteration's host time, any step of the executor)
   would show as a measured m above the library's by about that excess.

2. The floor at the lightest load.  For each model the rows at its smallest C:
   the measured TTFT, the library's front end (req_ms) and the wait its
   steady state charges (half a decode step in flight and, under the overlap
   scheduler, one prepared step: 1.5 decode steps), and what is left for the
   step that carries the prompt,
       ride = TTFT - req_ms - 1.5 x decode_step_ms,
   beside the library's prefill_ms.  A ride flat across TP and prompt while
   prefill_ms moves is time that does not scale with the GPU's work.

3. Prompt monotonicity.  Pairs of rows of one (engine, model, TP, C, G) whose
   shorter prompt measures a TTFT more than 10 % above the longer one's: no
   engine mechanism makes a shorter prompt's first token later, so such a
   pair is time the run spent outside the engine (a session's own constant).
"""
import csv
import statistics
import sys
from collections import defaultdict


def f(r, k):
    try:
        return float(r[k])
    except (KeyError, ValueError):
        return float("nan")


def gap_rows(path):
    out = []
    with open(path) as fh:
        for r in csv.DictReader(fh):
            if r.get("set", "silicon") != "silicon" or r.get("src_name") != "gap-analysis dumps":
                continue
            if r.get("system") != "h100_sxm" or r.get("phase") != "0":
                continue
            if not (f(r, "y_0") > 0 and f(r, "y_1") > 0):
                continue
            out.append(r)
    return out


def short(model):
    return model.split("/")[-1]


def line_slope(xs, ys):
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    if sxx <= 0:
        return None
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx


def step_cost(rows):
    """Section 1: m measured / predicted per group, and a summary per model."""
    groups = defaultdict(list)
    for r in rows:
        groups[(r["backend"], short(r["model"]), int(r["gpus"]), int(r["isl"]), int(r["conc"]))].append(r)
    per_model = defaultdict(list)
    for k in sorted(groups):
        rs = groups[k]
        C = k[4]
        if len({r["osl"] for r in rs}) < 2 or C < 2:
            continue
        xs = [(C - 1) / (int(r["osl"]) - 1) for r in rs]
        mm = line_slope(xs, [f(r, "y_1") for r in rs])
        mp = line_slope(xs, [f(r, "a_1") for r in rs])
        ex = statistics.mean(f(r, "y_0") - f(r, "a_0") for r in rs)
        print("prompt step %s %s TP %d prompt %d C %d: m measured %.1f ms, library %.1f ms; TTFT excess %.1f ms"
              % (k[0], k[1], k[2], k[3], C, mm, mp, ex))
        per_model[(k[0], k[1])].append((mm, mp, ex))
    for k in sorted(per_model):
        v = per_model[k]
        print("prompt step summary %s %s: %d groups, median m measured %.1f ms, library %.1f ms, "
              "groups with m above the library's %d; median TTFT excess %.1f ms"
              % (k[0], k[1], len(v), statistics.median(x[0] for x in v), statistics.median(x[1] for x in v),
                 sum(1 for x in v if x[0] > x[1]), statistics.median(x[2] for x in v)))


def floor_rows(rows):
    """Section 2: the ride left at each model's lightest load."""
    by_model = defaultdict(list)
    for r in rows:
        by_model[(r["backend"], short(r["model"]))].append(r)
    for k in sorted(by_model):
        rs = by_model[k]
        cmin = min(int(r["conc"]) for r in rs)
        cells = defaultdict(list)
        for r in rs:
            if int(r["conc"]) == cmin:
                ride = f(r, "y_0") - f(r, "req_ms") - 1.5 * f(r, "decode_step_ms")
                cells[(int(r["gpus"]), int(r["isl"]))].append((f(r, "y_0"), ride, f(r, "prefill_ms")))
        for tp, isl in sorted(cells):
            v = cells[(tp, isl)]
            print("floor %s %s C %d TP %d prompt %d: TTFT %.0f ms, ride %.0f ms, library prefill %.1f ms (%d rows)"
                  % (k[0], k[1], cmin, tp, isl, statistics.mean(x[0] for x in v), statistics.mean(x[1] for x in v),
                     v[0][2], len(v)))


def monotone(rows):
    """Section 3: shorter prompts measured >10 % slower than longer ones."""
    cells = defaultdict(dict)
    for r in rows:
        cells[(r["backend"], short(r["model"]), int(r["gpus"]), int(r["conc"]), int(r["osl"]))][int(r["isl"])] = f(r, "y_0")
    n = bad = 0
    for k in sorted(cells):
        isls = sorted(cells[k])
        for a, b in zip(isls, isls[1:]):
            n += 1
            ya, yb = cells[k][a], cells[k][b]
            if ya > 1.1 * yb:
                bad += 1
                print("shorter prompt slower %s %s TP %d C %d G %d: prompt %d %.0f ms > prompt %d %.0f ms"
                      % (k + (a, ya, b, yb)))
    print("shorter prompt slower: %d of %d neighbouring prompt pairs" % (bad, n))


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    rows = gap_rows(sys.argv[1])
    step_cost(rows)
    floor_rows(rows)
    monotone(rows)


if __name__ == "__main__":
    main()
