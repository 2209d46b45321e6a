#!/usr/bin/env python3
"""The single-node vLLM expert-parallel runs of SemiAnalysis' InferenceMAX
(InferenceX), as a CSV table the serving bench reads (bench_serving.c,
vllm_ep_layout / vllm_dp_attn; docs/llm.md, "vLLM's expert-parallel rows").

The silicon dumps record a vLLM {tp: T, ep: T} run as tp = attention_dp = T,
moe_ep = T x T, and do not say whether the entry set dp-attn, which changes
what ran: InferenceX's vLLM scripts serve dp-attn as --tensor-parallel-size 1
--data-parallel-size T (benchmarks/single_node/minimaxm2.5_fp4_b200.sh), the
others as --tensor-parallel-size T --enable-expert-parallel.  This table
gives, for each date, every (model prefix, GPU, precision, isl, osl, tp, ep,
concurrency) of a single-node vLLM entry with ep > 1 and its dp-attn flag, as
.github/configs/nvidia-master.yaml stood at the end of that day (UTC).

Usage:
  vllm_ep.py --repo GITDIR --date YYYY-MM-DD [--date ...] > vllm_ep.csv
  vllm_ep.py --yaml FILE [--date LABEL] > vllm_ep.csv     (a test fixture)

The shipped vllm_ep.csv holds the measured= dates of the dumps' vLLM rows in
that layout: 2026-03-11 03-27 03-28 04-03 04-08 04-17 04-21 04-22.
Concurrencies expand as InferenceX's utils/matrix_logic/
generate_sweep_configs.py does: conc-list, or conc-start doubling up to
conc-end (the last one clamped to conc-end).  Python 3 and Debian's yaml
module only; facts, not code, are taken from the InferenceX repository.
"""
import os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from extract import cli  # noqa: E402  (the same command line and repository walk)

COLS = ["date", "commit", "model_prefix", "gpu", "precision", "isl", "osl", "tp", "ep", "dp_attn", "conc"]


def concs(e):
    """The concurrencies one search-space entry runs."""
    if e.get("conc-list"):
        return list(e["conc-list"])
    c, end, out = e.get("conc-start"), e.get("conc-end"), []
    if not c or not end:
        return out
    while c <= end:
        out.append(c)
        if c == end:
            break
        c = min(c * 2, end)
    return out


def rows_of(doc, date, commit, _cdate):
    out = []
    for key, cfg in (doc or {}).items():
        if not isinstance(cfg, dict) or cfg.get("multinode") or cfg.get("disagg"):
            continue
        if "vllm" not in str(cfg.get("framework", "")):
            continue
        seqs = cfg.get("seq-len-configs") or (cfg.get("scenarios") or {}).get("fixed-seq-len") or []
        for s in seqs:
            for e in s.get("search-space") or []:
                ep = int(e.get("ep") or 1)
                if ep <= 1:
                    continue
                for c in concs(e):
                    out.append([date, commit, cfg.get("model-prefix", ""), cfg.get("runner", ""),
                                cfg.get("precision", ""), s.get("isl"), s.get("osl"), e.get("tp"), ep,
                                int(bool(e.get("dp-attn"))), c])
    return out


def main():
    cli(rows_of, COLS, "vllm_ep.py", __doc__)


if __name__ == "__main__":
    main()
