#!/usr/bin/env python3
"""moe_tp_growth.py — the low-load first-token excess by GPU count, split by
MoE / dense and by expert parallelism (issue 22, h243; docs/llm.md "A
first-token cost that grows with the GPUs ..."): a finding, nothing of it
compiled in.

Reads the bench's rows dump (bash bench/bench_llm.sh --serving silicon
--analytic-only --rows FILE).  Keeps the aggregated rows (phase 0) at <= 8
clients without attention DP whose TTFT and TPOT were both measured, by
default not the gap-analysis dumps (--gap keeps them), and prints
  1. per (engine, family, GPU, format, prompt) group and per (GPUs, EP) layout
     the median TTFT excess (measured - predicted, ms) and TPOT excess;
  2. per group with at least two GPU counts under one EP reading (EP 1, or EP =
     GPUs), the growth of the TTFT excess per doubling of the GPUs: (excess at
     the most GPUs - excess at the fewest) / log2(most / fewest), and the same
     for the TPOT;
  3. per group with EP 1 and EP = GPUs at one GPU count, the EP step: excess
     at EP = GPUs - excess at EP 1 (the most such GPUs);
  4. per engine and kind (MoE / dense) the median of part 2's growths and of
     part 3's steps.
A model is MoE when its family is one of the MoE families or its name carries
an active-parameter tag ("-A22B", "-A17B", ...); Llama and the other Qwen
models are dense.
  5. with --m, per (engine, model, GPU, format, prompt, GPUs, EP, clients >= 16)
     with two output lengths, m, what a prompt adds to the steps it rides
     (prompt_cost), measured and on the library's TPOT.
  6. with --sample SILICON_SAMPLE.csv MODEL instead of the rows, the measured
     TensorRT-LLM aggregated runs of MODEL at <= 8 clients without attention
     DP with the date and image each records (which runs a group mixes).
Usage: python3 tools/inferencemax/moe_tp_growth.py ROWS.csv [--gap] [--isl N] [--m]
       python3 tools/inferencemax/moe_tp_growth.py --sample SILICON_SAMPLE.csv MODEL
"""
import csv
import math
import re
import sys
from collections import defaultdict
from statistics import median

MOE_FAMILIES = {'deepseek', 'gpt', 'kimi', 'minimax', 'glm'}


def is_moe(r):
    if r['family'] in MOE_FAMILIES:
        return True
    return re.search(r'-A\d+(\.\d+)?B', r.get('model', '')) is not None


def kept(r, gap, isl):
    if r['phase'] != '0' or int(r['conc']) > 8 or int(r['dp'] or 1) > 1:
        return False
    if not gap and 'gap' in r['src_name']:
        return False
    if isl and r['isl'] != isl:
        return False
    vals = [float(r[k]) for k in ('y_0', 'a_0', 'y_1', 'a_1')]
    return not any(math.isnan(v) for v in vals) and vals[0] > 0


def groups(rows, gap, isl):
    g = defaultdict(lambda: defaultdict(list))
    kind = {}
    for r in rows:
        if not kept(r, gap, isl):
            continue
        key = (r['backend'], r['model'].split('/')[-1][:16], r['system'], r['quant'], r['isl'])
        kind[key] = kind.get(key, False) or is_moe(r)
        lay = (int(r['gpus']), int(r['ep']))
        g[key][lay].append((float(r['y_0']) - float(r['a_0']),
                            float(r['y_1']) - float(r['a_1'])))
    return g, kind


def med(v, i):
    return median(x[i] for x in v)


def growth(lay):
    """Per doubling of the GPUs under one EP reading: EP 1 at every count, or
    EP = GPUs at every count (one GPU is both).  The reading spanning more
    doublings wins, EP 1 on a tie; None when neither has two counts."""
    best = None
    for ep_of in (lambda t: 1, lambda t: t):
        ts = sorted(t for (t, e) in lay if e == ep_of(t))
        if len(ts) < 2:
            continue
        lo, hi = ts[0], ts[-1]
        span = math.log2(hi / lo)
        a, b = lay[(lo, ep_of(lo))], lay[(hi, ep_of(hi))]
        cand = (span, lo, hi, (med(b, 0) - med(a, 0)) / span,
                (med(b, 1) - med(a, 1)) / span)
        if best is None or cand[0] > best[0]:
            best = cand
    return best


def ep_step(lay):
    ts = sorted(t for (t, e) in lay if e == t and t > 1 and (t, 1) in lay)
    if not ts:
        return None
    t = ts[-1]
    return t, med(lay[(t, t)], 0) - med(lay[(t, 1)], 0)


