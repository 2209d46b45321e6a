#!/usr/bin/env python3
"""The aggregated TensorRT-LLM DeepSeek-R1 rows' TTFT, split (docs/llm.md, h208).

Reads a `bench_llm.sh --serving silicon --analytic-only --rows FILE` dump and
aiconfigurator's silicon_sample.csv (for each row's measured date and image),
and prints three findings:
  1. the miss by GPU / precision / attention DP / lengths / load, with the
     burst weight each row implies: (measured - front end - steady) /
     (burst - steady), against the compiled 0.14;
  2. the marginal cost of a longer prompt at low load: measured TTFT of the
     8k / 1k run less that of the 1k run of the same layout, date and clients,
     beside the model's difference and its lone-prompt prefill difference;
  3. a what-if, not in the library: a context step that runs eagerly takes
     max(h x layers, its GPU time), the floor added to the TTFT where it is
     above the lone prompt's prefill; h fitted on TensorRT-LLM's aggregated
     rows of the other families and scored on the held-out family.
usage: ds_trt_agg_split.py ROWS.csv [SHARED_DATA_DIR]
"""
import collections
import csv
import sys

N_HEAD = 5080  # silicon TTFT rows (the headline's denominator)


def fld(src, key):
    for p in src.split(';'):
        p = p.strip()
        if p.startswith(key):
            return p[len(key):]
    return ''


def load(rows_path, data_dir):
    sample = data_dir + '/aiconfigurator/aic-core/src/aiconfigurator_core/systems/silicon_sample.csv'
    idx = collections.defaultdict(list)
    for s in csv.DictReader(open(sample)):
        if s['mode'] != 'agg':
            continue
        try:
            ttft = round(float(s['silicon_ttft_ms']), 2)
        except ValueError:
            continue
        idx[(s['system'], s['backend'], s['isl'], s['osl'], ttft)].append(s)
    rows = list(csv.DictReader(open(rows_path)))
    for r in rows:
        m = idx.get((r['system'], r['backend'], r['isl'], r['osl'], round(float(r['y_0']), 2)))
        src = m[0]['silicon_data_source'] if m else ''
        r['date'] = (fld(src, 'measured=') or fld(src, 'source_file='))[:10]
        r['image'] = m[0]['backend_version'] if m else ''
    return rows


def ds_trt(rows):
    return [r for r in rows if r['backend'] == 'trtllm' and r['family'] == 'deepseek' and r['phase'] == '0']


def implied_w(r):
    y, b, s, q = (float(r[k]) for k in ('y_0', 'ttft_burst_ms', 'ttft_steady_ms', 'req_ms'))
    return (y - q - s) / (b - s) if abs(b - s) > 1e-9 else float('nan')


