#!/usr/bin/env python3
"""Spot check of `dlperf llm` serving phases against splitwise-sim's profiled Llama-2-70B rows (issue 22).

NOT a bench slice yet (no LOGO/LOFO, no refusal accounting; BLOOM-176B is not in the catalogue):
a first look at a data set the issue's "Done when" names and `bench_llm.sh --serving` does not score.

  python3 bench/splitwise_spot.py [--engine vllm-v0|modern|...]     (run from the repository root, after make)

Rows: ../shared/data/splitwise-sim/data/perf_model.csv, model llama2-70b, hardware a100-80gb / h100-80gb (the
power-capped H100 is left out: its cap is not recorded), median over repeats of each (prompt, batch, tokens, TP).
token_time (ms per output token at batch B) vs a decode worker's TPOT at B clients (--max-seqs B);
prompt_time (a batch of B prompts) vs one prompt's prefill_ms (batch ignored: a lower bound, said as such).
"""
import collections
import csv
import json
import statistics
import subprocess
import sys

DATA = "../shared/data/splitwise-sim/data/perf_model.csv"
DEV = {"a100-80gb": "a100-80gb", "h100-80gb": "h100-sxm"}


def main(extra):
    groups = collections.defaultdict(list)
    for r in csv.DictReader(open(DATA)):
        if r["model"] == "llama2-70b" and r["hardware"] in DEV:
            key = (r["hardware"], int(r["prompt_size"]), int(r["batch_size"]), int(r["token_size"]),
                   int(r["tensor_parallel"]))
            groups[key].append(r)
    tok_err = collections.defaultdict(list)
    pf_err = collections.defaultdict(list)
    refused = collections.Counter()
    for (hw, p, b, t, tp), rs in sorted(groups.items()):
        tok = statistics.median(float(r["token_time"]) for r in rs)
        prompt = statistics.median(float(r["prompt_time"]) for r in rs)
        cmd = ["build/dlperf", "llm", "--model", "meta-llama/Llama-2-70b-hf", "--device", DEV[hw], "--gpus", str(tp),
               "--dtype", "fp16", "--prompt", str(p), "--gen", str(t), "--concurrency", str(b), "--max-seqs", str(b),
               "--json", "--analytic", "--phase", "decode"] + extra
        o = subprocess.run(cmd, capture_output=True, text=True)
        if o.returncode:
            msg = o.stderr.strip().split(": ", 2)
            refused[(msg[-1] if len(msg) > 1 else msg[0])[:70]] += 1
            continue
        s = json.loads(o.stdout)["serving"]
        tok_err[(hw, tp)].append(s["tpot_ms"] / tok - 1)
        pf_err[(hw, tp)].append(s["prefill_ms"] / prompt - 1)
    for k in sorted(tok_err):
        e, f = tok_err[k], pf_err[k]
        print("%-10s TP%d  configs %3d  token_time MAPE %6.1f %% (median err %+6.1f %%)   prompt_time vs one prompt's "
              "prefill: median err %+6.1f %%" % (k[0], k[1], len(e), 100 * statistics.mean(abs(x) for x in e),
                                                 100 * statistics.median(e), 100 * statistics.median(f)))
    for why, n in refused.items():
        print("refused %d: %s" % (n, why))


if __name__ == "__main__":
    main(sys.argv[1:])
