#!/usr/bin/env python3
"""Which config keys each InferenceMAX (InferenceX) sweep on main ran, as a
CSV table the serving bench reads (bench_serving.c, changelog_ran; docs/llm.md,
"The sweep that ran a row (issue 22, h188)").

InferenceX's "Run Sweep" workflow (.github/workflows/run-sweep.yml) runs on a
push to main that touches perf-changelog.yaml, unless the head commit's
message says [skip-sweep]; its setup step (utils/process_changelog.py) runs
only the config keys listed in the entries the push *added* to the changelog
(git diff before..after, deletions refused), a '*' in a key matching any run
of characters against the master configs' keys (re.fullmatch).  So a run
measured at a push ran that push's keys and no others: on 2026-01-14 the
only such push of the NVIDIA DeepSeek TensorRT-LLM keys was bf3456727 (#392,
22:26:18 UTC, "Add MTP Benchmark Support for DeepSeek-R1 TRT"), whose entry
lists dsr1-fp4-b200-trt-mtp, dsr1-fp8-b200-trt-mtp and dsr1-fp8-h200-trt-mtp
only, while the master yaml of that day holds the plain keys beside them.

One line per (push, key pattern): date and time (UTC, the commit date of the
first-parent commit on main), commit, the pattern as written.  Commits are
taken one first-parent step at a time (a merge's added lines are its own
diff against the previous main).

Usage:
  changelog_runs.py --repo GITDIR [--since YYYY-MM-DD] [--until YYYY-MM-DD] > changelog_runs.csv

Python 3 and Debian's yaml module only; facts, not code, are taken from the
InferenceX repository.
"""
import argparse, subprocess, sys

try:
    import yaml
except ImportError:  # pragma: no cover
    sys.exit("changelog_runs.py: python3-yaml is needed (Debian: apt-get install python3-yaml)")


def git(repo, *args):
    return subprocess.run(["git", "--git-dir", repo] + list(args), capture_output=True, text=True).stdout


def added_keys(repo, parent, commit):
    """The config-keys of the entries a push added to perf-changelog.yaml
    (process_changelog.py get_added_lines: '+' lines of the diff)."""
    diff = git(repo, "diff", parent, commit, "--", "perf-changelog.yaml")
    added = "\n".join(l[1:] for l in diff.split("\n") if l.startswith("+") and not l.startswith("+++"))
    try:
        data = yaml.safe_load(added) or []
    except yaml.YAMLError:
        return None
    keys = []
    for e in data if isinstance(data, list) else []:
        if isinstance(e, dict):
            keys += [k for k in (e.get("config-keys") or []) if isinstance(k, str)]
    return keys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repo", required=True)
    ap.add_argument("--since", default="2025-10-01")
    ap.add_argument("--until", default="2026-05-01")
    a = ap.parse_args()
    log = git(a.repo, "log", "main", "--first-parent", "--date=iso-strict", "--format=%H|%P|%cd|%s",
              "--since", a.since, "--until", a.until, "--", "perf-changelog.yaml")
    print("date,time,commit,config_key")
    rows = []
    for line in log.strip().split("\n"):
        if not line:
            continue
        h, parents, cd, subj = line.split("|", 3)
        if "[skip-sweep]" in git(a.repo, "log", "-1", "--format=%B", h):
            continue
        # a root commit (the changelog's first) added all it holds: diff it
        # against git's empty tree
        keys = added_keys(a.repo, parents.split()[0] if parents else "4b825dc642cb6eb9a060e54bf8d69288fbee4904", h)
        if not keys:
            continue
        utc = subprocess.run(["date", "-u", "-d", cd, "+%Y-%m-%d,%H:%M:%S"], capture_output=True,
                             text=True).stdout.strip()
        for k in keys:
            rows.append("%s,%s,%s" % (utc, h[:12], k))
    for r in sorted(rows):
        print(r)


if __name__ == "__main__":
    main()
