#!/usr/bin/env python3
"""Which config keys each InferenceX merge ran (docs/llm.md, issue 22, h190).

InferenceX runs a sweep when a pull request lands, for the config keys that
pull request adds to perf-changelog.yaml (its `config-keys:` list; globs
such as `dsr1*` allowed); the run's results carry the merge time as their
`measured=` stamp (the silicon dumps: 2026-02-07T07:09:01Z is PR #658's
merge, 07:08:58Z).  This walks every commit of the changelog's history and
writes one line per commit: its UTC committer time, the short hash, and the
config keys of the entries it added (space-separated).

    python3 tools/inferencemax/changelog_runs.py INFERENCEX_GIT_DIR > tools/inferencemax/changelog_runs.csv
"""
import datetime
import json
import subprocess
import sys

import yaml


def git(repo, *args):
    return subprocess.run(["git", "--git-dir", repo, *args], capture_output=True, text=True, check=False).stdout


def entries(repo, rev):
    """The changelog's entries at rev, each as a canonical string -> its keys."""
    text = git(repo, "show", f"{rev}:perf-changelog.yaml")
    try:
        doc = yaml.safe_load(text) or []
    except yaml.YAMLError:
        return None
    out = {}
    for e in doc if isinstance(doc, list) else []:
        if isinstance(e, dict):
            keys = e.get("config-keys") or []
            out[json.dumps(e, sort_keys=True, default=str)] = [str(k) for k in keys if isinstance(k, str)]
    return out


def utc(iso):
    t = datetime.datetime.fromisoformat(iso)
    return t.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def main():
    repo = sys.argv[1]
    log = git(repo, "log", "--reverse", "--format=%H %cI", "--", "perf-changelog.yaml").split("\n")
    print("merged_utc,commit,keys")
    prev = {}
    for line in log:
        if not line.strip():
            continue
        h, when = line.split()
        cur = entries(repo, h)
        if cur is None:  # an unparsable revision: keep the last good one
            continue
        added = [k for e, ks in cur.items() if e not in prev for k in ks]
        prev = cur
        # a key list with a comma would break the csv: keys never hold one
        keys = " ".join(dict.fromkeys(k for k in added if "," not in k and " " not in k))
        if keys:
            print(f"{utc(when)},{h[:12]},{keys}")


if __name__ == "__main__":
    main()
