#!/usr/bin/env python3
"""Extract the disaggregated run configurations of SemiAnalysis' InferenceMAX
(now InferenceX) from .github/configs/nvidia-master.yaml, as a CSV table
the serving bench reads (bench_serving.c, --recipes; docs/llm.md, "Worker
counts from the InferenceMAX recipes (h129)").

Usage:
  extract.py --repo GITDIR --date YYYY-MM-DD [--date ...] > recipes.csv
      for each date, the file's version in force at the end of that day
      (UTC; the last commit touching it before then: git log --until).
      The dates are the dumps' (source_file=) and the runs' own measured=
      dates (h142: the bench falls back to the latter; docs/llm.md lists them)
      The shipped recipes.csv holds, in this order, 2026-03-25 and 2026-04-06
      (the dumps, h129), the h142 measured dates, then 2026-01-29, 02-09,
      04-07 and 04-18 (h143, appended); every date in it:
      2025-12-05 2025-12-15 2025-12-19 2025-12-21 2026-01-07 2026-01-29
      2026-02-03 02-05 02-07 02-08 02-09 02-11 02-12 02-13 02-14 2026-03-18
      03-23 03-25 2026-04-02 04-06 04-07 04-18
  extract.py --yaml FILE [--date LABEL] > recipes.csv
      one yaml file on disk (the tests' fixture)
  extract.py ... --srt-slurm SRT [--srt-commit REV] >> recipes.csv (no header)
      instead of the entries, the entries re-keyed on the clients their
      srt-slurm recipe benchmarks (h162): InferenceX's srt-slurm runners
      clone srt-slurm and run `srtctl apply -f "$CONFIG_FILE"`, so the run's
      clients are the recipe's benchmark.concurrencies, not the conc-list
      label (c512_ctx2_gen7_..._mtp0.yaml: concurrencies "3584").  SRT is
      NVIDIA/srt-slurm's git dir (the recipe as in force at the end of each
      --date, or at --srt-commit) or a checkout on disk (the tests); the
      commit column reads "srt-slurm@<commit>" so the bench can tell these
      rows from the yaml's.  Shipped: appended for the h142 measured dates.
  Last, the Kimi-K2.5 GB200 sweep run from an unmerged branch (h159): its
  runs (wip=True, measured 2026-04-02) were configured by the
  kimik2.5-fp4-gb200-dynamo-trt key that PR #1026 first committed on
  2026-04-13 (105dbb812), whose entries list exactly those runs' clients on
  1k/1k and 8k/1k; its rows are appended under the runs' date:
      extract.py --yaml <(git --git-dir GITDIR show 105dbb812:PATH) --date 2026-04-02
        | grep kimik2.5-fp4-gb200 | awk -F, -v OFS=, '{$2="105dbb812fd6"; $3="2026-04-13"; print}'
  extract.py --srt-slurm SRT --srt-commit REV --srt-recipes DIR --date D --key KEY >> recipes.csv
      srt-slurm recipes read on their own, where no InferenceX entry names
      them (h170): one row per recipe and benchmark client count, the layout
      from the recipe's resources and engine config, filed under KEY and the
      runs' date D, commit "srt-slurm@<REV>".  Shipped: the GLM-5 GB200 wip
      sweep (measured 2026-04-02), srt-slurm PR #8 / #23's first commit:
      --srt-commit 10b37984905c68ece6324a20f244c3cdca8d0f9c
      --srt-recipes recipes/GLM5/disagg/trtllm_dynamo/gb200_nvfp4
      --date 2026-04-02 --key glm5-fp4-gb200-dynamo-trt
  extract.py --repo GITDIR --srt-slurm SRT --srt-branch-at REV --date ... >> recipes.csv
      the rows re-keyed on the recipes as at REV where they differ from the
      date's (h170; srt_branch_rows): the runners cloned the
      sa-submission-q1-2026 branch, which reached the default branch in its
      merge (5063eb43, 2026-03-03), so a recipe the yaml named before then may
      be absent on the date (the H200 TensorRT-LLM c1 recipes of 2026-02-14:
      11, 13 and 9 clients) or list other clients there (B300 fp8 8k1k
      ..._mtp3_8.yaml: [5] at the merge).  Shipped: --srt-branch-at
      5063eb432640574bd93410ae2697591a7d15f57c with --date 2026-02-03 02-05
      02-07 02-08 02-11 02-12 02-13 02-14
  extract.py --repo GITDIR --date ... --dynamo-sweeps >> recipes.csv
      the entries re-keyed on conc x decode workers, the clients dynamo's
      TensorRT-LLM sweep script runs (h170; sweep_rows), commit
      "dynamo-sweeps@<commit>".  Shipped, for InferenceX's GB200 dynamo-trt
      keys only (their scripts ran that sweep script from 2025-12-05 on):
      --date 2025-12-05 --date 2025-12-19 --date 2026-01-07 --dynamo-sweeps
        | awk -F, '$4 ~ /-gb200-dynamo-trt$/'

  Last of all, the GB200 dynamo-trt rows with no recipe file get their yaml
  entry's DECODE_MAX_BATCH_SIZE as decode_max_batch (h182; its drafts,
  DECODE_MTP_SIZE, only with --mtp, not shipped), in place:
      tools/inferencemax/dynamo_settings.py GITDIR recipes.csv

One output row per (config key, isl/osl, search-space entry, conc).  The
recipe's file name (CONFIG_FILE=...ctxN_genM_dep8_batchB_eplb0_mtpK.yaml)
gives the decode max batch B and the draft tokens K where it follows that
naming; blank where it does not (SGLang's recipes mostly do not).
Python 3 and Debian's yaml module only; facts, not code, are taken from
the InferenceX repository.
"""
import argparse, csv, os, re, subprocess, sys

