#!/usr/bin/env python3
"""SGLang's --scheduler-recv-interval in SemiAnalysis' InferenceMAX
(InferenceX) single-node runs, as a CSV table the serving bench reads
(bench_serving.c, sglang_recv_interval; docs/llm.md, "SGLang's scheduler
receive interval (h159)").

InferenceX's SGLang scripts (benchmarks/single_node/<prefix>_<precision>_
<gpu>[_mtp].sh; before 2026-01 benchmarks/<prefix>_<precision>_<gpu>_docker.sh,
the runners' `${EXP_NAME%%_*}_${PRECISION}_<gpu>${FRAMEWORK_SUFFIX}...`, SGLang
having no framework suffix) pass --scheduler-recv-interval to many runs,
either a number or $SCHEDULER_RECV_INTERVAL set by a rule on the run's
CONC and TP (dsr1_fp4_b200.sh: 30 if CONC >= 16, else 10; dsr1_fp8_b200.sh
from 2026-03: that at TP 8, 10 at TP 4).  The rows record neither, so this
table evaluates each script's rule, as the script stood at the end of each
date (UTC), for TP 1/2/4/8, CONC 1-1024 (powers of two) and the three
sequence-length pairs InferenceMAX runs: one row per run of equal values
over CONC (conc_min..conc_max), isl = osl = 0 where the three pairs agree.

The rule is evaluated by bash on the script's if/elif/else/fi skeleton kept
only where it assigns SCHEDULER_RECV_INTERVAL (every other line dropped;
a line with a command substitution is refused), with CONC, TP, ISL, OSL,
EP_SIZE and DP_ATTENTION set.  A script with no receive-interval flag is
not listed (SGLang's default, 1: receive every step); a flag whose value
cannot be resolved is written as 0 (unknown).

Usage:
  recv_interval.py --repo GITDIR --date YYYY-MM-DD [--date ...] > recv_interval.csv
  recv_interval.py --script FILE [--date LABEL] > recv_interval.csv   (a test fixture)
  recv_interval.py --setting mem ... > sglang_mem.csv
      the same for --mem-fraction-static (the share of GPU memory SGLang
      takes for weights and KV cache), the bench's sglang_mem_fraction
  recv_interval.py --setting epmoe ... > sglang_ep_moe.csv
      1 where the script passes --enable-ep-moe (SGLang then sets
      ep_size = tp_size), at the date's start or end: the bench's
      sglang_ep_moe

The shipped recv_interval.csv holds the measured= dates of the silicon
dumps' aggregated SGLang rows: 2025-11-02 11-10 11-16 11-17 11-18 2026-02-20
03-03 03-04 03-09 03-19 03-20 03-24 03-25 03-29 04-03 04-08 04-17 04-18.
Python 3 only; facts, not code, are taken from the InferenceX repository.
"""
import argparse, csv, os, re, subprocess, sys

COLS = ["date", "commit", "script", "model_prefix", "precision", "gpu", "mtp", "isl", "osl", "tp", "conc_min", "conc_max",
        "value"]
TPS = (1, 2, 4, 8)
CONCS = tuple(2 ** i for i in range(11))
SEQS = ((1024, 1024), (1024, 8192), (8192, 1024))
VAR = "SCHEDULER_RECV_INTERVAL"
# the settings a table can hold: the flag and the variable scripts usually pass it in
# (epmoe: a switch, no value; its variable None)
SETTINGS = {"recv": ("--scheduler-recv-interval", VAR), "mem": ("--mem-fraction-static", "MEM_FRAC_STATIC"),
            "epmoe": ("--enable-ep-moe", None)}
NAME = re.compile(r"^(?P<prefix>[a-z0-9.]+)_(?P<prec>[a-z0-9]+)_(?P<gpu>[a-z0-9]+)(?P<mtp>_mtp)?(_docker)?\.sh$")


