#!/usr/bin/env python3
"""TensorRT-LLM DeepSeek-R1 nvfp4 cells on Blackwell, split (docs/llm.md, h228).

Reads a `bench_llm.sh --serving silicon --analytic-only --rows FILE` dump (and
aiconfigurator's silicon_sample.csv for each aggregated row's measured date
and image, as ds_trt_agg_split.py does) and prints:
  1. the B200 aggregated cell (InferenceMAX-style dumps) by load and layout,
     by measured date / image and by lengths: rows, points of the silicon
     TTFT headline, MAPE, median predicted / measured;
  2. the low-load composition of the aggregated TensorRT-LLM DeepSeek TTFT
     (no attention DP, <= 16 clients): measured = (model - its prefill) +
     F + s x its prefill, F and s by weighted least squares on relative
     error, per GPU and format: s is the share of the model's prompt-step
     price the measured TTFT grows by, F what every request pays besides;
  3. the nvfp4 prefill-worker cells by GPU, load and prompt length;
  4. with a second rows file B (a what-if of the same bench), the same
     slices before -> after.
usage: nvfp4_cells.py ROWS.csv [B.csv] [SHARED_DATA_DIR]
"""
import collections
import csv
import os
import statistics
import sys

N_HEAD = 5080  # silicon TTFT rows (the headline's denominator)
GPUS = ('b200_sxm', 'gb200', 'b300_sxm', 'gb300')


def ratio(r, i=0):
    y, a = r['y_%d' % i], r['a_%d' % i]
    if y in ('', 'nan') or a in ('', 'nan') or float(y) <= 0:
        return None
    return float(a) / float(y)


def summary(rows, i=0):
    """(n, points of the headline, MAPE %, median predicted / measured)."""
    v = [x for x in (ratio(r, i) for r in rows) if x is not None]
    if not v:
        return 0, 0.0, float('nan'), float('nan')
    err = [abs(x - 1.0) for x in v]
    return len(v), 100.0 * sum(err) / N_HEAD, 100.0 * sum(err) / len(v), statistics.median(v)


def cell(rows, gpu, phase):
    return [r for r in rows if r['backend'] == 'trtllm' and r['family'] == 'deepseek' and r['system'] == gpu
            and r['quant'] == 'nvfp4' and r['phase'] == phase and r['src_name'].startswith('InferenceMAX')]


def load_band(r):
    c = int(r['conc'])
    return '4-16' if c <= 16 else '17-128' if c <= 128 else '129+'


def agg_band(r):
    c = int(r['conc'])
    band = '4-16' if c <= 16 else '32-64' if c <= 64 else '128+'
    return band + (' ADP' if r['dp'] != '1' else ' TP')


def print_split(title, rows, key):
    groups = collections.defaultdict(list)
    for r in rows:
        groups[key(r)].append(r)
    print(title)
    for k in sorted(groups):
        n, pts, mape, med = summary(groups[k])
        print('   %-40s n %3d  %.3f pts  MAPE %5.1f %%  median %.2f' % (k, n, pts, mape, med))


def composition_fit(rows):
    """F, s minimising sum(((model - pf + F + s pf) / y - 1)^2)."""
    s00 = s01 = s11 = b0 = b1 = 0.0
    for r in rows:
        y, a, pf = float(r['y_0']), float(r['a_0']), float(r['prefill_ms'])
        t, w = y - a + pf, 1.0 / (y * y)
        s00 += w
        s01 += w * pf
        s11 += w * pf * pf
        b0 += w * t
        b1 += w * pf * t
    det = s00 * s11 - s01 * s01
    if abs(det) < 1e-18:
        return float('nan'), float('nan')
    return (b0 * s11 - s01 * b1) / det, (s00 * b1 - s01 * b0) / det


def composed_mape(rows, f, s):
    e = [abs((float(r['a_0']) - float(r['prefill_ms']) + f + s * float(r['prefill_ms'])) / float(r['y_0']) - 1)
         for r in rows]
    return 100.0 * sum(e) / len(e)


def part2(rows):
    print('2. low-load composition (no attention DP, <= 16 clients): measured = model - prefill + F + s prefill')
    for quant, gpu in (('nvfp4', 'b200_sxm'), ('fp8', 'b200_sxm'), ('fp8', 'h200_sxm')):
        c = [r for r in rows if r['backend'] == 'trtllm' and r['family'] == 'deepseek' and r['system'] == gpu
             and r['quant'] == quant and r['phase'] == '0' and r['dp'] == '1' and int(r['conc']) <= 16
             and r['src_name'] != 'gap-analysis dumps']
        if len(c) < 3:
            continue
        f, s = composition_fit(c)
        print('   %-6s %-9s n %3d  F %6.1f ms  s %.2f  MAPE %5.1f -> %5.1f %%' %
              (quant, gpu, len(c), f, s, composed_mape(c, 0.0, 1.0), composed_mape(c, f, s)))


def part1(rows):
    agg = cell(rows, 'b200_sxm', '0')
    print('1. TensorRT-LLM DeepSeek-R1 nvfp4, B200, aggregated (InferenceMAX-style dumps)')
    print_split('  by load and layout', agg, agg_band)
    if agg and 'date' in agg[0]:
        print_split('  by measured date, image', agg, lambda r: (r['date'] or '?') + ' ' + (r['image'] or '?'))
    print_split('  by lengths', agg, lambda r: r['isl'] + ' / ' + r['osl'])


def part3(rows):
    print('3. nvfp4 prefill workers (phase 1, InferenceMAX-style dumps)')
    for gpu in GPUS:
        c = cell(rows, gpu, '1')
        if c:
            print_split('  %s' % gpu, c, lambda r: load_band(r) + ' clients, isl ' + r['isl'])


CELLS = (('b200_sxm', '0'), ('gb200', '1'), ('b300_sxm', '1'), ('b200_sxm', '1'), ('gb300', '1'))


def part4(a_rows, b_rows):
    """The same slices of two dumps of one bench (rows in the same order)."""
    print('4. before -> after (TTFT MAPE %, median predicted / measured)')
    idx = range(len(a_rows))
    slices = [('silicon', list(idx)), ('aggregated', [i for i in idx if a_rows[i]['phase'] == '0']),
              ('prefill workers', [i for i in idx if a_rows[i]['phase'] == '1'])]
    for g, p in CELLS:
        ids = {id(r) for r in cell(a_rows, g, p)}
        slices.append(('%s nvfp4 %s' % (g, 'agg' if p == '0' else 'prefill'),
                       [i for i in idx if id(a_rows[i]) in ids]))
    for name, sel in slices:
        _, _, ma, da = summary([a_rows[i] for i in sel])
        _, _, mb, db = summary([b_rows[i] for i in sel])
        print('   %-24s %5.2f (%.2f) -> %5.2f (%.2f)' % (name, ma, da, mb, db))


def with_dates(path, data_dir):
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    try:
        import ds_trt_agg_split
        return ds_trt_agg_split.load(path, data_dir)
    except (ImportError, OSError):
        return list(csv.DictReader(open(path)))


def main():
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    csvs = [a for a in args if a.endswith('.csv')]
    dirs = [a for a in args if not a.endswith('.csv')]
    data_dir = dirs[0] if dirs else os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../../shared/data')
    rows = with_dates(csvs[0], data_dir)
    part1(rows)
    part2(rows)
    part3(rows)
    if len(csvs) > 1:
        b_rows = list(csv.DictReader(open(csvs[1])))
        if len(b_rows) != len(rows):
            sys.exit('the two rows files differ in length')
        part4(rows, b_rows)


if __name__ == '__main__':
    main()
