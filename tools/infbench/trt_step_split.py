#!/usr/bin/env python3
"""Where a TensorRT-LLM offline row's time goes (docs/llm.md, h206).

Reads the --rows dump of `bench/bench_llm.sh --serving infbench --analytic-only --rows R.csv` and prints, per GPU,
tensor parallelism and model, the derived step minus ours: (measured e2e - predicted e2e) / (output tokens - 1),
in ms, by batch (rows) and prompt = output length (columns).  A constant across L at B 1 is a per-step cost the
model lacks; a growth with B x L is a cost that scales with the cache read per step.
Usage: python3 tools/infbench/trt_step_split.py R.csv
"""
import csv
import sys
from collections import defaultdict


def main(path):
    cells = defaultdict(dict)
    for r in csv.DictReader(open(path)):
        if r['set'] != 'infbench' or r['backend'] != 'TensorRT-LLM' or r['y_4'] in ('', 'nan'):
            continue
        out = int(r['osl'])
        if out < 2:
            continue
        # y_4 / a_4: measured and predicted e2e latency (ms); decode_step_ms: our step
        excess = (float(r['y_4']) - float(r['a_4'])) / (out - 1)
        key = (r['system'].replace('Nvidia ', '').replace(' GPU', ''), int(r['gpus']), r['model'].split('/')[-1])
        cells[key][(int(r['conc']), int(r['isl']))] = (excess, float(r['decode_step_ms']))
    lens = (128, 256, 512, 1024, 2048)
    for key in sorted(cells):
        print('%s TP %d %s  (excess ms / our step ms)' % key)
        for b in (1, 16, 32, 64):
            row = ['%+6.2f/%5.2f' % cells[key][(b, L)] if (b, L) in cells[key] else ' ' * 12 for L in lens]
            print('  B %-3d ' % b + '  '.join(row))


if __name__ == '__main__':
    main(sys.argv[1] if len(sys.argv) > 1 else 'rows.csv')
