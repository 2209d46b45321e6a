#!/usr/bin/env python3
"""Fill recipes.csv's blank spec_tokens from the recipe files (issue 22, h176).

The recipe name gives TensorRT-LLM's drafts (..._mtp3.yaml) but not SGLang's
(recipes/h200/8k1k/bs8-1p6d-mtp.yaml) nor a few TensorRT-LLM ones
(ctx1_gen1_dep32_batch8_eplb0_mtp.yaml).  The drafts the decode worker ran are
in the file: TensorRT-LLM's backend.trtllm_config.decode.speculative_config
(decoding_type MTP, num_nextn_predict_layers K), SGLang's
backend.sglang_config.decode flags (speculative-algorithm EAGLE,
speculative-num-steps, speculative-eagle-topk 1, speculative-num-draft-tokens
= steps + 1 with top-k 1: K = draft tokens - 1).  Each row's file is read as
in force at the end of the row's date in NVIDIA/srt-slurm (extract.py's
srt_reader), or at the row's own srt-slurm@rev where it names one the mirror
holds.  Rows whose file cannot be read keep the blank.

usage: spec_tokens.py SRT_GITDIR [recipes.csv]   (rewrites the csv in place)
"""
import csv
import os
import sys

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from extract import srt_reader  # noqa: E402


def drafts_of(text):
    """The decode worker's draft tokens in one recipe file, or None."""
    try:
        doc = yaml.safe_load(text) or {}
    except yaml.YAMLError:
        return None
    be = doc.get("backend") or {}
    trt = ((be.get("trtllm_config") or {}).get("decode")) or {}
    if trt:
        sc = trt.get("speculative_config") or {}
        k = sc.get("num_nextn_predict_layers", sc.get("max_draft_len"))
        return int(k) if sc and k is not None else 0
    sg = ((be.get("sglang_config") or {}).get("decode")) or {}
    if sg:
        if not sg.get("speculative-algorithm"):
            return 0
        n = sg.get("speculative-num-draft-tokens")
        return int(n) - 1 if n is not None else int(sg.get("speculative-num-steps", 0)) or None
    return None


def main():
    srt = sys.argv[1]
    path = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), "recipes.csv")
    rows = list(csv.reader(open(path, newline="")))
    h = rows[0]
    cd, cc, cs, ck, cr = (h.index(x) for x in ("date", "commit", "spec_decoding", "spec_tokens", "recipe"))
    readers, cache, filled = {}, {}, 0
    for r in rows[1:]:
        if r[cs] != "mtp" or r[ck] != "" or not r[cr]:
            continue
        pin = r[cc][len("srt-slurm@"):] if r[cc].startswith("srt-slurm@") else ""
        if pin and subprocess_has(srt, pin) is False:
            pin = ""
        key = (r[cd], pin)
        if key not in readers:
            readers[key] = srt_reader(srt, r[cd], pin)[1]
        if (key, r[cr]) not in cache:
            text = readers[key](r[cr])
            cache[(key, r[cr])] = drafts_of(text) if text else None
        k = cache[(key, r[cr])]
        if k:
            r[ck], filled = str(k), filled + 1
    with open(path, "w", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows(rows)
    print("spec_tokens.py: %d rows filled" % filled, file=sys.stderr)


def subprocess_has(srt, rev):
    """Does the git dir hold commit rev? (the sa-submission branch's are not)"""
    import subprocess
    return subprocess.run(["git", "--git-dir", srt, "cat-file", "-e", rev + "^{commit}"],
                          capture_output=True).returncode == 0


if __name__ == "__main__":
    main()