def git(repo, *args):
    return subprocess.run(["git", "--git-dir", repo] + list(args), check=True, capture_output=True,
                          text=True).stdout


def skeleton(text, var=VAR):
    """The script's if-blocks that assign var, nothing else: a stack of open
    blocks, each kept only if an assignment falls inside it (spec_agg.py
    reads the MTP depth the same way)."""
    out, stack = [], []  # stack: [start index in out, kept?]
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip() if not raw.strip().startswith("echo") else ""
        if not line:
            continue
        if re.match(r"^if\s", line):
            stack.append([len(out), False])
            out.append(line)
        elif re.match(r"^(elif\s|else\b|then\b)", line) and stack:
            out.append(line)
        elif re.match(r"^fi\b", line) and stack:
            start, kept = stack.pop()
            if kept:
                out.append(line)
                if stack:
                    stack[-1][1] = True
            else:
                del out[start:]
        elif re.match(r"^%s=" % var, line):
            out.append(line)
            if stack:
                stack[-1][1] = True
    if stack:
        return None  # an if without its fi: not a script we can read
    if any("$(" in l or "`" in l for l in out):
        return None
    # a branch left empty (its other lines dropped) is a syntax error: a no-op
    return "\n".join(l + ("\n:" if re.search(r"(\bthen|^else)$", l) else "") for l in out)


def flag_value(text, flag="--scheduler-recv-interval", var=VAR):
    """The flag's value: a number where it is written as one, the name of
    the variable it takes ($NAME or ${NAME}; var names the usual one), 0
    where neither, None where the script does not pass it (comment lines
    skipped)."""
    code = "\n".join(l for l in text.splitlines() if not l.lstrip().startswith("#"))
    m = re.search(r"%s[ =:]+(\S+)" % re.escape(flag), code)
    if not m:
        return None
    v = m.group(1).strip("\"'\\")
    if re.fullmatch(r"\d+(\.\d+)?", v):
        return num(float(v))
    name = re.fullmatch(r"\$\{?([A-Z_][A-Z0-9_]*)\}?", v)
    return name.group(1) if name else (var if var in v else 0)


def switch_value(text, flag):
    """1 where the script passes the switch (comment lines skipped), None
    where it does not: SGLang's --enable-ep-moe takes no value."""
    code = "\n".join(l for l in text.splitlines() if not l.lstrip().startswith("#"))
    return 1 if re.search(r"%s(?![-\w])" % re.escape(flag), code) else None


def num(x):
    """A setting as the table writes it: an integer where it is one."""
    return int(x) if x == int(x) else x


def evaluate(skel, var=VAR, dp_attn="false"):
    """{(isl, osl, tp, conc): value of var} from one bash process running the
    skeleton once per case (0 where it leaves the variable unset)."""
    cases = [(isl, osl, tp, conc) for isl, osl in SEQS for tp in TPS for conc in CONCS]
    body = "run() {\nunset %s\n%s\necho \"$ISL $OSL $TP $CONC ${%s:-0}\"\n}\n" % (var, skel, var)
    body += "".join("ISL=%d OSL=%d TP=%d CONC=%d EP_SIZE=1 DP_ATTENTION=%s run\n" % (c + (dp_attn,)) for c in cases)
    r = subprocess.run(["bash", "-c", body], env={"PATH": os.environ.get("PATH", "/usr/bin:/bin")},
                       capture_output=True, text=True)
    got = {}
    for line in r.stdout.splitlines():
        f = line.split()
        if len(f) == 5 and all(x.isdigit() for x in f[:4]) and re.fullmatch(r"\d+(\.\d+)?", f[4]):
            got[tuple(int(x) for x in f[:4])] = num(float(f[4]))
    return got


