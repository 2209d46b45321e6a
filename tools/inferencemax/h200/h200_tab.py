#!/usr/bin/env python3
"""h200_tab.py BEFORE.csv AFTER.csv  (issue 22, h200; docs/llm.md)

Both files: DLP_ROWS_TRT_STEPS=1 build/bench_serving ../shared/data silicon
--analytic-only --rows FILE, the second with --trt-ctx-sim (or any variant).
The TensorRT-LLM prefill-worker rows whose worker counts came from a recipe
(a recipe named, workers_unknown 2), joined to the recipe's context-worker
settings (tools/inferencemax/h187/trt_prefill.csv), split by GPU, format,
ISL, attention-DP ranks N and k = min(max_batch_size, floor(max_num_tokens /
ISL)):
  rows, MAPE and median predicted / measured TTFT before and after, and
  rho: the measured closed-loop rate at the worker (its clients / (measured
  TTFT + 0.9 osl x the paired decode row's measured TPOT), sa-bench's mean
  output 0.9 osl) times the library's price of one prompt in a step of k a
  rank (trt_step_k / (N k)); above 1 the library's step is slower than the
  run served: median, max and the rows above 1.
Then silicon TTFT over all rows, aggregated and prefill workers, before and
after, and the rows with rho > 1 (slice, clients, measured / predicted)."""
import csv, math, os, statistics as st, sys
from collections import defaultdict

def mape(v):
    return 100 * sum(abs(x - 1) for x in v) / len(v) if v else float("nan")

def main():
    b = list(csv.DictReader(open(sys.argv[1])))
    a = list(csv.DictReader(open(sys.argv[2])))
    assert len(a) == len(b)
    here = os.path.dirname(os.path.abspath(__file__))
    rec = {r["recipe"]: r for r in csv.DictReader(open(os.path.join(here, "..", "h187", "trt_prefill.csv")))}
    g, over = defaultdict(list), []
    for i, (r, x) in enumerate(zip(b, a)):
        if r["phase"] != "1" or r["backend"] != "trtllm" or r["recipe"] not in rec:
            continue
        d, rp = b[i + 1], rec[r["recipe"]]
        S, N = int(r["isl"]), max(1, int(r["dp"]))
        k = max(1, min(int(rp["max_batch_size"]), int(rp["max_num_tokens"]) // S, 16))
        rho = float("nan")
        if d["y_1"] != "nan":
            lam = float(r["conc"]) / (float(r["y_0"]) + 0.9 * float(d["osl"]) * float(d["y_1"]))
            rho = lam * float(r["trt_step_%d" % k]) / (N * k)
        y = float(r["y_0"])
        key = "%s %s %d N%d k%d" % (r["system"].replace("_sxm", ""), r["quant"][:5], S, N, k)
        item = (float(r["a_0"]) / y, float(x["a_0"]) / y, rho)
        g[key].append(item)
        if rho > 1:
            over.append((key, r["conc"], y, float(r["a_0"]), float(x["a_0"]), rho))
    print("| GPU, format, ISL, ranks N, k | rows | MAPE before | after | median before | after | median rho (max) | rho > 1 |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    allb, alla = [], []
    for key, v in sorted(g.items()):
        rb, ra, rh = [t[0] for t in v], [t[1] for t in v], [t[2] for t in v if not math.isnan(t[2])]
        allb += rb
        alla += ra
        print("| %s | %d | %.1f %% | %.1f %% | %.2f | %.2f | %s | %d |" % (
            key, len(v), mape(rb), mape(ra), st.median(rb), st.median(ra),
            "%.2f (%.2f)" % (st.median(rh), max(rh)) if rh else "-", sum(1 for t in rh if t > 1)))
    print("| all | %d | %.1f %% | %.1f %% | %.2f | %.2f | | %d |" % (len(allb), mape(allb), mape(alla), st.median(allb),
                                                                 st.median(alla), len(over)))
    for name, sel in (("silicon TTFT", lambda r: True), ("aggregated", lambda r: r["phase"] == "0"),
                      ("prefill workers", lambda r: r["phase"] == "1"),
                      ("TensorRT-LLM prefill workers", lambda r: r["phase"] == "1" and r["backend"] == "trtllm")):
        e = [[], []]
        for r, x in zip(b, a):
            if r["phase"] == "2" or not sel(r) or r["y_0"] == "nan" or r["a_0"] == "nan" or float(r["y_0"]) <= 0:
                continue
            e[0].append(float(r["a_0"]) / float(r["y_0"])), e[1].append(float(x["a_0"]) / float(r["y_0"]))
        print("%s (%d rows): %.2f -> %.2f %%" % (name, len(e[0]), mape(e[0]), mape(e[1])))
    if "--over" in sys.argv:
        print("\nrows with rho > 1: slice, clients a worker, measured TTFT, before, after (ms), rho")
        for o in sorted(over, key=lambda o: -o[5]):
            print("%s c%s %.0f %.0f %.0f %.2f" % o)

if __name__ == "__main__":
    main()
