#!/usr/bin/env python3
"""Analytic CPU predictor vs the CPU store (data/cpu/runs.sqlite).

For every first (non-repeat) ok run: `dlperf predict` on cpu-amd-epyc-2c,
analytic only (--no-learned), with the per-op overhead switched off
(--launch-us 0) to get the pure roofline time and the op count.  Prints
 1. the dispatch overhead derived from the data: median over the cheapest
    batch-1 inference runs (the quarter with the smallest roofline time) of
    (measured - roofline) / ops, and the brief's simpler variant
    measured / nodes;
 2. MAPE of the analytic prediction with a given overhead (default: the
    shipped DLP_PREDICT_CPU_DISPATCH_US) for latency, step time and memory.
Usage: bench/cpu_analytic_mape.py [BUILD/dlperf] [overhead_us]
"""
import json, sqlite3, statistics, subprocess, sys, os

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
dlperf = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "build/dlperf")
over = float(sys.argv[2]) if len(sys.argv) > 2 else None
db = sqlite3.connect(os.path.join(root, "data/cpu/runs.sqlite"))
rows = db.execute("""
  select r.mode, r.batch, m.onnx_path, m.family,
    (select median from measurements where run_id=r.id and metric=(case r.mode when 'infer' then 'latency_ms' else 'step_ms' end)),
    (select mean from measurements where run_id=r.id and metric='memory_mb')
  from runs r join models m on m.id=r.model_id
  where r.outcome='ok' and r.repeat_of is null""").fetchall()

def predict(path, mode, batch, launch):
    cmd = [dlperf, "predict", os.path.join(root, "data/cpu", path), "--device", "cpu-amd-epyc-2c",
           "--batch", str(batch), "--mode", mode, "--json", "--no-learned", "--optimizer", "sgd-momentum"]
    if launch is not None: cmd += ["--launch-us", str(launch)]
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode: return None
    return json.loads(out.stdout)

res = []
for mode, batch, path, fam, t, mem in rows:
    p = predict(path, mode, batch, 0)
    if p is None or t is None: continue
    res.append((mode, batch, path, fam, t, mem, p))

inf1 = sorted([r for r in res if r[0] == "infer" and r[1] == 1], key=lambda r: r[6]["latency_ms"])
q = inf1[: max(1, len(inf1) // 4)]
d1 = [(r[4] - r[6]["latency_ms"]) / r[6]["kernels"] * 1e3 for r in q]
d2 = [r[4] / r[6]["kernels"] * 1e3 for r in q]
print(f"batch-1 inference runs: {len(inf1)}; cheapest quarter: {len(q)}")
print(f"dispatch overhead (measured - roofline) / ops: median {statistics.median(d1):.1f} us "
      f"(quartiles {statistics.quantiles(d1, n=4)[0]:.1f} .. {statistics.quantiles(d1, n=4)[2]:.1f})")
print(f"measured / ops (upper bound):                 median {statistics.median(d2):.1f} us")
if over is None: over = round(statistics.median(d1), 0)

def mape(pairs):
    return 100 * statistics.mean(abs(a - b) / b for a, b in pairs) if pairs else float("nan")

for mode, key in (("infer", "latency_ms"), ("train", "step_ms")):
    sel = [r for r in res if r[0] == mode]
    tp = [(r[6][key] + over * 1e-3 * r[6]["kernels"], r[4]) for r in sel]
    mp = [(r[6]["memory_mb"], r[5]) for r in sel if r[5]]
    ratio = statistics.median(a / b for a, b in tp)
    print(f"{mode}: n={len(sel)}  time MAPE {mape(tp):.1f} %  (median predicted/measured {ratio:.2f})  "
          f"memory MAPE {mape(mp):.1f} %  [overhead {over:g} us/op]")
