#!/usr/bin/env python3
"""The SGLang prefill worker's expert parallelism of NVIDIA/srt-slurm's GB200 /
GB300 recipes as in force on a run's measured= date (issue 22, h216).

For each date: the last srt-slurm commit before the day's end; every recipe
file under recipies/ (2025) or recipes/ (2026) for gb200-* / gb300-* with an
sglang_config; one line a recipe: the workers, each worker's GPUs (tp-size),
the prefill ep-size and moe-a2a-backend, the decode's, and the benchmark's
isl, osl and clients.  The bench (bench_serving.c, srt_ep_of) reads it for
db-dump rows with worker counts in the data whose prefill EP reads 1.

usage: srt_prefill_ep.py MIRROR_GIT_DIR DATE... > tools/inferencemax/srt_prefill_ep.csv
"""
import subprocess, sys, yaml


def git(d, *a):
    return subprocess.run(["git", "--git-dir", d] + list(a), capture_output=True, text=True, check=True).stdout


def main():
    d, dates = sys.argv[1], sys.argv[2:]
    print("date,commit,recipe,gpu,precision,isl,osl,concs,pw,ptp,pep,pa2a,dw,dtp,dep")
    for day in dates:
        c = git(d, "rev-list", "-1", "--before=%sT23:59:59Z" % day, "HEAD").strip()
        for f in git(d, "ls-tree", "-r", "--name-only", c).split():
            p = f.split("/")
            if len(p) < 3 or p[0] not in ("recipies", "recipes") or not f.endswith(".yaml"):
                continue
            g = p[1].split("-")
            if g[0] not in ("gb200", "gb300") or len(g) < 2:
                continue
            try:
                y = yaml.safe_load(git(d, "show", "%s:%s" % (c, f)))
            except Exception:
                continue
            sc = ((y or {}).get("backend") or {}).get("sglang_config") or {}
            pf, de, res, bm = sc.get("prefill") or {}, sc.get("decode") or {}, y.get("resources") or {}, y.get("benchmark") or {}
            if not pf or not bm.get("isl"):
                continue
            gpn = int(res.get("gpus_per_node", 4))
            pw, dw = int(res.get("prefill_workers", 0)), int(res.get("decode_workers", 0))
            ptp = int(pf.get("tp-size", res.get("prefill_nodes", 0) * gpn // max(pw, 1)))
            dtp = int(de.get("tp-size", res.get("decode_nodes", 0) * gpn // max(dw, 1)))
            print(",".join(str(x) for x in (day, c[:8], f, g[0], g[1], bm["isl"], bm["osl"],
                                            str(bm.get("concurrencies", "")).replace(" ", ""), pw, ptp,
                                            int(pf.get("ep-size", 1)), pf.get("moe-a2a-backend", "none"), dw, dtp,
                                            int(de.get("ep-size", 1)))))


main()
