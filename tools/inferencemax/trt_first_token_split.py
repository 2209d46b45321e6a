#!/usr/bin/env python3
"""trt_first_token_split.py — where TensorRT-LLM's first-token excess lies
(issue 22, h212; docs/llm.md "TensorRT-LLM's first token and the GPU count"):
a finding, nothing of it compiled in.

Reads the bench's rows dump (bash bench/bench_llm.sh --serving silicon
--analytic-only --rows FILE) and
  1. prints, for the aggregated rows without attention DP at <= 32 clients,
     the time each (engine, family, GPU, prompt, GPUs) group leaves over the
     model's TTFT without its front end (measured - (predicted - req_ms)),
     split by the client count, so that a cost per request (flat in the
     clients and the prompt) shows apart from a queue (growing with them);
  2. tries a host floor on TensorRT-LLM's context steps: its PyTorch
     executor replays CUDA graphs only for batches without a context request
     (NVIDIA/TensorRT-LLM tensorrt_llm/_torch/pyexecutor/scheduler.py,
     ScheduledRequests.can_run_cuda_graph: `not self.context_requests`), so a
     prompt step issues its layers from the host; first-order on the dump,
     TTFT + max(0, h x layers - prefill_ms), h fitted by grid (0-2 ms a
     layer) alone and with a shift of the front end, on the TensorRT-LLM
     aggregated rows, leaving out each GPU and each family.
Usage: python3 tools/inferencemax/trt_first_token_split.py ROWS.csv
"""
import csv
import json
import math
import os
import sys
from collections import defaultdict

HS = [0.05 * i for i in range(41)]          # ms a layer
FES = [-40.0 + 2.5 * i for i in range(21)]  # front-end shift, ms


def layers_by_model():
    """num_hidden_layers of every model the dump names (data/llm_configs.json)."""
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(here, '..', '..', 'data', 'llm_configs.json')
    out = {}
    for m in json.load(open(path))['models']:
        n = m.get('config', {}).get('num_hidden_layers')
        if n:
            for k in [m['id'], m.get('hf')] + m.get('aliases', []):
                if isinstance(k, str):
                    out[k] = n
    return out


def num(r, k):
    try:
        v = float(r[k])
    except (KeyError, ValueError):
        return math.nan
    return v


def split_table(rows):
    """Part 1: the residual by group and client count."""
    g = defaultdict(list)
    for r in rows:
        if r['phase'] != '0' or int(r['dp'] or 1) > 1 or int(r['conc']) > 32:
            continue
        if r['backend'] not in ('trtllm', 'vllm') or r['family'] not in ('gpt', 'llama'):
            continue
        y, a, req = num(r, 'y_0'), num(r, 'a_0'), num(r, 'req_ms')
        isl = int(r['isl'])
        if math.isnan(y) or isl not in (1024, 8192):
            continue
        g[(r['backend'], r['family'], r['system'], isl, int(r['gpus']), int(r['conc']))].append(y - (a - req))
    print('time left over the model without its front end, ms (gpt-oss / Llama, no attention DP):')
    keys = sorted({k[:5] for k in g})
    for k in keys:
        cells = ['%d: %6.1f' % (c, sum(g[k + (c,)]) / len(g[k + (c,)])) for c in (4, 8, 16, 32) if k + (c,) in g]
        print('  %-6s %-5s %-9s isl %4d GPUs %d | %s' % (k + ('  '.join(cells),)))


def mape(rs, h, fe=0.0):
    return 100.0 * sum(abs(a + fe + max(0.0, h * n - p) - y) / y for y, a, p, n, _ in rs) / len(rs)


def best(rs, joint):
    if joint:
        return min(((f, h) for f in FES for h in HS), key=lambda t: mape(rs, t[1], t[0]))
    return min(((0.0, h) for h in HS), key=lambda t: mape(rs, t[1], t[0]))


def host_floor(rows):
    """Part 2: the eager context step's host floor, fitted and held out."""
    nl = layers_by_model()
    rs = []
    for r in rows:
        if r['backend'] != 'trtllm' or r['phase'] != '0' or r['model'] not in nl:
            continue
        y, a, p = num(r, 'y_0'), num(r, 'a_0'), num(r, 'prefill_ms')
        if math.isnan(y) or math.isnan(a) or math.isnan(p) or y <= 0:
            continue
        rs.append((y, a, p, nl[r['model']], r))
    if not rs:
        print('no TensorRT-LLM aggregated rows with a TTFT')
        return
    for joint in (False, True):
        f, h = best(rs, joint)
        what = 'h with a front-end shift' if joint else 'h alone'
        print('host floor on TensorRT-LLM context steps, %s, %d aggregated rows: h %.2f ms a layer, shift %+.1f ms; '
              'TTFT %.2f -> %.2f %%' % (what, len(rs), h, f, mape(rs, 0), mape(rs, h, f)))
        for key in ('system', 'family'):
            tot = base = 0.0
            for v in sorted({x[4][key] for x in rs}):
                tr = [x for x in rs if x[4][key] != v]
                te = [x for x in rs if x[4][key] == v]
                fv, hv = best(tr, joint)
                print('    leave out %s: h %.2f, shift %+.1f; %.1f -> %.1f %% (%d rows)'
                      % (v, hv, fv, mape(te, 0), mape(te, hv, fv), len(te)))
                tot += mape(te, hv, fv) * len(te)
                base += mape(te, 0) * len(te)
            print('  held out by %s: %.2f -> %.2f %%' % (key, base / len(rs), tot / len(rs)))


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    rows = list(csv.DictReader(open(sys.argv[1])))
    split_table(rows)
    host_floor(rows)


if __name__ == '__main__':
    main()
