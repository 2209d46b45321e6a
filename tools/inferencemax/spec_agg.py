#!/usr/bin/env python3
"""Which single-node TensorRT-LLM and SGLang runs of SemiAnalysis'
InferenceMAX (InferenceX) decoded with MTP, and with how many drafts, as a
CSV table the serving bench reads (bench_serving.c, agg_spec; docs/llm.md,
"Aggregated MTP runs (h159)").

The silicon dumps do not record speculative decoding.  InferenceX runs MTP
as its own config key (dsr1-fp8-b200-trt-mtp beside dsr1-fp8-b200-trt), whose
search-space entries say spec-decoding: mtp, often on another image (the
TensorRT-LLM MTP keys ran 1.2.0rc6.post3 while the plain ones ran post2).
This table lists every single-node trt / sglang entry of
.github/configs/nvidia-master.yaml as it stood at the end of each date
(UTC): model prefix, runner GPU, precision, framework, image tag, isl, osl,
tp, ep, dp-attn, the concurrencies (conc_lo..conc_hi, doubling; a conc-list
gives one row per value), spec (mtp / none) and, for mtp, the drafts per
step its script sets that day (benchmarks/single_node/<prefix>_<precision>_
<gpu>[_trt]_mtp.sh, before 2026 benchmarks/..._mtp_slurm.sh): TensorRT-LLM's
num_nextn_predict_layers: ${MTP} (MTP=3, 1 under dp-attn), SGLang's
--speculative-num-steps (EAGLE, topk 1: that many drafts); 0 where the
script or its value is not found.

Usage:
  spec_agg.py --repo GITDIR --date YYYY-MM-DD [--date ...] > spec_agg.csv

The shipped spec_agg.csv holds the measured= dates of the silicon dumps'
aggregated trtllm / sglang rows (bench/bench_serving.c lists them beside
agg_spec).  Python 3 and Debian's yaml module only; facts, not code, are
taken from the InferenceX repository.
"""
import argparse, os, re, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from extract import PATH, git  # noqa: E402
from recv_interval import evaluate, flag_value, skeleton, write_dates  # noqa: E402

try:
    import yaml
except ImportError:  # pragma: no cover
    sys.exit("spec_agg.py: python3-yaml is needed (Debian: apt-get install python3-yaml)")

COLS = ["date", "commit", "config_key", "model_prefix", "gpu", "precision", "framework", "image", "isl", "osl", "tp",
        "ep", "dp_attn", "conc_lo", "conc_hi", "spec", "drafts"]
FRAMEWORKS = {"trt": ("_trt", "MTP", None), "sglang": ("", "SPECULATIVE_NUM_STEPS", "--speculative-num-steps")}


def script_text(repo, commit, files, name):
    """The script as it stood: benchmarks/single_node/NAME, or before 2026
    benchmarks/NAME with the runner's _slurm / _docker suffix."""
    base = name[:-3]
    for path in ("benchmarks/single_node/" + name, "benchmarks/" + name, "benchmarks/%s_slurm.sh" % base,
                 "benchmarks/%s_docker.sh" % base):
        if path in files:
            return git(repo, "show", "%s:%s" % (commit, path))
    return None


_EVAL = {}


def drafts_of(text, framework, isl, osl, tp, conc, dp_attn):
    """The drafts per step the script sets for one run; 0: not found."""
    if text is None:
        return 0
    _, var, flag = FRAMEWORKS[framework]
    # the variable the flag takes (TensorRT-LLM's scripts write MTP into a yaml heredoc: MTP itself)
    v = flag_value(text, flag, var) if flag else (var if re.search(r"\$\{?%s\b" % var, text) else None)
    if not isinstance(v, str):
        return int(v or 0)
    var = v
    skel = skeleton(text, var)
    if not skel:
        return 0
    tpk = min((t for t in (1, 2, 4, 8) if t >= tp), default=8)  # the evaluated TPs
    ck = (skel, var, dp_attn)
    if ck not in _EVAL:  # one bash process per script text and dp-attn
        _EVAL[ck] = evaluate(skel, var, "true" if dp_attn else "false")
    got = _EVAL[ck]
    return got.get((isl, osl, tpk, min(conc, 1024)), 0)


def entries(cfg):
    for s in cfg.get("seq-len-configs") or (cfg.get("scenarios") or {}).get("fixed-seq-len") or []:
        for e in s.get("search-space") or []:
            if e.get("conc-list"):
                for c in e["conc-list"]:
                    yield s, e, c, c
            elif e.get("conc-start") and e.get("conc-end"):
                yield s, e, e["conc-start"], e["conc-end"]


def date_rows(repo, date):
    commit = git(repo, "log", "-1", "--format=%H", "--until=%s 23:59:59 +0000" % date, "HEAD", "--", PATH).strip()
    if not commit:
        return []
    doc = yaml.safe_load(git(repo, "show", "%s:%s" % (commit, PATH))) or {}
    files = set(git(repo, "ls-tree", "-r", "--name-only", commit, "benchmarks").split())
    scripts, rows = {}, []
    for key, cfg in doc.items():
        fw = str(cfg.get("framework", "")) if isinstance(cfg, dict) else ""
        if fw not in FRAMEWORKS or cfg.get("multinode") or cfg.get("disagg"):
            continue
        prefix, prec, gpu = cfg.get("model-prefix", ""), cfg.get("precision", ""), str(cfg.get("runner", "")).split("-")[0]
        image = str(cfg.get("image", "")).rsplit(":", 1)[-1]
        for s, e, lo, hi in entries(cfg):
            spec = e.get("spec-decoding") or cfg.get("spec-decoding") or "none"
            k = 0
            if spec == "mtp":
                name = "%s_%s_%s%s_mtp.sh" % (prefix, prec, gpu, FRAMEWORKS[fw][0])
                if name not in scripts:
                    scripts[name] = script_text(repo, commit, files, name)
                k = drafts_of(scripts[name], fw, s.get("isl"), s.get("osl"), int(e.get("tp") or 1), lo,
                              bool(e.get("dp-attn")))
            rows.append([date, commit[:12], key, prefix, gpu, prec, fw, image, s.get("isl"), s.get("osl"),
                         int(e.get("tp") or 1), int(e.get("ep") or 1), int(bool(e.get("dp-attn"))), lo, hi, spec, k])
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repo", required=True, help="InferenceX git directory (bare or .git)")
    ap.add_argument("--date", action="append", default=[], help="measured date YYYY-MM-DD (repeatable)")
    a = ap.parse_args()
    write_dates("spec_agg.py", COLS, a.repo, a.date, date_rows)


if __name__ == "__main__":
    main()
