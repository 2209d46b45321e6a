#!/usr/bin/env python3
"""The silicon TTFT with the first wave's burst weights and the per-engine
front ends refit (issue 22, h230), to first order on a rows dump
(`bench_llm.sh --serving silicon --analytic-only --rows ROWS.csv`).

The bench's refit blocks (bench_serving.c burst_report, engine_report) fit on
the aggregated rows and score the aggregated rows only; the front end
(llm_serve.c REQ_FIT_*_MS) is added to the prefill workers' TTFT too, so the
headline with refit constants needs both phases.  Here, as there: the burst
weight w of class k (0 decode-first: vLLM, TensorRT-LLM, SGLang with mixed
chunks; 1 prefill-first SGLang) moves an aggregated row's TTFT by
(w - compiled) x (ttft_burst - ttft_steady) (not on lockstep rows); then the
front end t of an engine is the relative least-squares constant
t = sum w (y - (a - req)) / sum w, w = 1 / y^2, over the aggregated rows,
and replaces req on every aggregated and prefill-worker row of the engine.
Held out: the constants refit without one GPU (family) and scored on its
rows of both phases.

With --both the front ends are fitted on the prefill workers' rows as well
(the time is charged to both phases; the compiled ones saw the aggregated
rows only).

usage: prompt_draw_refit.py ROWS.csv [--both]
"""
import csv
import sys

FE_BOTH = "--both" in sys.argv

BURST_COMPILED = (0.14, 0.17)


def load(path):
    out = []
    for r in csv.DictReader(open(path)):
        if r["set"] != "silicon" or r["phase"] not in ("0", "1"):
            continue
        y, a = float(r["y_0"]), float(r["a_0"])
        if not (y == y and y > 0 and a > 0):
            continue
        cls = 1 if r["backend"] == "sglang" and r["mixed"] == "0" else 0
        out.append(dict(y=y, a=a, req=float(r["req_ms"]), agg=r["phase"] == "0", eng=r["backend"], cls=cls,
                        gap=float(r["ttft_burst_ms"]) - float(r["ttft_steady_ms"]), lock=r["lockstep"] == "1",
                        gpu=r["system"], fam=r["family"]))
    return out


def burst_pred(r, w):
    if not r["agg"] or r["lock"]:
        return r["a"]
    return r["a"] + (w[r["cls"]] - BURST_COMPILED[r["cls"]]) * r["gap"]


def fit(rows):
    """(burst weights per class, front end per engine) fitted on the aggregated rows"""
    w = list(BURST_COMPILED)
    for k in (0, 1):
        # the compiled weight stands unless a weight scores strictly better
        # (a class without rows, or rows the weight does not move, keep it)
        best, best_e = w[k], sum(abs(burst_pred(r, w) / r["y"] - 1) for r in rows if r["agg"] and r["cls"] == k)
        for i in range(101):
            t = list(w)
            t[k] = i / 100
            e = sum(abs(burst_pred(r, t) / r["y"] - 1) for r in rows if r["agg"] and r["cls"] == k)
            if e < best_e:
                best, best_e = i / 100, e
        w[k] = best
    fe = {}
    for eng in {r["eng"] for r in rows}:
        num = den = 0.0
        for r in rows:
            if (r["agg"] or FE_BOTH) and r["eng"] == eng:
                q = 1 / r["y"] ** 2
                num += q * (r["y"] - (burst_pred(r, w) - r["req"]))
                den += q
        if den > 0:
            fe[eng] = num / den
    return w, fe


def pred(r, w, fe):
    p = burst_pred(r, w)
    return p - r["req"] + fe[r["eng"]] if r["eng"] in fe else p


def mape(rows, f):
    return 100 * sum(abs(f(r) / r["y"] - 1) for r in rows) / len(rows) if rows else float("nan")


def heldout(rows, key):
    err = n = 0
    for g in sorted({r[key] for r in rows}):
        w, fe = fit([r for r in rows if r[key] != g])
        test = [r for r in rows if r[key] == g]
        err += sum(abs(pred(r, w, fe) / r["y"] - 1) for r in test)
        n += len(test)
    return 100 * err / n


def main():
    rows = load(sys.argv[1])
    w, fe = fit(rows)
    agg, pw = [r for r in rows if r["agg"]], [r for r in rows if not r["agg"]]
    print("refit: burst weights decode-first %.2f, prefill-first %.2f; front ends %s" %
          (w[0], w[1], ", ".join("%s %.1f ms" % (k, v) for k, v in sorted(fe.items()))))
    for name, sub in (("TTFT (aggregated + prefill workers)", rows), ("aggregated", agg), ("prefill workers", pw)):
        print("%-36s %5d rows: compiled %.2f %%, refit in-sample %.2f %%" %
              (name, len(sub), mape(sub, lambda r: r["a"]), mape(sub, lambda r: pred(r, w, fe))))
    for key in ("eng", "gpu", "fam"):
        print("by %s: " % key + "  ".join(
            "%s %.1f -> %.1f (%d)" % (g, mape(sub, lambda r: r["a"]), mape(sub, lambda r: pred(r, w, fe)), len(sub))
            for g in sorted({r[key] for r in rows}) for sub in [[r for r in rows if r[key] == g]]))
    print("held out (both phases): leave-one-GPU-out %.2f %%, leave-one-family-out %.2f %%" %
          (heldout(rows, "gpu"), heldout(rows, "fam")))


if __name__ == "__main__":
    main()
