#!/usr/bin/env python3
"""h215: SGLang DeepSeek prefill workers' implied service against the library's price.

Reads the bench's --rows dump (bench_llm.sh --serving silicon --analytic-only --rows ROWS.csv), where each
prefill-worker row (phase 1) is followed by its decode-worker row (phase 2).  A prefill worker's closed loop
serves conc / (TTFT + osl x the decode row's measured TPOT) requests/s (conc: the prefill worker's clients);
a rank of dp holds a prompt dp / that rate.  Printed per (GPU, quant, isl, dp): rows, rows whose measured TTFT
is at least 4 x the library's prefill_ms (queue-bound), the median of implied rank time / prefill_ms over those,
and the median predicted / measured TTFT.  Usage: rank_rate.py ROWS.csv
"""
import collections
import csv
import statistics as st
import sys


def main(path):
    rows = list(csv.DictReader(open(path)))
    cells = collections.defaultdict(list)
    for i, r in enumerate(rows[:-1]):
        if r['backend'] != 'sglang' or r['phase'] != '1' or r['family'] != 'deepseek':
            continue
        d = rows[i + 1]
        if d['phase'] != '2':
            continue
        conc, ttft, tpot = int(r['conc']), float(r['y_0']), float(d['y_1'])
        pf, dp = float(r['prefill_ms']), int(r['dp'])
        if not (tpot > 0) or not (pf > 0) or not (ttft > 0):
            continue
        rate = conc / ((ttft + int(r['osl']) * tpot) / 1000.0)
        cells[(r['system'], r['quant'], r['isl'], dp)].append((ttft >= 4 * pf, dp / rate * 1000.0 / pf,
                                                               float(r['a_0']) / ttft))
    print('(gpu, quant, isl, dp)  rows  queue-bound  implied rank ms / prefill_ms  predicted / measured TTFT')
    for k, v in sorted(cells.items()):
        q = [x[1] for x in v if x[0]]
        print(k, len(v), len(q), '%.2f' % st.median(q) if q else '-', '%.2f' % st.median(x[2] for x in v))


if __name__ == '__main__':
    main(sys.argv[1])