def report(g, kind):
    summ = defaultdict(lambda: ([], []))
    for key in sorted(g):
        lay = g[key]
        tag = 'MoE' if kind[key] else 'dense'
        cells = '  '.join('%d/ep%d %+.1f (%+.2f)' % (t, e, med(v, 0), med(v, 1))
                          for (t, e), v in sorted(lay.items()))
        print('%-7s %-16s %-9s %-6s %5s %-5s %s' % (key[0], key[1], key[2], key[3], key[4], tag, cells))
        gr, st = growth(lay), ep_step(lay)
        if gr:
            print('        growth %d -> %d GPUs: TTFT %+.1f ms, TPOT %+.2f ms a doubling'
                  % (gr[1], gr[2], gr[3], gr[4]))
            summ[(key[0], tag)][0].append(gr[3])
        if st:
            print('        EP step at %d GPUs: TTFT %+.1f ms' % st)
            summ[(key[0], tag)][1].append(st[1])
    print('summary (median over groups):')
    for (eng, tag), (grs, sts) in sorted(summ.items()):
        line = '  %-7s %-5s growth %+.1f ms a doubling (%d groups)' % (eng, tag, median(grs) if grs else float('nan'), len(grs))
        if sts:
            line += '  EP step %+.1f ms (%d groups)' % (median(sts), len(sts))
        print(line)


def prompt_cost(rows, gap):
    """m, what a prompt adds to the steps it rides (h234's closed-loop reading):
    in a closed loop of C clients the other C - 1 each send one prompt while a
    request makes its G tokens, so TPOT = d + m (C - 1) / (G - 1).  Two output
    lengths of one (engine, model, GPU, format, GPUs, EP, C) at one prompt
    length give m = (TPOT_a - TPOT_b) / ((C - 1) (1 / (G_a - 1) - 1 / (G_b -
    1))), measured and on the library's TPOT (d is taken equal: the longer
    output's larger context is in both, the library's d priced for it)."""
    g = defaultdict(lambda: defaultdict(list))
    for r in rows:
        if r['phase'] != '0' or int(r['dp'] or 1) > 1 or int(r['conc']) < 16:
            continue
        if not gap and 'gap' in r['src_name']:
            continue
        y, a = float(r['y_1']), float(r['a_1'])
        if math.isnan(y) or math.isnan(a):
            continue
        key = (r['backend'], r['model'].split('/')[-1][:16], r['system'], r['quant'], r['isl'],
               int(r['gpus']), int(r['ep']), int(r['conc']))
        g[key][int(r['osl'])].append((y, a))
    print('m, ms a prompt (measured / library), C >= 16, two output lengths:')
    for key in sorted(g):
        osl = sorted(g[key])
        if len(osl) < 2:
            continue
        ga, gb = osl[0], osl[-1]
        dx = (key[7] - 1) * (1.0 / (ga - 1) - 1.0 / (gb - 1))
        ma = [(med(g[key][ga], i) - med(g[key][gb], i)) / dx for i in (0, 1)]
        print('  %-7s %-16s %-9s %-6s %5s %d/ep%d C%-4d  m %+.1f / %+.1f  (excess %+.1f)'
              % (key + (ma[0], ma[1], ma[0] - ma[1])))


def dated(path, model):
    """The measured runs behind the groups: from aiconfigurator's
    silicon_sample.csv, the TensorRT-LLM aggregated rows of one model (a
    substring of model_path) at <= 8 clients without attention DP, with the
    date and image their silicon_data_source records."""
    out = []
    with open(path) as f:
        for r in csv.DictReader(f):
            if not r['backend'].startswith('trt') or model not in r['model_path']:
                continue
            if r['attention_dp_size'] not in ('', '0', '1') or 'gap-analysis' in r['silicon_data_source']:
                continue
            src = r['silicon_data_source']
            c = re.search(r'silicon_concurrency=(\d+)', src)
            c = int(c.group(1)) if c else int(r['batch_size'] or 0)
            if c > 8 or not r['tp_size']:
                continue
            day = re.search(r'measured=([0-9-]+)', src)
            img = re.search(r'image=[^;]*?:([^;:]+)$', src) or re.search(r'image=[^;]*?:([^;]+)', src)
            out.append((r['system'], r['precision'], r['isl'], r['osl'], int(r['tp_size']), r['moe_ep_size'] or '1', c,
                        day.group(1) if day else '?', img.group(1).strip() if img else (r['backend_version'] or '?'),
                        float(r['silicon_ttft_ms']), float(r['silicon_tpot_ms'])))
    print('dated runs of %s (GPU, format, isl / osl, tp, ep, clients, measured, image, TTFT, TPOT):' % model)
    for x in sorted(set(out)):
        print('  %-9s %-6s %5s / %-5s tp %-3d ep %-2s c%-2d %-10s %-16s %7.1f %6.2f' % x)


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    if '--sample' in argv:
        i = argv.index('--sample')
        dated(argv[i + 1], argv[i + 2])
        return 0
    gap = '--gap' in argv
    isl = argv[argv.index('--isl') + 1] if '--isl' in argv else None
    with open(argv[1]) as f:
        rows = list(csv.DictReader(f))
    g, kind = groups(rows, gap, isl)
    report(g, kind)
    if '--m' in argv:
        prompt_cost(rows, gap)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
