# h222 (issue 22): LLM-Inference-Bench's energy per request split into its time and power parts.
# The data's energy is avg_power x GPUs x Latency / B (bench_serving.c ib_load_results) and the bench's is
# the library's power_per_gpu_w x GPUs x e2e_ms / B (the vLLM harness's idle second folded into both the
# power and the energy, ib_probe_tail), so for every power row, exactly,
#     predicted / measured energy = (predicted / measured power) x (predicted e2e / measured latency),
# the measured latency recovered as y_energy x B / (y_power x GPUs).  Per (engine, GPU, model, batch) and per
# group it prints the three ratios and three MAPEs: the energy's, the power's alone (what the energy's would
# be with the time exact) and the time's alone (with the power exact), so the larger part is the one to price.
# usage: bash bench/bench_llm.sh --serving infbench --analytic-only --rows ROWS.csv
#        python3 tools/infbench/energy_split.py ROWS.csv
import csv
import math
import sys


def load(path):
    rows = []
    for r in csv.DictReader(open(path)):
        if r['set'] != 'infbench':
            continue
        y_p, y_e = float(r['y_6'] or 'nan'), float(r['y_3'] or 'nan')
        if not (y_p > 0 and y_e > 0):
            continue
        B, n = int(r['conc']), int(r['gpus'])
        lat = y_e * B / (y_p * n)  # the run's latency (s), as the data's energy was formed
        rp = float(r['a_6']) / y_p
        rt = float(r['a_4']) * 1e-3 / lat
        rows.append({'gpu': r['system'].replace('Nvidia ', '').replace(' GPU', ''), 'fw': r['backend'],
                     'model': r['model'].split('/')[-1], 'B': B, 'rp': rp, 'rt': rt,
                     're': float(r['a_3']) / y_e})
    return rows


def median(v):
    v = sorted(v)
    k = len(v)
    return float('nan') if not k else v[k // 2] if k % 2 else 0.5 * (v[k // 2 - 1] + v[k // 2])


def summary(rows):
    k = len(rows)
    m = lambda key: 100.0 * sum(abs(d[key] - 1.0) for d in rows) / k
    return (k, m('re'), m('rp'), m('rt'), median([d['re'] for d in rows]), median([d['rp'] for d in rows]),
            median([d['rt'] for d in rows]))


def table(rows, key, title):
    print('\n| %s | rows | energy MAPE | power alone | time alone | energy / measured | power | time |' % title)
    print('|---|---:|---:|---:|---:|---:|---:|---:|')
    groups = {}
    for d in rows:
        groups.setdefault(key(d), []).append(d)
    for g in sorted(groups):
        print('| %s | %d | %.1f %% | %.1f %% | %.1f %% | %.2f | %.2f | %.2f |' % ((g,) + summary(groups[g])))


def main():
    rows = load(sys.argv[1])
    if not rows:
        sys.exit('no LLM-Inference-Bench power rows in %s' % sys.argv[1])
    for d in rows:  # the identity the split rests on
        assert math.isclose(d['re'], d['rp'] * d['rt'], rel_tol=1e-4), d
    table(rows, lambda d: 'all', 'rows')
    table(rows, lambda d: d['gpu'], 'GPU')
    table(rows, lambda d: d['fw'], 'engine')
    table(rows, lambda d: d['fw'] + ' ' + d['gpu'], 'engine, GPU')
    print('\n| engine | GPU | model | B | energy | power | time |\n|---|---|---|---:|---:|---:|---:|')
    for d in sorted(rows, key=lambda d: (d['fw'], d['gpu'], d['model'], d['B'])):
        print('| %s | %s | %s | %d | %.2f | %.2f | %.2f |' % (d['fw'], d['gpu'], d['model'], d['B'], d['re'],
                                                              d['rp'], d['rt']))


if __name__ == '__main__':
    main()
