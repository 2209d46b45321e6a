#!/usr/bin/env python3
"""Fill the decode cap and the MTP drafts of the GB200 dynamo-trt rows that
have no recipe file, from their yaml entry's decode settings (h182).

Usage:
  dynamo_settings.py INFERENCEX_GIT_DIR recipes.csv [--mtp]   (rewrites it in place)
      INFERENCEX_GIT_DIR may be one nvidia-master.yaml on disk (the tests)

InferenceX's GB200 dynamo-trt keys of 2025-12 ... 2026-01 (dsr1-fp4-gb200-
dynamo-trt at 25506e87c8e4 and later) name no CONFIG_FILE: the decode side's
additional-settings carry DECODE_MAX_BATCH_SIZE and DECODE_MTP_SIZE, which
benchmarks/dsr1_fp4_gb200_dynamo-trt_slurm.sh hands to dynamo's
performance_sweeps/benchmark_disagg.slurm as the decode worker's
max_batch_size (TensorRT-LLM's, per attention-DP rank: the same reading as a
recipe name's batchN) and its MTP draft count.  For each such row (recipe
blank, decode_max_batch blank) the yaml at the row's own commit (the commit
column; "dynamo-sweeps@C" read at C) is searched for the entries of its key,
isl/osl, spec-decoding and worker layout; where they all agree the row gets
their DECODE_MAX_BATCH_SIZE and, with --mtp only, for an mtp row with blank
spec_tokens, their DECODE_MTP_SIZE.  --mtp is not shipped: scored at the
bench's acceptance (p 0.708) the drafts made these rows' TPOT worse (h176,
h182; docs/llm.md), so the table keeps their K blank (scored plain).  Entries that disagree leave the row as it was.  Clients are
not matched: the dynamo-sweeps rows are re-keyed on conc x decode workers.
"""
import csv, subprocess, sys

try:
    import yaml
except ImportError:  # pragma: no cover
    sys.exit("dynamo_settings.py: python3-yaml is needed")

PATH = ".github/configs/nvidia-master.yaml"


def setting_of(side, name):
    """The value of NAME= among a worker's additional-settings, or ''."""
    for s in (side or {}).get("additional-settings") or []:
        if isinstance(s, str) and s.startswith(name + "="):
            return s[len(name) + 1:]
    return ""


def layout(side):
    """(workers, tp, ep, dp-attn) as extract.py writes them."""
    return (str(side.get("num-worker", "")), str(side.get("tp", "")), str(side.get("ep", "")),
            str(int(bool(side.get("dp-attn")))))


def settings(doc, key, isl, osl, spec, lay):
    """The set of (batch, mtp) the matching entries carry."""
    cfg = (doc or {}).get(key) or {}
    seqs = cfg.get("seq-len-configs") or (cfg.get("scenarios") or {}).get("fixed-seq-len") or []
    out = set()
    for s in seqs:
        if str(s.get("isl")) != isl or str(s.get("osl")) != osl:
            continue
        for e in s.get("search-space") or []:
            p, d = e.get("prefill") or {}, e.get("decode") or {}
            if str(e.get("spec-decoding", "none")) != spec or layout(p) + layout(d) != lay:
                continue
            if setting_of(p, "CONFIG_FILE") or setting_of(d, "CONFIG_FILE"):
                continue
            out.add((setting_of(d, "DECODE_MAX_BATCH_SIZE"), setting_of(d, "DECODE_MTP_SIZE")))
    return out


def fill(rows, cols, load, mtp=False):
    """Fills rows in place; load(commit) gives the parsed yaml; mtp: the
    drafts too.  Returns the count."""
    ix = {c: cols.index(c) for c in cols}
    n = 0
    for r in rows:
        if r[ix["recipe"]] or r[ix["decode_max_batch"]] or r[ix["gpu"]] != "gb200" or r[ix["framework"]] != "dynamo-trt":
            continue
        commit = r[ix["commit"]].split("@")[-1]
        lay = tuple(r[ix[c]] for c in ("prefill_workers", "prefill_tp", "prefill_ep", "prefill_dp_attn",
                                       "decode_workers", "decode_tp", "decode_ep", "decode_dp_attn"))
        got = settings(load(commit), r[ix["config_key"]], r[ix["isl"]], r[ix["osl"]], r[ix["spec_decoding"]], lay)
        if len(got) != 1:
            continue
        b, k = got.pop()
        if not b.isdigit():
            continue
        r[ix["decode_max_batch"]] = b
        if mtp and r[ix["spec_decoding"]] == "mtp" and not r[ix["spec_tokens"]] and k.isdigit():
            r[ix["spec_tokens"]] = k
        n += 1
    return n


def main():
    args = [a for a in sys.argv[1:] if a != "--mtp"]
    if len(args) != 2:
        sys.exit(__doc__.split("\n\n")[1])
    repo, path = args
    cache = {}

    def load(commit):
        if commit not in cache:
            if repo.endswith(".yaml"):  # the tests: one file on disk
                cache[commit] = yaml.safe_load(open(repo))
            else:
                txt = subprocess.run(["git", "--git-dir", repo, "show", "%s:%s" % (commit, PATH)],
                                     capture_output=True, text=True).stdout
                cache[commit] = yaml.safe_load(txt) if txt else {}
        return cache[commit]
    with open(path) as f:
        rd = list(csv.reader(f))
    n = fill(rd[1:], rd[0], load, "--mtp" in sys.argv[1:])
    with open(path, "w") as f:
        csv.writer(f, lineterminator="\n").writerows(rd)
    print("dynamo_settings.py: %d rows filled" % n, file=sys.stderr)


if __name__ == "__main__":
    main()
