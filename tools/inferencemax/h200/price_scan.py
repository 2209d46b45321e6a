#!/usr/bin/env python3
"""price_scan.py BEFORE.csv X=AFTER.csv ...  (issue 22, h200; docs/llm.md)

A diagnostic, never a prediction: AFTER files are --rows dumps of
DLP_TRT_CTX_PRICE_X=X DLP_ROWS_TRT_STEPS=1 bench_serving ... --trt-ctx-sim
(the played context worker's steps at X times the library's price).  For
each TensorRT-LLM recipe prefill slice (GPU, format, ISL, ranks N, k) the
MAPE and median predicted / measured TTFT at each X, the X with the lowest
MAPE starred: the price the runs' TTFTs imply for the played worker."""
import csv, statistics as st, sys
from collections import defaultdict

def main():
    b = list(csv.DictReader(open(sys.argv[1])))
    runs = [(float(a.split("=")[0]), list(csv.DictReader(open(a.split("=", 1)[1])))) for a in sys.argv[2:]]
    rec = {r["recipe"]: r for r in csv.DictReader(open(__file__.rsplit("/", 2)[0] + "/h187/trt_prefill.csv"))}
    g = defaultdict(lambda: defaultdict(list))
    for i, r in enumerate(b):
        if r["phase"] != "1" or r["backend"] != "trtllm" or r["recipe"] not in rec:
            continue
        rp, S, N = rec[r["recipe"]], int(r["isl"]), max(1, int(r["dp"]))
        k = max(1, min(int(rp["max_batch_size"]), int(rp["max_num_tokens"]) // S, 16))
        key = "%s %s %d N%d k%d" % (r["system"].replace("_sxm", ""), r["quant"][:5], S, N, k)
        y = float(r["y_0"])
        g[key]["main"].append(float(r["a_0"]) / y)
        for x, rows in runs:
            g[key][x].append(float(rows[i]["a_0"]) / y)
    xs = [x for x, _ in runs]
    print("| slice | rows | main | " + " | ".join("x %.2g" % x for x in xs) + " |")
    print("|---|---:|---:|" + "---:|" * len(xs))
    for key, d in sorted(g.items()):
        m = {x: 100 * sum(abs(t - 1) for t in v) / len(v) for x, v in d.items()}
        best = min(xs, key=lambda x: m[x])
        cells = ["%s%.1f (%.2f)" % ("*" if x == best else "", m[x], st.median(d[x])) for x in xs]
        print("| %s | %d | %.1f (%.2f) | %s |" % (key, len(d["main"]), m["main"], st.median(d["main"]), " | ".join(cells)))

if __name__ == "__main__":
    main()
