#!/usr/bin/env python3
"""h187_tab.py ROWS.csv [--sim]  (issue 22, h187; docs/llm.md)

ROWS.csv: DLP_ROWS_TRT_STEPS=1 build/bench_serving ../shared/data silicon
--analytic-only --rows ROWS.csv.  The TensorRT-LLM DeepSeek prefill-worker
rows whose worker counts came from a recipe (workers_unknown 2), joined to
their recipe's context-worker settings (trt_prefill.csv), split by GPU,
format, ISL, attention-DP ranks N and k = min(max_batch_size,
floor(max_num_tokens / ISL)), the prompts a context step takes on a rank:

  1. MAPE and median predicted / measured TTFT per slice;
  2. rho: the closed loop's measured request rate at the worker (clients a
     worker / (measured TTFT + 0.9 osl x measured TPOT of the paired decode
     row), sa-bench's mean output 0.9 osl) times the library's price of one
     prompt at the recipe's batch (trt_step_k / (N k)): above 1 the library's
     step is slower than what the run served;
  3. --sim: the context worker played request by request (N ranks, a new
     request to the rank holding the fewest, at most max_batch_size active
     on a rank, k a rank a step, the step the library's trt_step_j for the
     busiest rank's j, a lone prompt's prefill_ms for one; closed loop of
     the row's clients, the first C at once, 10 C requests, outputs uniform
     over [0.8, 1] x osl x the predicted TPOT, then the client's next
     request); its mean queue + step replaces the library's prefill-worker
     queue term in the row's predicted TTFT.  --spread: the first C
     requests spread uniformly over one output's time instead of at once."""
import csv, heapq, math, os, statistics as st, sys
from collections import defaultdict

W = 10

def lib_queue_ms(r):
    """The library's prefill-worker TTFT less its handoff (llm_serve.c:
    burst / W + (0.5 bi + pf1)(1 - 1 / W)), from the row's burst."""
    C, S, tb, pf = float(r["conc"]), float(r["isl"]), float(r["ttft_burst_ms"]), float(r["prefill_ms"])
    bstep = min(C * S, math.floor(8192.0 / S) * S) if S <= 8192 else min(C * S, 8192.0)
    n_it = math.ceil(C * S / bstep)
    bi = 2 * tb / (n_it + 1)
    return tb / W + ((0.5 * bi if C > 1 else 0) + pf) * (1 - 1 / W)

def draws():
    x = 0x9E3779B97F4A7C15
    while True:
        x = (x * 6364136223846793005 + 1442695040888963407) & ((1 << 64) - 1)
        yield (x >> 11) * 2.0 ** -53

def play(C, N, mbs, k, step, pf, extra, D, spread=False):
    g = draws()
    n, sent, done, tot, t = C * W, 0, 0, 0.0, 0.0
    arr, wait, ranks = [], [], [[] for _ in range(N)]
    for c in range(C):
        heapq.heappush(arr, (D * next(g) if spread else 0.0, sent)); sent += 1
    while done < n:
        while arr and arr[0][0] <= t:
            wait.append(heapq.heappop(arr)[0])
        active = sum(len(x) for x in ranks)
        if active == 0 and not wait:
            if not arr:
                break
            t = arr[0][0]
            continue
        room = max(N * mbs - active, 0)
        for a in wait[:room]:
            min(ranks, key=len).append(a)
        wait = wait[room:]
        sched = [x[:k] for x in ranks]
        j, m = max(len(x) for x in sched), sum(len(x) for x in sched)
        if j == 0:
            t = arr[0][0] if arr else t
            continue
        t += (pf + (step[1] - pf) * (m - 1) / (N - 1) if N > 1 else pf) if j == 1 else step[j]
        for i in range(N):
            for a in sched[i]:
                tot, done = tot + t - a, done + 1
                if sent < n:
                    heapq.heappush(arr, (t + extra + D * (0.8 + 0.2 * next(g)), sent)); sent += 1
            ranks[i] = ranks[i][len(sched[i]):]
    return tot / max(done, 1)

def main():
    rows = list(csv.DictReader(open(sys.argv[1])))
    here = os.path.dirname(os.path.abspath(__file__))
    rec = {r["recipe"]: r for r in csv.DictReader(open(os.path.join(here, "trt_prefill.csv")))}
    sel = []
    for i, r in enumerate(rows):
        if r["phase"] != "1" or r["backend"] != "trtllm" or r["family"] != "deepseek" or r["recipe"] not in rec:
            continue
        d, rp = rows[i + 1], rec[r["recipe"]]
        S, N = int(r["isl"]), max(1, int(r["dp"]))
        k = max(1, min(int(rp["max_batch_size"]), int(rp["max_num_tokens"]) // S, 16))
        sel.append((r, d, rp, S, N, k))
    g = defaultdict(list)
    for x in sel:
        r, d, rp, S, N, k = x
        g[(r["system"], r["quant"][:5], S, N, k)].append(x)
    print("| GPU, format, ISL, ranks N, prompts a rank a step k | rows | MAPE | median pred / meas | median rho |")
    print("|---|---:|---:|---:|---:|")
    for key, v in sorted(g.items()):
        ratio = [float(r["a_0"]) / float(r["y_0"]) for r, *_ in v]
        rho = []
        for r, d, rp, S, N, k in v:
            if d["y_1"] != "nan":
                lam = float(r["conc"]) / (float(r["y_0"]) + 0.9 * float(d["osl"]) * float(d["y_1"]))
                rho.append(lam * float(r["trt_step_%d" % k]) / (N * k))
        print("| %s | %d | %.1f %% | %.2f | %s |" % (" ".join(map(str, key)), len(v),
              100 * sum(abs(x - 1) for x in ratio) / len(ratio), st.median(ratio),
              "%.2f" % st.median(rho) if rho else "-"))
    if "--sim" not in sys.argv:
        return
    out = defaultdict(lambda: [[], []])
    for r, d, rp, S, N, k in sel:
        a0, y, lq = float(r["a_0"]), float(r["y_0"]), lib_queue_ms(r)
        step = [0] + [float(r["trt_step_%d" % j]) for j in range(1, 17)]
        q = play(int(r["conc"]), N, int(rp["max_batch_size"]), k, step, float(r["prefill_ms"]), max(a0 - lq, 0),
                 float(d["osl"]) * float(d["a_1"]), "--spread" in sys.argv)
        for key in ("all", r["system"], "%s k=%d" % (r["system"], k)):
            out[key][0].append(a0 / y), out[key][1].append((a0 - lq + q) / y)
    print("\n| slice | rows | MAPE before | played | median before | played |")
    print("|---|---:|---:|---:|---:|---:|")
    for key, (b, a) in sorted(out.items()):
        m = lambda v: 100 * sum(abs(x - 1) for x in v) / len(v)
        print("| %s | %d | %.1f %% | %.1f %% | %.2f | %.2f |" % (key, len(b), m(b), m(a), st.median(b), st.median(a)))

if __name__ == "__main__":
    main()
