#!/usr/bin/env python3
"""The decode worker's MoE backend of each TensorRT-LLM recipe (issue 22, h197).

TensorRT-LLM's srt-slurm recipes set backend.trtllm_config.decode.moe_config.backend
(NVIDIA/srt-slurm recipes/trtllm/b200-fp8/...: TRTLLM on the TP 8 decode
workers, DEEPGEMM on the 1k/1k and 8k/1k-MTP DEP 8 ones, TRTLLM on the 8k/1k
plain DEP 8 ones).  TRTLLM runs the trtllm-gen fused MoE, which the library
prices with h188's fit (dlp_llm_workload.moe_trtllm_gen).  Each recipes.csv
row's file is read as in force at the end of the row's date (extract.py's
srt_reader; at the row's srt-slurm@rev where the mirror holds it); a recipe
whose rows read different backends is left out (not settled).

usage: moe_backend.py SRT_GITDIR [recipes.csv] > moe_backend.csv
  columns: recipe, decode backend is TRTLLM (1/0), prefill backend is TRTLLM (1/0)
"""
import csv
import os
import sys

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from extract import srt_reader  # noqa: E402
from spec_tokens import subprocess_has  # noqa: E402


def backends_of(text):
    """(prefill, decode) moe_config.backend of a TensorRT-LLM recipe, or None."""
    try:
        doc = yaml.safe_load(text) or {}
    except yaml.YAMLError:
        return None
    trt = (doc.get("backend") or {}).get("trtllm_config") or {}
    if not trt:
        return None
    side = [((trt.get(s) or {}).get("moe_config") or {}).get("backend", "") for s in ("prefill", "decode")]
    return tuple(str(x).upper() for x in side)


def main():
    srt = sys.argv[1]
    path = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), "recipes.csv")
    rows = list(csv.reader(open(path, newline="")))
    h = rows[0]
    cd, cc, ce, cr = (h.index(x) for x in ("date", "commit", "engine", "recipe"))
    readers, seen = {}, {}
    for r in rows[1:]:
        if r[ce] != "trtllm" or not r[cr].startswith("recipes/"):
            continue
        pin = r[cc][len("srt-slurm@"):] if r[cc].startswith("srt-slurm@") else ""
        if pin and subprocess_has(srt, pin) is False:
            pin = ""
        key = (r[cd], pin)
        if key not in readers:
            readers[key] = srt_reader(srt, r[cd], pin)[1]
        text = readers[key](r[cr])
        b = backends_of(text) if text else None
        if b is not None:
            seen.setdefault(r[cr], set()).add(b)
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(["recipe", "decode_trtllm_gen", "prefill_trtllm_gen"])
    n = 0
    for rec in sorted(seen):
        if len(seen[rec]) != 1:
            continue
        p, d = next(iter(seen[rec]))
        if "TRTLLM" in (p, d):
            out.writerow([rec, int(d == "TRTLLM"), int(p == "TRTLLM")])
            n += 1
    print("moe_backend.py: %d recipes with a TRTLLM side, %d left out (backends differ by date)"
          % (n, sum(len(s) > 1 for s in seen.values())), file=sys.stderr)


if __name__ == "__main__":
    main()