try:
    import yaml
except ImportError:  # pragma: no cover
    sys.exit("extract.py: python3-yaml is needed (Debian: apt-get install python3-yaml)")

PATH = ".github/configs/nvidia-master.yaml"
COLS = ["date", "commit", "commit_date", "config_key", "model_prefix", "model", "gpu", "precision", "framework",
        "engine", "isl", "osl", "conc", "spec_decoding", "spec_tokens", "decode_max_batch",
        "prefill_workers", "prefill_tp", "prefill_ep", "prefill_dp_attn",
        "decode_workers", "decode_tp", "decode_ep", "decode_dp_attn", "recipe"]


def git(repo, *args):
    r = subprocess.run(["git", "--git-dir", repo] + list(args), capture_output=True, text=True)
    if r.returncode:
        sys.exit("extract.py: git %s failed in %s: %s" % (args[0], repo, r.stderr.strip()))
    return r.stdout


def recipe_of(side):
    """The CONFIG_FILE= path among a worker's additional-settings, or ''."""
    for s in (side or {}).get("additional-settings") or []:
        if isinstance(s, str) and s.startswith("CONFIG_FILE="):
            return s[len("CONFIG_FILE="):]
    return ""


def name_int(recipe, key):
    """N of '_keyN' / 'keyN_' in the recipe's base name (batch, mtp), or ''."""
    base = recipe.rsplit("/", 1)[-1]
    m = re.search(r"(?:^|_)%s(\d+)(?:_|\.|$)" % key, base)
    return m.group(1) if m else ""


def engine_of(framework):
    """InferenceX's framework -> the silicon file's backend name."""
    if "trt" in framework:
        return "trtllm"
    if "sglang" in framework:
        return "sglang"
    if "vllm" in framework:
        return "vllm"
    return framework


def rows_of(doc, date, commit, cdate):
    """The table rows of one parsed yaml version (disaggregated keys only)."""
    out = []
    for key, cfg in (doc or {}).items():
        if not isinstance(cfg, dict) or not cfg.get("disagg"):
            continue
        # the scenarios moved from seq-len-configs to scenarios.fixed-seq-len
        seqs = cfg.get("seq-len-configs") or (cfg.get("scenarios") or {}).get("fixed-seq-len") or []
        runner = str(cfg.get("runner", "")).replace("-multinode", "")
        fw = str(cfg.get("framework", ""))
        for s in seqs:
            for e in s.get("search-space") or []:
                p, d = e.get("prefill") or {}, e.get("decode") or {}
                rec = recipe_of(p) or recipe_of(d)
                spec = str(e.get("spec-decoding", "none"))
                k = name_int(rec, "mtp") if spec == "mtp" else "0"
                for c in e.get("conc-list") or []:
                    out.append([date, commit, cdate, key, cfg.get("model-prefix", ""), cfg.get("model", ""), runner,
                                cfg.get("precision", ""), fw, engine_of(fw), s.get("isl"), s.get("osl"), c, spec, k,
                                name_int(rec, "batch"),
                                p.get("num-worker", ""), p.get("tp", ""), p.get("ep", ""), int(bool(p.get("dp-attn"))),
                                d.get("num-worker", ""), d.get("tp", ""), d.get("ep", ""), int(bool(d.get("dp-attn"))),
                                rec])
    return out


