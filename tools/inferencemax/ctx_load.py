#!/usr/bin/env python3
"""TensorRT-LLM context (prefill) workers under load (docs/llm.md, h237).

Reads a `DLP_ROWS_TRT_STEPS=1 bash bench/bench_llm.sh --serving silicon
--analytic-only --rows FILE` dump: each TensorRT-LLM prefill-worker row with a
recipe carries the library's context step with j prompts of the row's ISL on
every attention-DP rank (trt_step_j, j = 1..16) and its recipe file; the row
after it is its decode worker (phase 2).  The recipe's prefill section
(tools/inferencemax/h187/trt_prefill.csv, or --prefill FILE) gives the ranks N
(attention DP: tp, else 1) and the prompts a rank takes a step, k =
min(max_batch_size, max_num_tokens // ISL).  Prints:

  1. the worker's throughput the run served against the library's price:
     sa-bench's closed loop (C clients, each sending its next request when the
     last ends, outputs uniform over [0.8, 1] x osl) completes X = C / (TTFT +
     (0.9 osl - 1) TPOT) requests a second at the worker, measured TTFT and
     TPOT; the library's saturated worker serves N k prompts a step of
     trt_step_k, cap = N k / trt_step_k.  rho = X / cap: where the worker is
     saturated (the loaded rows) X is its capacity, so rho ~ 1 says the
     step's price is right, rho > 1 that it is slower than what ran.
     By GPU, format, ISL and the recipe's N, k; the rows the library itself
     reads as saturated (C >= cap x the predicted time away), so that the
     selection uses predicted quantities only.
  2. the mean-value reading of the loaded worker (a what-if, not compiled):
     the library's prefill-worker TTFT is burst / W + (0.5 b + p1)(1 - 1 / W)
     + handoff (llm_serve.c; b the burst's step, p1 the lone prompt, W 10
     waves).  TensorRT-LLM's context executor runs each step to its end
     (disable_overlap_scheduler in every recipe, h187), so a request waits
     out the step in flight and then runs in the next; under load a step
     carries the prompts that arrived during the last one: m = clamp(X T(m),
     1, N k), X = C / (TTFT + away), away = 0.9 osl x the decode row's
     predicted TPOT, T(m) the library's step of m prompts (linear between the
     lone prompt, m = 1, and j on every rank, m = N j: h200's rule).  The
     steady part becomes 0.5 max(b, T(m)) + max(p1, T(m)), solved with the
     TTFT by damped iteration; the row's TTFT moves by the difference x (1 -
     1 / W) (its slot wait and poll as they were).  Silicon TTFT, the
     prefill workers, by format and by slice, before -> after; and the
     saturated loop's bound alone, max(TTFT, C / cap - away).
  3. with a second dump B.csv (the same bench under a what-if, e.g.
     --fused-elem 1), part 2 on B's rows, the other rows main's.

usage: ctx_load.py ROWS.csv [B.csv] [--prefill TRT_PREFILL.csv] [--write OUT.csv]
(--write: ROWS with part 2's TTFT, for cells.py)
"""
import collections
import csv
import math
import os
import statistics
import sys

W = 10.0       # W_WAVES, llm_serve.c
RANGE = 0.8    # sa-bench's --random-range-ratio: mean output 0.9 osl
ITER = int(os.environ.get('CTX_LOAD_ITER', '80'))  # damped iterations (converged by 80: 0.01 point)
HERE = os.path.dirname(os.path.abspath(__file__))


def fnum(x):
    try:
        return float(x)
    except (TypeError, ValueError):
        return float('nan')


def recipes(path):
    with open(path) as f:
        return {r['recipe']: r for r in csv.DictReader(f)}