def split(rows):
    g = collections.defaultdict(list)
    for r in ds_trt(rows):
        c = int(r['conc'])
        load_ = '4-16' if c <= 16 else ('32-64' if c <= 64 else '128+')
        g[(r['system'][:4], r['quant'], 'ADP' if r['dp'] != '1' else 'TP/EP', r['isl'] + '/' + r['osl'], load_)].append(r)
    print('1. the miss split (points of the silicon TTFT headline, MAPE, median predicted / measured, median implied burst weight)')
    for k, v in sorted(g.items(), key=lambda kv: -sum(abs(float(r['a_0']) / float(r['y_0']) - 1) for r in kv[1])):
        e = [abs(float(r['a_0']) / float(r['y_0']) - 1) for r in v]
        rat = sorted(float(r['a_0']) / float(r['y_0']) for r in v)
        w = sorted(implied_w(r) for r in v)
        print('  %5.2f pts  n %3d  MAPE %5.1f %%  median %.2f  w %5.2f  %s' % (
            sum(e) / N_HEAD * 100, len(v), sum(e) / len(v) * 100, rat[len(rat) // 2], w[len(w) // 2], ' '.join(k)))


def pairs(rows):
    d = {}
    for r in ds_trt(rows):
        if r['dp'] != '1' or int(r['conc']) > 16:
            continue
        k = (r['system'][:4], r['quant'], r['date'] or '?', r['gpus'], r['ep'], r['conc'])
        d.setdefault(k, {})[(r['isl'], r['osl'])] = r
    print('2. 8k / 1k less 1k / 1k at 4-16 clients, same layout and date (ms): measured | model | lone-prompt prefill')
    for k, v in sorted(d.items()):
        a = v.get(('8192', '1024'))
        b = v.get(('1024', '1024')) or v.get(('1024', '8192'))
        if not a or not b:
            continue
        dif = lambda c: float(a[c]) - float(b[c])
        print('  %s %-5s %s TP %s EP %s %3s clients: %6.0f | %6.0f | %6.0f   (1k: measured %4.0f, model %4.0f)' % (
            k + (dif('y_0'), dif('a_0'), dif('prefill_ms'), float(b['y_0']), float(b['a_0']))))


LAYERS = (('deepseek', 61), ('kimi', 61), ('gpt-oss-120b', 36), ('gpt-oss-20b', 24), ('70b', 80), ('405b', 126),
          ('8b', 32), ('qwen3-32b', 64), ('235b', 94), ('30b', 48), ('minimax', 62))


def layers(r):
    m = r['model'].lower()
    for key, n in LAYERS:
        if key in m:
            return n
    return 0


def floor_ms(r, h, fams):
    """The what-if's TTFT increase: aggregated TensorRT-LLM rows of fams only."""
    if r['backend'] != 'trtllm' or r['phase'] != '0' or r['family'] not in fams or not layers(r):
        return 0.0
    return max(0.0, h * layers(r) - float(r['prefill_ms']))


def mape(rows, h, fams):
    e = [abs(float(r['a_0']) + floor_ms(r, h, fams) - float(r['y_0'])) / float(r['y_0']) for r in rows]
    return sum(e) / len(e) * 100 if e else float('nan')


def whatif(rows):
    trt = [r for r in rows if r['backend'] == 'trtllm' and r['phase'] == '0' and layers(r)]
    allrows = [r for r in rows if float(r['y_0']) > 0 and float(r['a_0']) == float(r['a_0'])]
    fams = sorted({r['family'] for r in trt})
    print('3. what-if: an eager context step floored at h ms a layer (not compiled in)')
    for h in (0.0, 0.5, 1.0, 1.5, 2.0, 2.5):
        print('  h %.1f: silicon TTFT %.2f %% (DeepSeek alone floored %.2f %%); TensorRT-LLM aggregated DeepSeek %.1f %%, other families %.1f %%' % (
            h, mape(allrows, h, set(fams)), mape(allrows, h, {'deepseek'}),
            mape([r for r in trt if r['family'] == 'deepseek'], h, set(fams)),
            mape([r for r in trt if r['family'] != 'deepseek'], h, set(fams))))
    grid = [x / 10 for x in range(31)]
    for f in fams:
        rest = [r for r in trt if r['family'] != f]
        best = min(grid, key=lambda h: mape(rest, h, set(fams)))
        mine = [r for r in trt if r['family'] == f]
        print('  leave-one-family-out %-8s: h fitted on the others %.1f, its MAPE %.1f -> %.1f %% (%d rows)' % (
            f, best, mape(mine, 0.0, set(fams)), mape(mine, best, set(fams)), len(mine)))


def main():
    rows = load(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else '../shared/data')
    split(rows)
    pairs(rows)
    whatif(rows)
    piecewise_report(rows)



# ---- 4. piecewise CUDA graphs, read from the scripts that ran (h208) ----
# (SemiAnalysisAI/InferenceX, benchmarks/dsr1_fp{4,8}_b200_trt[_mtp].sh; the
# H200 scripts and every script before these commits never set
# torch_compile_config.enable_piecewise_cuda_graph)
#   ec7bafaae 2026-01-29 fp8 plain: 1k/1k C >= 64, 1k/8k 128 <= C < 256, 8k/1k C >= 64
#   6eecc0e66 2026-02-03 fp4 plain: 1k/1k at TP 8 / EP 8
#   5d517074c 2026-02-05 fp8 MTP: on, but off with attention DP, 1k/1k C <= 4,
#             1k/8k C <= 8, 8k/1k C <= 16
#   0aae52d4c 2026-02-06 fp4 MTP: 1k/1k C 32 or 64 (128 without attention DP), 1k/8k C 64
def piecewise(r):
    if r['family'] != 'deepseek' or r['system'] != 'b200_sxm' or not r['date']:
        return False
    c, io, dp = int(r['conc']), (r['isl'], r['osl']), r['dp'] != '1'
    if r['quant'] == 'fp8' and r['date'] == '2026-02-05':
        lim = {('1024', '1024'): 4, ('1024', '8192'): 8, ('8192', '1024'): 16}.get(io)
        return not dp and lim is not None and c > lim
    if r['quant'] == 'fp8' and r['date'] >= '2026-01-29':
        return (io in (('1024', '1024'), ('8192', '1024')) and c >= 64) or (io == ('1024', '8192') and 128 <= c < 256)
    if r['quant'] == 'nvfp4' and r['date'] == '2026-02-06':
        return (io == ('1024', '1024') and (c in (32, 64) or (c == 128 and not dp))) or (io == ('1024', '8192') and c == 64)
    if r['quant'] == 'nvfp4' and r['date'] >= '2026-02-03':
        return io == ('1024', '1024') and r['gpus'] == '8' and r['ep'] == '8'
    return False


def eager_ctx(r):
    """An aggregated TensorRT-LLM DeepSeek row of the InferenceMAX runs whose
    context steps ran eagerly (no piecewise CUDA graph)."""
    return (r['backend'] == 'trtllm' and r['family'] == 'deepseek' and r['phase'] == '0'
            and r['src_name'] != 'gap-analysis dumps' and not piecewise(r))


def eager_mape(rows, x):
    e = [abs(float(r['a_0']) + (x if eager_ctx(r) else 0.0) - float(r['y_0'])) / float(r['y_0']) for r in rows]
    return sum(e) / len(e) * 100 if e else float('nan')


def piecewise_report(rows):
    ds = [r for r in ds_trt(rows) if r['src_name'] != 'gap-analysis dumps']
    print('4. piecewise CUDA graphs (context steps captured) against eager context steps, 1k prompts, no attention DP:')
    for pw in (True, False):
        for lo, hi in ((4, 16), (32, 64), (128, 1 << 30)):
            v = [float(r['y_0']) - float(r['a_0']) for r in ds if piecewise(r) == pw and r['dp'] == '1'
                 and r['isl'] == '1024' and lo <= int(r['conc']) <= hi and r['system'] == 'b200_sxm'
                 and r['date'] >= '2026-01-29']
            v.sort()
            if v:
                print('  B200 1.2.0rc6 runs, %s, %d-%s clients: %2d rows, measured - model median %4.0f ms' % (
                    'piecewise' if pw else 'eager    ', lo, hi if hi < 1 << 29 else '', len(v), v[len(v) // 2]))
    allrows = [r for r in rows if float(r['y_0']) > 0 and float(r['a_0']) == float(r['a_0'])]
    grid = list(range(0, 201, 5))
    print('  what-if: + X ms on the TTFT of every eager-context row (%d rows; piecewise rows %d):' % (
        sum(eager_ctx(r) for r in allrows), sum(piecewise(r) for r in ds)))
    for x in (0, 25, 50, 75, 100, 125, 150):
        print('    X %3d: silicon TTFT %.2f %%, the eager rows %.1f %%' % (
            x, eager_mape(allrows, x), eager_mape([r for r in allrows if eager_ctx(r)], x)))
    for key, name in ((lambda r: r['system'][:4], 'GPU'), (lambda r: r['image'][:8] or r['date'], 'image / date')):
        groups = sorted({key(r) for r in allrows if eager_ctx(r)})
        for g in groups:
            train = [r for r in allrows if eager_ctx(r) and key(r) != g]
            test = [r for r in allrows if eager_ctx(r) and key(r) == g]
            best = min(grid, key=lambda x: eager_mape(train, x))
            print('    leave-one-%s-out %-10s: X fitted without it %3d ms, its rows %.1f -> %.1f %% (%d)' % (
                name, g, best, eager_mape(test, 0), eager_mape(test, best), len(test)))


if __name__ == '__main__':
    main()
