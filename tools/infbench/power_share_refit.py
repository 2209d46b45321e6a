# h202 prototype (issue 22; a negative result, nothing compiled in): refits the memory share P_FIT_MEM of
# llm_serve.c's serving power, P = floor + (TDP - floor) min(1, pm um + pc uc) with floor = max(idle,
# 0.304 TDP), on LLM-Inference-Bench's power rows that the shared shares answer (TensorRT-LLM, and vLLM
# 0.6.1 on A100: the modern engine; vllm-v0's rows keep their own leaderboard-fitted shares and are only
# scored), then scores every held-out group: by GPU, by framework, by model family.  Each row's
# energy is the bench's energy scaled by the refit power over the power it had, with the vLLM harness's
# idle second (h195) applied to both.  Fitted on power (energy would fold the e2e error in).
# usage: bash bench/bench_llm.sh --serving infbench --analytic-only --rows ROWS.csv
#        python3 tools/infbench/power_share_refit.py ROWS.csv [GH200_SCALE_W]
# GH200_SCALE_W (optional): the watts the GH200's floor and span scale with, its 900 W limit still the cap
# (the "same die as the 700 W H100 SXM" variant the docs report).
import csv
import sys

IDLE = {'A100': 55.0, 'H100': 70.0, 'GH200': 100.0}  # devices.json idle_w (rough, +-50 %)
FLOOR, PM, PC = 0.304, 0.45, 0.75                    # llm_serve.c P_FIT_FLOOR, P_FIT_MEM, P_FIT_MATH


def load(path, gh200_scale):
    rows = []
    for r in csv.DictReader(open(path)):
        if r['set'] != 'infbench' or not float(r['y_6'] or 'nan') > 0:
            continue
        gpu = r['system'].split()[1]
        d = {'gpu': gpu, 'fw': r['backend'], 'fam': r['model'].split('/')[-1].split('-')[0] + '-' +
             r['model'].split('/')[-1].split('-')[1], 'um': float(r['mem_util']), 'uc': float(r['math_util']),
             'cap': float(r['tdp_w']), 'T': float(r['a_4']) * 1e-3, 'pw': float(r['power_w']),
             'a_pw': float(r['a_6']), 'a_e': float(r['a_3']), 'y_pw': float(r['y_6']), 'y_e': float(r['y_3']),
             'idle': IDLE[gpu]}
        d['scale'] = gh200_scale if gpu == 'GH200' and gh200_scale else d['cap']
        d['v0'] = d['fw'] == 'vLLM' and gpu != 'A100'
        rows.append(d)
    return rows


def power(d, pm):
    if d['v0']:
        return d['pw']
    floor = max(d['idle'], FLOOR * d['scale'])
    return min(d['cap'], floor + (d['scale'] - floor) * min(1.0, pm * d['um'] + PC * d['uc']))


def scored(d, pm):
    p = power(d, pm)
    if d['fw'] == 'vLLM':  # the probe's idle second after generate() (bench_serving ib_probe_tail)
        p = (p * d['T'] + d['idle']) / (d['T'] + 1.0)
    return p, d['a_e'] * p / d['a_pw']


def mape(rows, pm, target):
    if not rows:
        return float('nan')
    e = 0.0
    for d in rows:
        p, en = scored(d, pm)
        e += abs(p / d['y_pw'] - 1) if target == 'power' else abs(en / d['y_e'] - 1)
    return 100.0 * e / len(rows)


def fit(rows):
    return min((k / 100.0 for k in range(0, 151)), key=lambda pm: mape(rows, pm, 'power'))


def main():
    scale = float(sys.argv[2]) if len(sys.argv) > 2 else 0.0
    rows = load(sys.argv[1], scale)
    shared = [d for d in rows if not d['v0']]
    pm = fit(shared)
    print('rows %d (%d on the shared shares); GH200 scale %s W' % (len(rows), len(shared), scale or 'its TDP'))
    print('priors pm %.2f: power %.1f %%, energy %.1f %% (all rows)' % (PM, mape(rows, PM, 'power'),
                                                                       mape(rows, PM, 'energy')))
    print('refit pm %.2f: in-sample power %.1f %%, energy %.1f %%; all rows power %.1f %%, energy %.1f %%' % (
        pm, mape(shared, pm, 'power'), mape(shared, pm, 'energy'), mape(rows, pm, 'power'), mape(rows, pm, 'energy')))
    for key, label in (('gpu', 'leave-one-GPU-out'), ('fw', 'leave-one-framework-out'), ('fam', 'leave-one-family-out')):
        print(label + ':')
        for g in sorted({d[key] for d in shared}):
            out = [d for d in shared if d[key] == g]
            k = fit([d for d in shared if d[key] != g])
            print('  %-13s pm %.2f: power %5.1f %% (priors %5.1f), energy %5.1f %% (priors %5.1f), %d rows' % (
                g, k, mape(out, k, 'power'), mape(out, PM, 'power'), mape(out, k, 'energy'),
                mape(out, PM, 'energy'), len(out)))


main()