def worker(r, tab):
    """(N, k) of a TensorRT-LLM prefill row's recipe, None where not read."""
    t = tab.get(r.get('recipe', ''))
    if not t or t.get('chunked_prefill') != '0':
        return None
    n = int(t['tp']) if t['attention_dp'] == '1' else 1
    k = min(int(t['max_batch_size']), int(t['max_num_tokens']) // int(r['isl']))
    if k < 1 or k > 16 or not fnum(r.get('trt_step_%d' % k)) > 0:
        return None
    return n, k


def step_ms(m, n, k, p1, st):
    """The library's step of m prompts on the worker: linear between the lone
    prompt (m = 1) and j prompts on every rank (m = n j), capped at n k."""
    m = max(1.0, min(m, float(n * k)))
    pts = [(1.0, p1)] + [(float(n * j), st[j]) for j in range(1, k + 1)]
    if n == 1:
        pts = [(1.0, p1)] + [(float(j), st[j]) for j in range(2, k + 1)]
    for (x0, y0), (x1, y1) in zip(pts, pts[1:]):
        if m <= x1:
            return y1 if x1 <= x0 else y0 + (y1 - y0) * (m - x0) / (x1 - x0)
    return pts[-1][1]


def burst_step_ms(r):
    """The library's burst step b, from ttft_burst = b (n_it + 1) / 2 with the
    prefill worker's step of floor(8192 / S) prompts (TensorRT-LLM's default
    max_num_tokens, burst_step_tokens)."""
    c, s = int(r['conc']), int(r['isl'])
    tok = math.floor(8192 / s) * s if s <= 8192 else 8192
    tok = min(tok, c * s)
    n_it = math.ceil(c * s / tok)
    return 2.0 * fnum(r['ttft_burst_ms']) / (n_it + 1)


def mean_value_ttft(r, d, n, k):
    """Part 2's TTFT of prefill row r (decode row d), ms."""
    c, osl = int(r['conc']), int(r['osl'])
    st = [0.0] + [fnum(r['trt_step_%d' % j]) for j in range(1, k + 1)]
    p1, a = fnum(r['prefill_ms']), fnum(r['a_0'])
    if c < 2 or not p1 > 0 or not a > 0:
        return a
    b = burst_step_ms(r)
    away = 0.5 * (1.0 + RANGE) * osl * fnum(d['a_1'])
    old = 0.5 * b + p1
    t = a
    for _ in range(ITER):
        x = c / (t + away)
        m = 1.0
        for _ in range(ITER):
            m = max(1.0, min(float(n * k), x * step_ms(m, n, k, p1, st)))
        tm = step_ms(m, n, k, p1, st)
        new = 0.5 * max(b, tm) + max(p1, tm)
        t = 0.5 * t + 0.5 * max(1.0, a + (new - old) * (1.0 - 1.0 / W))
    return t


def bound_ttft(r, d, n, k):
    """The saturated closed loop's bound (h200's reading without the play):
    a client's cycle is at least C / cap, so its TTFT at least C / cap less
    its time away; the row's own TTFT where that is lower.  ms."""
    a = fnum(r['a_0'])
    away = 0.5 * (1.0 + RANGE) * int(r['osl']) * fnum(d['a_1'])
    return max(a, int(r['conc']) * fnum(r['trt_step_%d' % k]) / (n * k) - away)


def pairs(rows, tab):
    """(prefill row, decode row, N, k) of every TensorRT-LLM prefill row read."""
    for i, r in enumerate(rows):
        if r.get('phase') != '1' or r.get('backend') != 'trtllm' or i + 1 >= len(rows):
            continue
        d = rows[i + 1]
        if d.get('phase') != '2':
            continue
        w = worker(r, tab)
        if w:
            yield i, r, d, w[0], w[1]


def err(a, y):
    return abs(a - y) / y


def part1(rows, tab):
    print('1. the worker served (X, measured TTFT and TPOT) against the library\'s saturated step (cap = N k / step_k),')
    print('   rows the library reads as saturated (C >= cap x 0.9 osl x the decode row\'s predicted TPOT): median and')
    print('   max rho = X / cap; tok/s a GPU at the median X, prompts at 0.9 ISL')
    g = collections.defaultdict(list)
    for _, r, d, n, k in pairs(rows, tab):
        y0, y1 = fnum(r['y_0']), fnum(d['y_1'])
        cap = n * k / fnum(r['trt_step_%d' % k]) * 1e3
        away = 0.5 * (1.0 + RANGE) * int(r['osl']) * fnum(d['a_1']) * 1e-3
        # saturated by the library's own reading (predicted quantities only):
        # its priced worker cannot serve C clients each away `away` seconds
        if int(r['conc']) < cap * away or not y0 > 0 or not y1 > 0:
            continue
        x = int(r['conc']) / (y0 + (0.5 * (1.0 + RANGE) * int(r['osl']) - 1.0) * y1) * 1e3
        gpus = int(r['gpus']) if fnum(r['gpus']) > 0 else n
        g[(r['system'], r['quant'], int(r['isl']), n, k)].append((x, cap, x / cap, gpus))
    print('   %-9s %-6s %5s %3s %3s %5s %9s %9s %6s %6s %10s' %
          ('gpu', 'format', 'isl', 'N', 'k', 'rows', 'X req/s', 'cap', 'rho', 'max', 'tok/s/GPU'))
    for key in sorted(g):
        v = g[key]
        xm = statistics.median(e[0] for e in v)
        print('   %-9s %-6s %5d %3d %3d %5d %9.1f %9.1f %6.2f %6.2f %10.0f' %
              (key + (len(v), xm, v[0][1], statistics.median(e[2] for e in v), max(e[2] for e in v),
                      xm * 0.9 * key[2] / v[0][3])))


def part2(rows, tab, label):
    moved, bound = {}, {}
    for i, r, d, n, k in pairs(rows, tab):
        moved[i] = mean_value_ttft(r, d, n, k)
        bound[i] = bound_ttft(r, d, n, k)
    head, pw = ([], []), ([], [])
    g = collections.defaultdict(lambda: ([], [], []))
    for i, r in enumerate(rows):
        y, a = fnum(r.get('y_0')), fnum(r.get('a_0'))
        if r.get('set') != 'silicon' or not y > 0 or not a > 0:
            continue
        b = moved.get(i, a)
        head[0].append(err(a, y)), head[1].append(err(b, y))
        if r['phase'] == '1':
            pw[0].append(err(a, y)), pw[1].append(err(b, y))
        if i in moved:
            c = int(r['conc'])
            key = (r['family'], r['system'], r['quant'], int(r['isl']), '>128' if c > 128 else '<=128')
            g[key][0].append(err(a, y)), g[key][1].append(err(b, y)), g[key][2].append(b / y)
            q = ('all', r['quant'])
            g[q][0].append(err(a, y)), g[q][1].append(err(b, y)), g[q][2].append(b / y)
    pct = lambda v: 100.0 * statistics.mean(v) if v else float('nan')
    print('2. the mean-value loaded worker (%s): %d rows moved; silicon TTFT %.2f -> %.2f %%, prefill workers %.2f -> %.2f %%' %
          (label, len(moved), pct(head[0]), pct(head[1]), pct(pw[0]), pct(pw[1])))
    cl = [err(bound.get(i, fnum(r['a_0'])), fnum(r['y_0'])) for i, r in enumerate(rows)
          if r.get('set') == 'silicon' and fnum(r.get('y_0')) > 0 and fnum(r.get('a_0')) > 0]
    print('   the saturated bound, max(TTFT, C / cap - away) instead: silicon TTFT %.2f -> %.2f %%' %
          (pct(head[0]), pct(cl)))
    for key in sorted(g, key=str):
        e0, e1, q = g[key]
        print('   %-52s %4d  %5.1f -> %5.1f %%  median %.2f' % (' '.join(str(x) for x in key), len(e0), pct(e0),
                                                                 pct(e1), statistics.median(q)))
    return moved


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    args, tpath = sys.argv[1:], os.path.join(HERE, 'h187', 'trt_prefill.csv')
    out = None
    if '--write' in args:
        i = args.index('--write')
        out = args[i + 1]
        del args[i:i + 2]
    if '--prefill' in args:
        i = args.index('--prefill')
        tpath = args[i + 1]
        del args[i:i + 2]
    with open(args[0]) as f:
        rows = list(csv.DictReader(f))
    other = args[1] if len(args) > 1 else None
    tab = recipes(tpath)
    part1(rows, tab)
    moved = part2(rows, tab, 'the rows as given')
    if out:
        # the rows with part 2's TTFT, for cells.py
        with open(out, 'w', newline='') as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
            w.writeheader()
            for i, r in enumerate(rows):
                w.writerow(dict(r, a_0='%.6g' % moved[i]) if i in moved else r)
    if other:
        with open(other) as f:
            alt = list(csv.DictReader(f))
        if len(alt) != len(rows):
            print('3. %s: %d rows, not %d: not compared' % (other, len(alt), len(rows)))
            return 1
        # B's TensorRT-LLM prefill rows, every other row as given
        mix = [b if (b.get('phase') in ('1', '2') and b.get('backend') == 'trtllm') else a for a, b in zip(rows, alt)]
        part2(mix, tab, os.path.basename(other) + "'s TensorRT-LLM disaggregated rows")
    return 0


if __name__ == '__main__':
    sys.exit(main())
