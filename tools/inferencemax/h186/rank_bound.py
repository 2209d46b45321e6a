#!/usr/bin/env python3
"""The closed loop's bound on a prefill worker's service (docs/llm.md, h186).

Reads a `bench/bench_llm.sh --serving silicon --analytic-only --rows R.csv`
dump (each prefill-worker row followed by its decode row) and, per SGLang
attention-DP cell with known worker counts, the most requests/s a prefill
worker served: C / (measured TTFT + 0.9 x osl x the decode row's measured
TPOT) (sa-bench's mean output).  A worker that served that rate has a
per-rank service of at most dp / rate: the column is an upper bound on what
one prompt costs a rank under that load.  The last two columns are the
model's lone prompt (prefill_ms) and, where the dump has it (the trial
commit e3f2f46 writes prefill_busy_ms), its step with every rank busy.

usage: rank_bound.py R.csv
"""
import collections
import csv
import sys


def main(path):
    rows = list(csv.DictReader(open(path)))
    cells = collections.defaultdict(list)
    for i, p in enumerate(rows[:-1]):
        d = rows[i + 1]
        if (p['set'] != 'silicon' or p['phase'] != '1' or p['backend'] != 'sglang' or p['dp'] == '1'
                or d['phase'] != '2' or p['workers_unknown'] == '1'):
            continue
        y, tpot = float(p['y_0']), float(d['y_1'])
        if not (y == y and tpot == tpot):
            continue
        c = int(p['conc'])
        rate = c / (y + 0.9 * int(p['osl']) * tpot) * 1e3
        busy = float(p.get('prefill_busy_ms') or 0)
        cells[(p['system'], p['quant'], p['isl'], p['dp'], p['ep'])].append(
            (rate, int(p['dp']) / rate * 1e3, float(p['prefill_ms']), busy, c))
    print('| cell (GPU, format, prompt, DP, EP) | rows | clients | most requests/s a worker '
          '| per-rank service at most, ms | lone (prefill_ms) | every rank busy |')
    print('|---|---:|---:|---:|---:|---:|---:|')
    for k in sorted(cells):
        v = cells[k]
        best = max(v)
        print('| %s %s %s DP %s EP %s | %d | %d-%d | %.1f | %.0f | %.0f | %.0f |' % (
            k + (len(v), min(x[4] for x in v), max(x[4] for x in v), best[0], best[1], best[2], best[3])))


if __name__ == '__main__':
    main(sys.argv[1])
