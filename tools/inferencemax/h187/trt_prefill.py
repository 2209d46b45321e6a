#!/usr/bin/env python3
"""trt_prefill.py SRT_SLURM_GIT_DIR [COMMIT] > tools/inferencemax/h187/trt_prefill.csv

The context (prefill) worker's settings of each TensorRT-LLM recipe that
tools/inferencemax/recipes.csv names (issue 22, h187), read from
NVIDIA/srt-slurm at COMMIT (default HEAD): backend.trtllm_config.prefill's
max_batch_size (a rank's, TensorRT-LLM's max_num_active_requests),
max_num_tokens (a rank's step budget), tensor_parallel_size,
enable_attention_dp, whether attention_dp_config is set (the ADP balance,
off by default: AttentionDpConfig.enable_balance False),
disable_overlap_scheduler, enable_chunked_prefill.  Recipes not in the tree
at COMMIT are left out."""
import csv, os, subprocess, sys
import yaml

def main():
    g = sys.argv[1]
    commit = sys.argv[2] if len(sys.argv) > 2 else "HEAD"
    here = os.path.dirname(os.path.abspath(__file__))
    tab = os.path.join(here, "..", "recipes.csv")
    names = sorted({r["recipe"] for r in csv.DictReader(open(tab)) if r["engine"] == "trtllm" and r["recipe"]})
    w = csv.writer(sys.stdout, lineterminator="\n")
    w.writerow(["recipe", "prefill_workers", "tp", "attention_dp", "max_batch_size", "max_num_tokens",
                "adp_config_set", "disable_overlap", "chunked_prefill"])
    for f in names:
        p = subprocess.run(["git", "--git-dir", g, "show", f"{commit}:{f}"], capture_output=True, text=True)
        if p.returncode:
            continue
        y = yaml.safe_load(p.stdout)
        pf = ((y.get("backend") or {}).get("trtllm_config") or {}).get("prefill") or {}
        res = y.get("resources") or {}
        w.writerow([f, res.get("prefill_workers", ""), pf.get("tensor_parallel_size", ""),
                    int(bool(pf.get("enable_attention_dp"))), pf.get("max_batch_size", ""),
                    pf.get("max_num_tokens", ""), int(pf.get("attention_dp_config") is not None),
                    int(bool(pf.get("disable_overlap_scheduler"))), int(bool(pf.get("enable_chunked_prefill")))])

if __name__ == "__main__":
    main()
