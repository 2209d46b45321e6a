#!/usr/bin/env python3
"""Two settings of the single-node vLLM scripts of SemiAnalysis' InferenceMAX
(InferenceX), per date, as a CSV table the serving bench reads
(bench_serving.c, vllm_script_row; docs/llm.md, "vLLM runs read from their
scripts: expert parallelism every entry had, the KV cache's dtype (h209)"):
ep_always, 1 where the script passed --enable-expert-parallel to every run
whatever the yaml entry's ep, and kv_fp8, 1 where it passed
--kv-cache-dtype fp8 (else vLLM's default "auto": the model's data type,
docs.vllm.ai engine arguments, --kv-cache-dtype).

InferenceX's vLLM scripts are to turn expert parallelism on only for an
entry with ep > 1 (`if [ "$EP_SIZE" -gt 1 ]`, the pattern its review bot
asks for: .github/workflows/claude.yml).  The workflow passes EP_SIZE = 1 for
an entry without ep (benchmark-tmpl.yml `EP_SIZE: ${{ inputs.ep }}`;
utils/matrix_logic/generate_sweep_configs.py: ep "1,  # Default").  Two
scripts tested `-ge 1` instead, so every run they served had the experts
over its TP GPUs: minimaxm2.5_fp8_b200.sh from f342df18e (2026-03-11) to
bddbf4031 (2026-04-03, "fix typo in ep bash script") and
minimaxm2.5_fp8_h200.sh from 5e2c705d3 (2026-03-13) to 8014ee637
(2026-05-26).  The dumps record those runs as ep 1.

For each --date, every benchmarks/single_node/*.sh (and benchmarks/*.sh)
as it stood at the end of that day (UTC, the last first-parent commit of
main before then) that serves vLLM gives one row: the date, that commit,
the script, the model prefix, precision and GPU its name carries, and the
two flags (ep_always: --enable-expert-parallel under
`if [ "$EP_SIZE" -ge 1 ]`), and its --max-num-batched-tokens: mnbt, a
literal (0: none), mnbt_isl, k of "$((ISL * k))" (0: none) (the runners pick
benchmarks/single_node/${EXP_NAME%%_*}_${PRECISION}_${GPU}.sh for vLLM:
runners/launch_b200-dgxc.sh, FRAMEWORK_SUFFIX is '_trt' for TensorRT-LLM
only).

A last column (h224), cg_max: the script's --max-cudagraph-capture-size
(0: not set, vLLM's default: the largest captured size is min(2 x
max_num_seqs, 512), vllm/config/vllm.py _set_cudagraph_sizes); a step of
more tokens runs vLLM's compiled pieces without a CUDA graph
(compilation/cuda_piecewise_backend.py: a shape outside the capture list
takes compiled_graph_for_general_shape).  --extra DATE:COMMIT:PATH adds the
script PATH as it stood at COMMIT for DATE: a run that served a pull
request's branch before it reached main (the 2026-04-03 MiniMax-M2.5 NVFP4
B200 run, image nightly-5b8c30d6, the one 08bcde8f1 of PR #996 set).

Usage:
  vllm_scripts.py --repo GITDIR --date YYYY-MM-DD [--date ...] [--extra D:C:P] > vllm_scripts.csv
  vllm_scripts.py --script FILE --name NAME [--date LABEL]     (a test fixture)

The shipped table holds the measured= dates of the dumps' vLLM rows:
2025-10-29 11-02 12-05 12-08 2026-01-23 01-25 02-25 03-01 03-02 03-11 03-24
03-27 03-28 04-03 04-08 04-17 04-20 04-21 04-22.  Python 3 only; facts, not
code, are taken from the InferenceX repository.
"""
import argparse, re, subprocess, sys