def srt_concs(text):
    """benchmark.concurrencies of one srt-slurm recipe ("4x8x16", 3584 or a
    list) as ints; [] where the recipe gives none."""
    try:
        bench = (yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)) or {}).get("benchmark") or {}
    except yaml.YAMLError:
        return []
    c = bench.get("concurrencies") if isinstance(bench, dict) else None
    items = c if isinstance(c, list) else str(c if c is not None else "").split("x")
    return [int(x) for x in (str(i).strip() for i in items) if x.isdigit() and int(x) > 0]


def srt_reader(srt, date, pinned):
    """(label, read(path) -> text or None): the recipes as in force at the end
    of `date` (or at `pinned`) in a git dir, else files under a checkout."""
    if subprocess.run(["git", "--git-dir", srt, "rev-parse"], capture_output=True).returncode:
        return "srt-slurm@disk", lambda p: open(os.path.join(srt, p)).read() if os.path.isfile(
            os.path.join(srt, p)) else None
    rev = pinned or git(srt, "log", "-1", "--format=%H", "--until=%s 23:59:59 +0000" % date, "HEAD").strip()
    if not rev:
        return "", lambda p: None

    def read(p):
        r = subprocess.run(["git", "--git-dir", srt, "show", "%s:%s" % (rev, p)], capture_output=True, text=True)
        return r.stdout if r.returncode == 0 else None
    return "srt-slurm@" + rev[:12], read


def srt_rows(rows, srt, date, pinned=""):
    """The rows re-keyed on their recipe's benchmark clients: one per
    (entry, client count), the entry's own conc-list dropped."""
    label, read = srt_reader(srt, date, pinned)
    out, seen, cache = [], set(), {}
    ci, ri = COLS.index("conc"), COLS.index("recipe")
    for r in rows:
        rec = r[ri]
        if not rec or not label:
            continue
        if rec not in cache:
            text = read(rec)
            cache[rec] = srt_concs(text) if text else []
        for c in cache[rec]:
            n = list(r)
            n[COLS.index("commit")], n[ci] = label, c
            if tuple(n) not in seen:
                seen.add(tuple(n))
                out.append(n)
    return out


def srt_branch_rows(rows, srt, date, later):
    """The rows re-keyed on each entry's recipe as at commit `later`, where
    they differ from those of the recipe as in force on `date` (h170): the
    srt-slurm runners cloned the sa-submission-q1-2026 branch, which the
    mirror lacks and which reached the default branch in one merge (5063eb43,
    2026-03-03); the default branch on the date (srt_rows) and the branch at
    its merge are both proxies of what the runner read, so the merge's reading
    is added where the date's lacks the recipe or lists other clients."""
    on_date = {tuple(r) for r in srt_rows(rows, srt, date, "")}
    label, _ = srt_reader(srt, date, later)
    ci, ki = COLS.index("conc"), COLS.index("commit")
    seen = set()
    for r in on_date:
        k = list(r)
        k[ki] = ""
        seen.add(tuple(k))
    out = []
    for r in srt_rows(rows, srt, date, later):
        k = list(r)
        k[ki] = ""
        if tuple(k) not in seen:
            out.append(r)
    return out


def sweep_rows(rows):
    """The rows re-keyed on the clients dynamo's TensorRT-LLM sweep script
    benchmarks (h170): InferenceX's GB200 dynamo-trt scripts of 2025-12-05 ..
    2026-02 (benchmarks/*_gb200_dynamo-trt_slurm.sh) run ai-dynamo/dynamo's
    components/backends/trtllm/performance_sweeps/benchmark_disagg.slurm,
    whose scripts/bench.sh runs each conc-list value c at
    `concurrency=$((concurrency * num_gen_servers))`: c x the decode workers.
    Commit column "dynamo-sweeps@<commit>"; the bench matches them as it
    does srt-slurm's re-keyed rows (the last look)."""
    ci, wi, ki = COLS.index("conc"), COLS.index("decode_workers"), COLS.index("commit")
    out, seen = [], set()
    for r in rows:
        n = list(r)
        n[ci], n[ki] = int(r[ci]) * int(r[wi] or 1), "dynamo-sweeps@" + str(r[ki])
        if tuple(n) not in seen:
            seen.add(tuple(n))
            out.append(n)
    return out


