#!/usr/bin/env python3
"""Two first-order what-ifs on the closed loop's steady TTFT (docs/llm.md, h221),
on the rows dump of `bash bench/bench_llm.sh --serving silicon --analytic-only
--rows ROWS.csv`.  Neither is compiled in; both print the silicon TTFT MAPE
before -> after and the aggregated TensorRT-LLM rows by family and by source.

  lb     The steps around an arrival priced as the run's mix of steps, not as
         decode-only steps: the library's steady wait is half a decode step in
         flight plus, under overlap scheduling (TensorRT-LLM, SGLang), one
         decode step already prepared.  Here a share f = (mean step - decode
         step) / prefill of the steps carries a prompt (prefill + decode step
         long), the step in flight is met length-biased (its residual
         E[t^2] / 2 E[t]) and the prepared step is the mean step.  Every
         aggregated row with more than one client, no MTP, not in lockstep.
  mix3   TensorRT-LLM's steady TTFT as three of the prompt's mixed steps
         (ai-dynamo/aiconfigurator PR #203, 2025-12-22: "TTFT = 3 *
         mixed_step_latency", read from TensorRT-LLM's iteration logs; PR #610
         "when bs > 4"): aggregated TensorRT-LLM rows, more than 4 clients, no
         MTP; the prompt's step is the dump's steady TTFT less its wait of 1.5
         decode steps.  SCOPE 'gap' limits it to the gap-analysis rows.

The dump's TTFT is req_ms + w ttft_burst + (1 - w) ttft_steady, w the
decode-first burst weight (0.14), so a change d of the steady TTFT moves the
prediction by (1 - w) d.

usage: gap_wait_whatif.py ROWS.csv lb|mix3 [gap]
"""
import collections
import csv
import sys

W_BURST = 0.14  # BURST_FIT_DECODE_FIRST, src/llm/llm_serve.c


def lb_delta(x):
    if x["phase"] != "0" or int(x["conc"]) < 2 or x["lockstep"] != "0" or x["spec_k"] not in ("0", ""):
        return 0.0
    dec, m, pf = float(x["decode_step_ms"]), float(x["a_1"]), float(x["prefill_ms"])
    if not (pf > 0 and m > dec):
        return 0.0
    f = min(1.0, (m - dec) / pf)
    tp = dec + pf if f < 1 else m
    et, et2 = f * tp + (1 - f) * dec, f * tp * tp + (1 - f) * dec * dec
    ov = 1.0 if x["backend"] in ("trtllm", "sglang") else 0.0
    return (et2 / (2 * et) + ov * et) - (0.5 * dec + ov * dec)


def mix3_delta(x, scope):
    if x["phase"] != "0" or x["backend"] != "trtllm" or int(x["conc"]) <= 4 or x["spec_k"] not in ("0", ""):
        return 0.0
    if scope == "gap" and "gap" not in x["src_name"]:
        return 0.0
    dec, st = float(x["decode_step_ms"]), float(x["ttft_steady_ms"])
    ride = st - 1.5 * dec
    return 3.0 * ride - st if ride > 0 else 0.0


def main():
    if len(sys.argv) < 3 or sys.argv[2] not in ("lb", "mix3"):
        sys.exit(__doc__)
    scope = sys.argv[3] if len(sys.argv) > 3 else ""
    with open(sys.argv[1], newline="") as fh:
        rows = list(csv.DictReader(fh))
    e0, e1 = collections.defaultdict(list), collections.defaultdict(list)
    for x in rows:
        if x.get("set", "silicon") != "silicon":
            continue
        try:
            y, a = float(x["y_0"]), float(x["a_0"])
        except ValueError:
            continue
        if not (y > 0) or a != a:
            continue
        d = lb_delta(x) if sys.argv[2] == "lb" else mix3_delta(x, scope)
        a2 = a + (1 - W_BURST) * d
        keys = ["silicon"]
        if x["phase"] == "0" and x["backend"] == "trtllm":
            keys += ["trtllm " + x["family"], "trtllm " + x["src_name"]]
        for k in keys:
            e0[k].append(abs(a - y) / y)
            e1[k].append(abs(a2 - y) / y)
    for k in sorted(e0, key=lambda k: (k != "silicon", k)):
        print("%-34s %5d rows: TTFT %.2f -> %.2f %%" %
              (k, len(e0[k]), 100 * sum(e0[k]) / len(e0[k]), 100 * sum(e1[k]) / len(e1[k])))


if __name__ == "__main__":
    main()