def script_rows(text, name, date, commit, setting="recv"):
    m = NAME.match(os.path.basename(name))
    if not m or not re.search(r"sglang(\.launch_server| serve)", text):
        return []
    flag, var = SETTINGS[setting]
    v = flag_value(text, flag, var) if var else switch_value(text, flag)
    if v is None:
        return []
    skel = skeleton(text, v) if isinstance(v, str) else None
    got = evaluate(skel, v) if skel else {}
    head = [date, commit, name, m["prefix"], m["prec"], m["gpu"], int(bool(m["mtp"]))]
    rows = []
    for tp in TPS:
        per_seq = [[got.get((isl, osl, tp, c), 0) if isinstance(v, str) else v for c in CONCS] for isl, osl in SEQS]
        # one row for every sequence-length pair (isl = osl = 0) where they agree
        seqs = [((0, 0), per_seq[0])] if per_seq.count(per_seq[0]) == len(SEQS) else list(zip(SEQS, per_seq))
        for (isl, osl), ns in seqs:
            i = 0
            while i < len(CONCS):  # runs of equal intervals as conc_min..conc_max
                j = i
                while j + 1 < len(CONCS) and ns[j + 1] == ns[i]:
                    j += 1
                rows.append(head + [isl, osl, tp, CONCS[i], CONCS[j], ns[i]])
                i = j + 1
    return rows


def repo_rows(repo, date, setting="recv"):
    """The table's rows for one date: the scripts as they stood at the end of
    the date (UTC); for the epmoe switch also at its start, the union (a
    run of the date may precede the day's last commit: h207)."""
    rows = []
    for when in (["00:00:00"] if setting == "epmoe" else []) + ["23:59:59"]:
        for r in commit_rows(repo, date, when, setting):
            if r[2:] not in [x[2:] for x in rows]:
                rows.append(r)
    return rows


def commit_rows(repo, date, when, setting):
    commit = git(repo, "log", "-1", "--format=%H", "--until=%s %s +0000" % (date, when), "HEAD", "--",
                 "benchmarks").strip()
    if not commit:
        sys.exit("recv_interval.py: no benchmarks/ at or before %s" % date)
    rows = []
    for path in git(repo, "ls-tree", "-r", "--name-only", commit, "benchmarks").split():
        if path.count("/") > 2 or not path.endswith(".sh") or "/multi_node/" in path:
            continue
        rows += script_rows(git(repo, "show", "%s:%s" % (commit, path)), path, date, commit[:12], setting)
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repo", help="InferenceX git directory (bare or .git)")
    ap.add_argument("--script", help="one benchmark script on disk instead of --repo")
    ap.add_argument("--setting", choices=sorted(SETTINGS), default="recv",
                    help="recv: --scheduler-recv-interval (default); mem: --mem-fraction-static; "
                         "epmoe: --enable-ep-moe (1 where passed)")
    ap.add_argument("--date", action="append", default=[], help="measured date YYYY-MM-DD (repeatable)")
    a = ap.parse_args()
    w = csv.writer(sys.stdout, lineterminator="\n")
    if a.script:
        try:
            text = open(a.script).read()
        except OSError as err:
            sys.exit("recv_interval.py: %s: %s" % (a.script, err.strerror))
        w.writerow(COLS)
        w.writerows(script_rows(text, os.path.basename(a.script), a.date[0] if a.date else "", "", a.setting))
        return
    if not a.repo or not a.date:
        sys.exit("recv_interval.py: give --repo GITDIR and at least one --date, or --script FILE")
    write_dates("recv_interval.py", COLS, a.repo, a.date, lambda repo, date: repo_rows(repo, date, a.setting))


def write_dates(prog, cols, repo, dates, rows_of):
    """The table on stdout: the header, then rows_of(repo, date) for each
    date (YYYY-MM-DD) in turn (spec_agg.py writes its table the same way)."""
    w = csv.writer(sys.stdout, lineterminator="\n")
    w.writerow(cols)
    for date in dates:
        if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", date):
            sys.exit("%s: --date %r is not YYYY-MM-DD" % (prog, date))
        w.writerows(rows_of(repo, date))


if __name__ == "__main__":
    main()