def srt_list(srt, rev, under):
    """The recipe files (*.yaml) under `under` in srt-slurm: at `rev` in a git
    dir, else on disk (the tests' checkout)."""
    if subprocess.run(["git", "--git-dir", srt, "rev-parse"], capture_output=True).returncode:
        top = os.path.join(srt, under)
        return sorted(os.path.relpath(os.path.join(d, f), srt) for d, _, fs in os.walk(top)
                      for f in fs if f.endswith(".yaml"))
    return [p for p in git(srt, "ls-tree", "-r", "--name-only", rev, "--", under).split() if p.endswith(".yaml")]


def merged_batches(text):
    """{clients: decode max batch} from a merged recipe's header comment
    ("# Merged concurrencies: batch1(4), batch32(180), ..."): the batch each
    client count ran with before the files were merged (h170)."""
    m = re.search(r"^#\s*Merged concurrencies:(.*)$", text, re.M)
    return {int(c): int(b) for b, c in re.findall(r"batch(\d+)\((\d+)\)", m.group(1))} if m else {}


def side_of(doc, which):
    """(workers, tp, ep, dp-attn 0/1, max batch) of a recipe's prefill or
    decode side: resources' worker count, the engine config's sizes
    (TensorRT-LLM's trtllm_config.<side>, SGLang's sglang_config.<side>)."""
    res, be = doc.get("resources") or {}, doc.get("backend") or {}
    cfg = ((be.get("trtllm_config") or be.get("sglang_config") or {}).get(which)) or {}
    tp = cfg.get("tensor_parallel_size", cfg.get("tp-size", res.get("gpus_per_" + which, "")))
    ep = cfg.get("moe_expert_parallel_size", cfg.get("ep-size", 1))
    dp = cfg.get("enable_attention_dp", cfg.get("enable-dp-attention", False))
    return res.get(which + "_workers", ""), tp, ep, int(bool(dp)), cfg.get("max_batch_size", "")


def recipe_rows(srt, rev, under, date, key):
    """The rows of srt-slurm recipes read on their own (no InferenceX yaml
    entry names them; h170): one per recipe and benchmark client count, the
    layout from the recipe's resources and engine config, the decode batch
    from its max_batch_size or, for a merged recipe, the batch its header
    gives that client count.  The clients are split on 'x' (srtctl's own
    separator), spaces or commas: the merged GLM-5 recipes write "4 180 360
    616" and the runs at exactly those clients exist."""
    label, read = srt_reader(srt, date, rev)
    out = []
    for path in srt_list(srt, rev, under):
        text = read(path) or ""
        try:
            doc = yaml.safe_load(text) or {}
        except yaml.YAMLError:
            continue
        bench, model = doc.get("benchmark") or {}, doc.get("model") or {}
        c = bench.get("concurrencies")
        items = c if isinstance(c, list) else re.split(r"[x\s,]+", str(c if c is not None else ""))
        concs = [int(x) for x in (str(i).strip() for i in items) if x.isdigit() and int(x) > 0]
        be = str((doc.get("backend") or {}).get("type", ""))
        fw = ("dynamo-" if str((doc.get("frontend") or {}).get("type", "")) == "dynamo" else "") + \
            ("trt" if be == "trtllm" else be)
        p, d, mb = side_of(doc, "prefill"), side_of(doc, "decode"), merged_batches(text)
        mtp = name_int(path, "mtp")
        for conc in concs:
            out.append([date, label, "", key, key.split("-")[0], os.path.basename(str(model.get("path", ""))),
                        (doc.get("resources") or {}).get("gpu_type", ""), model.get("precision", ""), fw,
                        engine_of(fw), bench.get("isl"), bench.get("osl"), conc,
                        "mtp" if mtp not in ("", "0") else "none", mtp or "0",
                        mb.get(conc, d[4]) if be == "trtllm" else ""] + list(p[:4]) + list(d[:4]) + [path])
    return out