COLS = ["date", "commit", "script", "model_prefix", "precision", "gpu", "ep_always", "kv_fp8", "mnbt", "mnbt_isl", "cg_max"]
# `if [ "$EP_SIZE" -ge 1 ]` (any quoting / braces), then the flag within
# the next two lines: the branch every run with EP_SIZE >= 1 takes
ALWAYS = re.compile(r'if\s+\[\[?\s*"?\$\{?EP_SIZE\}?"?\s+-ge\s+1\s*\]\]?[^\n]*\n(?:[^\n]*\n){0,1}[^\n]*--enable-expert-parallel')
KV_FP8 = re.compile(r"--kv-cache-dtype[= ]+\"?fp8")
# --max-num-batched-tokens as a literal (yaml config files: "max-num-batched-
# tokens: 8192") or as "$((ISL * k))" (minimaxm2.5_fp8_b200.sh from 2026-04-03)
MNBT = re.compile(r"max-num-batched-tokens[:= ]+\"?(\d+)")
MNBT_ISL = re.compile(r"max-num-batched-tokens[= ]+\"?\$\(\(\s*\$?ISL\s*\*\s*(\d+)\s*\)\)")
# --max-cudagraph-capture-size N, a flag or a config.yaml key (minimaxm2.5
# B200 / B300 from 2026-04-03, kimik2.5_fp4_b200.sh from 2026-04-20, the
# gptoss config files): 2048 in every dump's script; else a capture list's
# largest size, else min(2 x --max-num-seqs, 512) where the seqs are set
CG_MAX = re.compile(r"max[-_]cudagraph[-_]capture[-_]size\"?[:= ]+\"?(\d+)")
CG_LIST = re.compile(r"cudagraph[-_]capture[-_]sizes\"?[:= ]+\[?([\d, ]+)")
MAX_SEQS = re.compile(r"max-num-seqs[:= ]+\"?(\d+)")
NAME = re.compile(r"^([^_/]+)_([^_]+)_([a-z0-9]+)\.sh$")


def always_ep(text):
    """True when a script sets EP on for every EP_SIZE >= 1."""
    return ALWAYS.search(text) is not None


def row_of(date, commit, path, text):
    name = path.rsplit("/", 1)[-1]
    m = NAME.match(name)
    if not m or "vllm serve" not in text:
        return None
    lit, mult = MNBT.search(text), MNBT_ISL.search(text)
    return [date, commit[:12], path, m.group(1), m.group(2), m.group(3), str(int(always_ep(text))),
            str(int(KV_FP8.search(text) is not None)), lit.group(1) if lit else "0", mult.group(1) if mult else "0",
            str(cg_max(text))]


def cg_max(text):
    """The largest token count a script's vLLM captures a CUDA graph for; 0:
    vLLM's default (512 with its default max_num_seqs)."""
    m, lst, seqs = CG_MAX.search(text), CG_LIST.search(text), MAX_SEQS.search(text)
    if m:
        return int(m.group(1))
    if lst:
        return max(int(x) for x in lst.group(1).replace(" ", "").split(",") if x)
    return min(2 * int(seqs.group(1)), 512) if seqs and "$" not in seqs.group(0) else 0


def git(repo, *args):
    return subprocess.run(["git", "--git-dir", repo, *args], check=True, capture_output=True, text=True).stdout


def rows_at(repo, date):
    commit = git(repo, "rev-list", "-1", "--first-parent", "--before", date + "T23:59:59Z", "main").strip()
    out = []
    for path in git(repo, "ls-tree", "-r", "--name-only", commit, "benchmarks").split():
        if not path.endswith(".sh") or path.count("/") > 2 or "multi_node" in path:
            continue
        r = row_of(date, commit, path, git(repo, "show", commit + ":" + path))
        if r:
            out.append(r)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repo")
    ap.add_argument("--date", action="append", default=[])
    ap.add_argument("--extra", action="append", default=[])
    ap.add_argument("--script")
    ap.add_argument("--name")
    a = ap.parse_args()
    print(",".join(COLS))
    if a.script:
        r = row_of((a.date or ["fixture"])[0], "fixture", a.name or a.script, open(a.script).read())
        if r:
            print(",".join(r))
        return
    if not a.repo or not a.date:
        sys.exit("vllm_scripts.py: --repo and --date, or --script")
    for d in a.date:
        for r in rows_at(a.repo, d):
            print(",".join(r))
    for x in a.extra:
        d, c, path = x.split(":", 2)
        r = row_of(d, git(a.repo, "rev-parse", c).strip(), path, git(a.repo, "show", c + ":" + path))
        if r:
            print(",".join(r))


if __name__ == "__main__":
    main()