def cli(doc_rows, cols, prog, doc):
    """The command line both table scripts share: --yaml FILE (one version
    on disk) or --repo GITDIR with --date (the version in force at the end
    of each day); doc_rows(doc, date, commit, commit_date) gives the rows."""
    ap = argparse.ArgumentParser(description=doc.split("\n")[0])
    ap.add_argument("--repo", help="InferenceX git directory (bare or .git)")
    ap.add_argument("--yaml", help="one nvidia-master.yaml on disk instead of --repo")
    ap.add_argument("--date", action="append", default=[], help="dump date YYYY-MM-DD (repeatable)")
    if doc_rows is rows_of:  # the recipe table only: vllm_ep.py's rows have no recipe
        ap.add_argument("--srt-slurm", help="NVIDIA/srt-slurm git dir or checkout: the rows re-keyed on "
                        "each recipe's benchmark clients, no header (h162)")
        ap.add_argument("--srt-commit", default="", help="with --srt-slurm GITDIR: this commit, not the date's")
        ap.add_argument("--srt-branch-at", default="", help="with --srt-slurm GITDIR: the rows re-keyed on the "
                        "recipes as at this commit where they differ from the date's (h170)")
        ap.add_argument("--srt-recipes", help="with --srt-slurm, --date and --key: the recipes under this folder "
                        "read on their own, no InferenceX yaml (h170), no header")
        ap.add_argument("--key", default="", help="with --srt-recipes: the config key to file them under")
        ap.add_argument("--dynamo-sweeps", action="store_true", help="the rows re-keyed on conc x decode "
                        "workers, as dynamo's TensorRT-LLM sweep script runs them (h170), no header")
    a = ap.parse_args()
    srt = getattr(a, "srt_slurm", None)
    if getattr(a, "dynamo_sweeps", False) and not getattr(a, "srt_recipes", None):
        inner0 = doc_rows
        doc_rows = lambda d, date, c, cd: sweep_rows(inner0(d, date, c, cd))
        srt = srt or True  # no header either
    if getattr(a, "srt_recipes", None):
        if not srt or len(a.date) != 1 or not a.key:
            sys.exit("%s: --srt-recipes needs --srt-slurm, one --date and --key" % prog)
        rows = recipe_rows(srt, a.srt_commit, a.srt_recipes, a.date[0], a.key)
        cdate = ""
        if a.srt_commit and not subprocess.run(["git", "--git-dir", srt, "rev-parse"], capture_output=True).returncode:
            cdate = git(srt, "log", "-1", "--format=%cs", a.srt_commit).strip()
        w = csv.writer(sys.stdout, lineterminator="\n")
        for r in rows:
            r[COLS.index("commit_date")] = cdate
            w.writerow(r)
        return
    if srt and srt is not True:  # the rows to append; the header is the table's
        inner = doc_rows
        if a.srt_branch_at:
            doc_rows = lambda d, date, c, cd: srt_branch_rows(inner(d, date, c, cd), srt, date, a.srt_branch_at)
        else:
            doc_rows = lambda d, date, c, cd: srt_rows(inner(d, date, c, cd), srt, date, a.srt_commit)
    w = csv.writer(sys.stdout, lineterminator="\n")
    if a.yaml:
        try:
            parsed = yaml.safe_load(open(a.yaml))
        except (OSError, yaml.YAMLError) as err:
            sys.exit("%s: %s: %s" % (prog, a.yaml, str(err).splitlines()[0]))
        if not srt:
            w.writerow(cols)
        for r in doc_rows(parsed, a.date[0] if a.date else "", "", ""):
            w.writerow(r)
        return
    if not a.repo or not a.date:
        sys.exit("%s: give --repo GITDIR and at least one --date, or --yaml FILE" % prog)
    if not srt:
        w.writerow(cols)
    for date in a.date:
        if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", date):
            sys.exit("%s: --date %r is not YYYY-MM-DD" % (prog, date))
        commit = git(a.repo, "log", "-1", "--format=%H %cI", "--until=%s 23:59:59 +0000" % date, "HEAD", "--", PATH).split()
        if not commit:
            sys.exit("%s: no %s at or before %s" % (prog, PATH, date))
        parsed = yaml.safe_load(git(a.repo, "show", "%s:%s" % (commit[0], PATH)))
        for r in doc_rows(parsed, date, commit[0][:12], commit[1][:10]):
            w.writerow(r)


def main():
    cli(rows_of, COLS, "extract.py", __doc__)


if __name__ == "__main__":
    main()
