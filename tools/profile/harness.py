"""harness.py — dlperf-profile: measure models for real and keep every measurement.

    dlperf-profile --family resnet --variants 200 --batch 1,8,32 --mode infer,train \\
        --device cuda:0 --store runs.sqlite
    dlperf-profile --unlabeled 5000 --out corpus/          # graphs only, no measuring
    dlperf-profile ... --shards 16 --emit-slurm job.sh      # one shard per array task

The parent process never imports torch: it plans, keeps the store and forks a
fresh child per task (hardware query, ONNX export, one measured
configuration) from a fork server that has imported torch once (or a fresh
interpreter each time with --isolate spawn).  See tools/profile/README.md and
docs/store.md.
"""
import argparse
import json
import multiprocessing as mp
import os
import random
import shlex
import signal
import sys
import time

import families
import store as storemod

HARNESS_VERSION = "dlperf-profile 1.0"
# What the fork server imports once.  Only third-party modules: the server runs with the
# working folder first on sys.path, so a folder there named like one of our modules would
# shadow it; our modules are imported in each child, after sys.path is set.
PRELOAD = ["torch", "torchvision", "onnx"]


def log(args, msg):
    if not getattr(args, "quiet", False):
        print(msg, file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------
# child processes

class Runner:
    """Runs one task per fresh child; returns the child's dict or an outcome for its death."""

    def __init__(self, isolate="forkserver"):
        self.ctx = mp.get_context(isolate)
        if isolate == "forkserver":
            self.ctx.set_forkserver_preload(PRELOAD)
        self.stop_requests = 0

    def start(self, task):
        import measure
        rd, wr = self.ctx.Pipe(duplex=False)
        p = self.ctx.Process(target=measure.child_main, args=(task, wr), daemon=True)
        p.start()
        wr.close()
        return {"p": p, "rd": rd, "t0": time.monotonic(), "task": task}

    def poll(self, job, timeout, wait=0.25):
        """The job's result dict, or None while it runs (waits up to `wait` s)."""
        p, rd = job["p"], job["rd"]
        res = None
        if rd.poll(wait):
            try:
                res = rd.recv()
            except EOFError:
                res = None
        elif p.is_alive():
            if self.stop_requests >= 2:
                return self._end(job, {"outcome": "interrupted", "message": "interrupted"}, kill=True)
            if timeout and time.monotonic() - job["t0"] > timeout:
                return self._end(job, {"outcome": "error", "message": "timeout: no result after %d s (child "
                                                                     "killed)" % timeout}, kill=True)
            return None
        elif rd.poll(0.05):
            try:
                res = rd.recv()
            except EOFError:
                res = None
        if res is not None:
            return self._end(job, res)
        p.join(60)
        code = p.exitcode
        if code == -signal.SIGKILL:
            res = {"outcome": "oom", "message": "measuring child killed by SIGKILL (kernel OOM killer, or killed "
                                                "from outside)"}
        else:
            res = {"outcome": "error", "message": "measuring child died (exit code %s) without a result" % code}
        return self._end(job, res)

    def _end(self, job, res, kill=False):
        p = job["p"]
        if kill:
            p.kill()
        p.join(60)
        if p.is_alive():
            p.kill()
            p.join()
        job["rd"].close()
        return res

    def run(self, task, timeout):
        job = self.start(task)
        while True:
            res = self.poll(job, timeout)
            if res is not None:
                return res


# ---------------------------------------------------------------------------
# planning

def parse_list(s, conv=str):
    return [conv(x.strip()) for x in s.split(",") if x.strip()] if s else []


def family_list(s):
    if not s or s == "all":
        return list(families.FAMILIES)
    out = []
    for f in parse_list(s):
        if f == "llm":
            out.extend(families.LLM_FAMILIES)
        elif f not in families.FAMILIES and f not in families.LLM_FAMILIES:
            raise SystemExit("dlperf-profile: unknown family '%s' (known: %s, llm, all)"
                             % (f, ", ".join(families.FAMILIES + families.LLM_FAMILIES)))
        else:
            out.append(f)
    return out


def configs_for(spec, args):
    """(mode, batch, seq, dtype) list of a spec, in a fixed order."""
    llm = spec["family"] in families.LLM_FAMILIES
    out = []
    for mode in args.modes:
        if (mode == "llm") != llm:
            continue
        for dt in args.dtypes:
            for b in args.batches:
                for s in (args.seqs if llm else [0]):
                    out.append((mode, b, s, dt))
    return out


def make_plan(args):
    """Specs in round-robin order over families (variant 0 of each family, then 1, ...),
    so a time budget stops with every family covered about equally."""
    if args.specs:
        return load_specs(args.specs)
    per = {}
    for fam in args.family_list:
        per[fam] = families.variants(fam, args.variants, seed=args.seed, resolutions=args.resolutions,
                                     stock_first=not args.no_stock, stock_max=args.stock_max)
    plan = []
    for k in range(max([len(v) for v in per.values()] or [0])):
        for fam in args.family_list:
            if k < len(per[fam]):
                plan.append(per[fam][k])
    return plan


def shard_plan(args):
    """The plan, or with --shard i/n its models i, i+n, i+2n, ..."""
    plan = make_plan(args)
    if args.shard:
        i, n = (int(x) for x in args.shard.split("/"))
        plan = [s for k, s in enumerate(plan) if k % n == i]
    return plan


def load_specs(path):
    """Specs from a JSON-lines file (one spec object per line; # comments allowed)."""
    out = []
    with open(path) as f:
        for k, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            try:
                spec = json.loads(line)
            except ValueError as e:
                raise SystemExit("dlperf-profile: %s:%d: not JSON (%s)" % (path, k, e))
            fam = spec.get("family") if isinstance(spec, dict) else None
            if fam not in families.FAMILIES and fam not in families.LLM_FAMILIES:
                raise SystemExit("dlperf-profile: %s:%d: unknown or missing family %r" % (path, k, fam))
            out.append(spec)
    return out


# ---------------------------------------------------------------------------
# the sweep

class Budget:
    def __init__(self, seconds):
        self.t0 = time.monotonic()
        self.seconds = seconds

    def left(self):
        return float("inf") if not self.seconds else self.seconds - (time.monotonic() - self.t0)

    def over(self):
        return self.left() <= 0


def ensure_model(args, st, runner, spec, graphs_dir):
    """(model row, error message) for a spec: from the store, or exported now."""
    sh = families.spec_hash(spec)
    row = st.model_by_spec(sh)
    if row is not None and row["onnx_path"] and os.path.exists(os.path.join(st.dir, row["onnx_path"])):
        return row, None
    res = runner.run({"kind": "export", "spec": spec, "out_dir": graphs_dir, "seed": args.seed},
                     timeout=args.config_timeout)
    if res.get("outcome") != "ok":
        return None, res.get("message") or res.get("outcome")
    rel = os.path.relpath(res["path"], st.dir)
    inp = {"name": "input_ids", "shape": ["batch_size", "sequence_length"], "dtype": "int64"} \
        if spec["family"] in families.LLM_FAMILIES else \
        {"name": "input", "shape": ["batch_size"] + families.input_shape(spec), "dtype": "float32"}
    mid = st.add_model(sh, res["hash"], spec["family"], families.variant_name(spec), families.spec_json(spec), rel,
                       inp, res["params"], res["bytes"])
    return st.db.execute("SELECT * FROM models WHERE id = ?", (mid,)).fetchone(), None


def measure_config(args, st, runner, dev, model_row, spec, cfg, repeat_of=None):
    mode, batch, seq, dtype = cfg
    task = {"kind": "measure", "spec": spec, "mode": mode, "batch": batch, "seq": seq, "dtype": dtype,
            "device": args.device, "warmup": args.warmup, "iters": args.iters, "max_seconds": args.max_config_seconds,
            "max_iter_seconds": args.max_iter_seconds,
            "seed": args.seed, "threads": args.threads, "optimizer": args.optimizer}
    la0 = os.getloadavg()[0]
    started = storemod.utc_now()
    t0 = time.monotonic()
    res = runner.run(task, timeout=args.config_timeout)
    wall = time.monotonic() - t0
    if res.get("outcome") == "interrupted":
        return None
    info = res.get("info") or {}
    notes = "; ".join(info.get("notes") or [])
    run = {"model_id": model_row["id"], "device_id": dev["id"], "mode": mode, "batch": batch, "seq": seq,
           "dtype": dtype, "config": storemod.config_key(mode, batch, seq, dtype),
           "warmup": info.get("warmup_done"), "iters": info.get("iters_done"), "cooldown_s": args.cooldown,
           "threads": info.get("threads", args.threads), "loadavg": round(la0, 2),
           "loadavg_end": round(os.getloadavg()[0], 2), "harness": HARNESS_VERSION, "versions": dev["versions"],
           "host": dev["host"], "shard": args.shard, "started": started, "wall_s": round(wall, 3),
           "outcome": res.get("outcome", "error"), "message": res.get("message") or (notes or None),
           "repeat_of": repeat_of}
    ms = res.get("measurements") or []
    rid = st.add_run(run, ms, replace_error=args.retry_errors)
    return rid, run, ms


def describe(run, ms):
    if run["outcome"] != "ok":
        return "%s: %s" % (run["outcome"], (run["message"] or "")[:160])
    d = {m["metric"]: m for m in ms}
    t = d.get("step_ms") or d.get("latency_ms")
    parts = ["ok %s %.3f ms (n=%d)" % (t["metric"].split("_")[0], t["mean"], t["n"])] if t and t["n"] else ["ok"]
    mm = d.get("memory_mb")
    if mm and mm["n"]:
        parts.append("mem %.0f MiB" % mm["mean"])
    e = d.get("energy_j")
    if e and e["n"]:
        parts.append("%.3g J" % e["mean"])
    return ", ".join(parts)


def apply_env(args):
    """Environment the measuring children inherit (set before the fork server loads torch)."""
    if args.omp_wait_policy:
        os.environ["OMP_WAIT_POLICY"] = args.omp_wait_policy.upper()


def sweep(args):
    apply_env(args)
    st = storemod.Store(args.store)
    graphs_dir = args.graphs or os.path.join(st.dir, "graphs")
    runner = Runner(args.isolate)
    stop = install_signals(runner)
    budget = Budget(args.time_budget)
    hw = runner.run({"kind": "hwinfo", "device": args.device}, timeout=600)
    if hw.get("outcome") != "ok":
        print("dlperf-profile: cannot query %s: %s" % (args.device, hw.get("message")), file=sys.stderr)
        st.close()
        return 1
    import hwinfo
    host = hwinfo.host()
    did, dname = st.device(args.device_name or hw["name"], hw["kind"], hw["model"], hw["features"], host)
    st.note_sweep({"started": storemod.utc_now(), "harness": HARNESS_VERSION, "argv": args.argv, "host": host,
                   "device": dname})
    dev = {"id": did, "name": dname, "versions": json.dumps(hw["versions"], sort_keys=True), "host": host}
    plan = shard_plan(args)
    total = sum(len(configs_for(s, args)) for s in plan)
    log(args, "dlperf-profile: %d models, %d configurations planned on %s (%s) -> %s"
        % (len(plan), total, dname, args.device, args.store))
    stats = {"measured": 0, "skipped": 0, "ok": 0, "oom": 0, "error": 0, "export_failed": 0, "repeats": 0,
             "over_limit": 0}
    rng = random.Random("repeat:%d" % args.seed)
    done = 0
    stopped = None
    for spec in plan:
        cfgs = configs_for(spec, args)
        todo = []
        row = None
        sh = families.spec_hash(spec)
        known = st.model_by_spec(sh)
        if known is not None:
            for c in cfgs:
                rid, outc = st.run_outcome(known["id"], did, storemod.config_key(*c))
                if rid is None or (args.retry_errors and outc == "error"):
                    todo.append(c)
            stats["skipped"] += len(cfgs) - len(todo)
            done += len(cfgs) - len(todo)
            if not todo:
                continue
        else:
            todo = cfgs
        if stop["n"] or budget.over():
            stopped = "signal" if stop["n"] else "time budget"
            break
        row, err = ensure_model(args, st, runner, spec, graphs_dir)
        if row is None:
            stats["export_failed"] += 1
            log(args, "  export failed: %s: %s" % (families.variant_name(spec), err))
            done += len(todo)
            continue
        if args.max_params and row["params"] and row["params"] > args.max_params:
            stats["over_limit"] += len(todo)
            log(args, "  %s: %d parameters > --max-params, not measured" % (row["variant"], row["params"]))
            done += len(todo)
            continue
        if known is None:  # the graph may be known under another spec: skip what it has
            left = []
            for c in todo:
                rid, outc = st.run_outcome(row["id"], did, storemod.config_key(*c))
                if rid is None or (args.retry_errors and outc == "error"):
                    left.append(c)
            stats["skipped"] += len(todo) - len(left)
            done += len(todo) - len(left)
            todo = left
        for c in todo:
            if stop["n"] or budget.over():
                stopped = "signal" if stop["n"] else "time budget"
                break
            r = measure_config(args, st, runner, dev, row, spec, c)
            if r is None:
                stopped = "signal"
                break
            rid, run, ms = r
            done += 1
            stats["measured"] += 1
            stats[run["outcome"]] = stats.get(run["outcome"], 0) + 1
            log(args, "[%d/%d] %s %s b=%d%s: %s [%.1f s, load %.1f]"
                % (done, total, row["variant"], c[0], c[1], " s=%d" % c[2] if c[2] else "", describe(run, ms),
                   run["wall_s"], run["loadavg"]))
            if args.cooldown:
                time.sleep(args.cooldown)
            if args.repeat_every and stats["measured"] % args.repeat_every == 0:
                do_repeats(args, st, runner, dev, rng, 1, stats, budget, stop)
        if stopped:
            break
    if not stopped and args.repeat:
        do_repeats(args, st, runner, dev, rng, args.repeat, stats, budget, stop)
    c = st.counts()
    log(args, "dlperf-profile: %s; measured %d (ok %d, oom %d, error %d), skipped %d already in the store, "
              "%d repeats, %d exports failed, %d over --max-params; store has %d models, %d runs"
        % ("stopped by " + stopped if stopped else "done", stats["measured"], stats["ok"], stats["oom"],
           stats["error"], stats["skipped"], stats["repeats"], stats["export_failed"], stats["over_limit"],
           c["models"], c["runs"]))
    st.close()
    return 0


def do_repeats(args, st, runner, dev, rng, n, stats, budget, stop):
    """Measure n earlier ok configurations again (runs.repeat_of): the noise floor."""
    for cand in st.repeat_candidates(dev["id"], rng, n, args.modes):
        if stop["n"] or budget.over():
            return
        spec = json.loads(cand["spec"])
        row = st.db.execute("SELECT * FROM models WHERE id = ?", (cand["model_id"],)).fetchone()
        cfg = (cand["mode"], cand["batch"], cand["seq"], cand["dtype"])
        r = measure_config(args, st, runner, dev, row, spec, cfg, repeat_of=cand["id"])
        if r is None:
            return
        stats["repeats"] += 1
        log(args, "  repeat of run %d: %s %s b=%d: %s" % (cand["id"], row["variant"], cfg[0], cfg[1],
                                                         describe(r[1], r[2])))
        if args.cooldown:
            time.sleep(args.cooldown)


def install_signals(runner):
    stop = {"n": 0}

    def handler(sig, frame):
        stop["n"] += 1
        runner.stop_requests = stop["n"]
        if stop["n"] == 1:
            print("dlperf-profile: stopping after the configuration in flight (again to abort it)",
                  file=sys.stderr, flush=True)

    signal.signal(signal.SIGINT, handler)
    signal.signal(signal.SIGTERM, handler)
    return stop


# ---------------------------------------------------------------------------
# unlabeled corpus

def unlabeled(args):
    out = args.out
    os.makedirs(out, exist_ok=True)
    man = os.path.join(out, "manifest.jsonl")
    seen_specs, hashes = set(), set()
    if os.path.exists(man):
        with open(man) as f:
            for line in f:
                try:
                    d = json.loads(line)
                except ValueError:
                    continue  # a torn last line after kill -9
                seen_specs.add(d["spec_hash"])
                if d.get("hash"):
                    hashes.add(d["hash"])
    runner = Runner(args.isolate)
    stop = install_signals(runner)
    budget = Budget(args.time_budget)
    fams = args.family_list
    gens = {f: _spec_stream(f, args) for f in fams}
    alive = list(fams)
    log(args, "dlperf-profile: unlabeled corpus -> %s: %d graphs there, %d wanted" % (out, len(hashes), args.unlabeled))
    n_fail = 0
    jobs = max(1, args.jobs)
    active = []
    with open(man, "a") as mf:
        k = 0
        stopped = None
        while True:
            # keep `jobs` exports running
            while not stopped and len(active) < jobs and alive and len(hashes) + len(active) < args.unlabeled:
                if stop["n"] or budget.over():
                    stopped = "signal" if stop["n"] else "time budget"
                    break
                fam = alive[k % len(alive)]
                k += 1
                spec = next(gens[fam], None)
                if spec is None:
                    alive.remove(fam)
                    continue
                sh = families.spec_hash(spec)
                if sh in seen_specs:
                    continue
                seen_specs.add(sh)
                job = runner.start({"kind": "export", "spec": spec, "out_dir": out, "seed": args.seed,
                                    "max_params": args.max_params})
                job["rec"] = {"spec_hash": sh, "family": fam, "variant": families.variant_name(spec), "spec": spec}
                active.append(job)
            if not active:
                break
            for job in list(active):
                res = runner.poll(job, args.config_timeout, wait=0.1)
                if res is None:
                    continue
                active.remove(job)
                rec = job["rec"]
                if res.get("outcome") == "interrupted":
                    continue
                if res.get("outcome") == "ok":
                    new = res["hash"] not in hashes
                    hashes.add(res["hash"])
                    rec.update(hash=res["hash"], file=os.path.basename(res["path"]), bytes=res["bytes"],
                               params=res["params"], nodes=res["nodes"], duplicate=not new)
                    log(args, "[%d/%d] %s %s%s" % (len(hashes), args.unlabeled, rec["variant"], res["hash"][:12],
                                                   "" if new else " (duplicate graph)"))
                else:
                    n_fail += 1
                    rec["error"] = res.get("message") or res.get("outcome")
                    log(args, "  export failed: %s: %s" % (rec["variant"], rec["error"]))
                mf.write(json.dumps(rec, sort_keys=True, separators=(",", ":")) + "\n")
                mf.flush()
        if stopped:
            log(args, "dlperf-profile: stopped by %s" % stopped)
    log(args, "dlperf-profile: %d distinct graphs in %s (%d exports failed this time)" % (len(hashes), out, n_fail))
    return 0


def _spec_stream(fam, args):
    """Endless distinct specs of a family (stock first), in batches of the variants sampler."""
    n = 64
    seen = set()
    while True:
        got = families.variants(fam, n, seed=args.seed, resolutions=args.resolutions, stock_first=not args.no_stock)
        fresh = [s for s in got if families.spec_hash(s) not in seen]
        if not fresh:
            return
        for s in fresh:
            seen.add(families.spec_hash(s))
            yield s
        if len(got) < n:
            return
        n *= 2


# ---------------------------------------------------------------------------
# Slurm

def emit_slurm(args, argv):
    """A job-array script: one shard per array task, each with its own store."""
    n = args.shards
    keep = []
    skip_next = False
    drop = {"--emit-slurm", "--shards", "--shard", "--store", "--slurm-time", "--slurm-partition",
            "--slurm-account", "--slurm-gpus"}
    for a in argv:
        if skip_next:
            skip_next = False
            continue
        name = a.split("=", 1)[0]
        if name in drop:
            skip_next = "=" not in a
            continue
        keep.append(a)
    base, ext = os.path.splitext(os.path.abspath(args.store))
    exe = os.path.abspath(os.path.join(os.path.dirname(__file__), "dlperf-profile"))
    gpu = args.device.startswith("cuda")
    lines = ["#!/bin/bash",
             "# Generated by %s: %d shards of one sweep, one per array task." % (HARNESS_VERSION, n),
             "# Each task writes its own store; afterwards merge them:",
             "#   dlperf data merge %s%s %s.shard*%s" % (base, ext, base, ext),
             "#SBATCH --job-name=dlperf-profile",
             "#SBATCH --array=0-%d" % (n - 1),
             "#SBATCH --ntasks=1",
             "#SBATCH --output=%s.shard%%a.log" % base,
             "#SBATCH --time=%s" % args.slurm_time]
    if gpu:
        lines.append("#SBATCH --gres=gpu:%d" % args.slurm_gpus)
    if args.slurm_partition:
        lines.append("#SBATCH --partition=%s" % args.slurm_partition)
    if args.slurm_account:
        lines.append("#SBATCH --account=%s" % args.slurm_account)
    budget = ""
    lines += ["set -euo pipefail",
              "i=${SLURM_ARRAY_TASK_ID:?run this with sbatch (job array)}",
              "exec /usr/bin/python3 %s %s --shard \"$i/%d\" --store \"%s.shard$i%s\"%s"
              % (shlex.quote(exe), " ".join(shlex.quote(a) for a in keep), n, base, ext, budget)]
    with open(args.emit_slurm, "w") as f:
        f.write("\n".join(lines) + "\n")
    os.chmod(args.emit_slurm, 0o755)
    print("%s: Slurm job array of %d shards (sbatch %s)" % (args.emit_slurm, n, args.emit_slurm))
    return 0


# ---------------------------------------------------------------------------

def build_parser():
    p = argparse.ArgumentParser(prog="dlperf-profile",
                                description="Measure models (latency, memory, energy) into a dlperf store; "
                                            "see tools/profile/README.md.")
    p.add_argument("--family", default="all", help="comma list of families, 'llm' (bert,gpt2) or all (vision)")
    p.add_argument("--variants", type=int, default=5, help="variants per family: stock ones first, then sampled")
    p.add_argument("--specs", metavar="FILE", help="measure these specs (JSON lines) instead of sampling families")
    p.add_argument("--no-stock", action="store_true", help="sampled variants only")
    p.add_argument("--stock-max", type=int, default=-1, help="at most K stock variants per family (-1: all)")
    p.add_argument("--resolutions", default=",".join(map(str, families.RESOLUTIONS)),
                   help="input sizes the samplers draw from (stock models: 224 if listed, else the largest)")
    p.add_argument("--batch", default="1,8,32", help="batch sizes")
    p.add_argument("--seq", default="128,512", help="sequence lengths (--mode llm)")
    p.add_argument("--dtype", default="float32", help="float32,float16,bfloat16 (train: autocast)")
    p.add_argument("--mode", default="infer", help="infer,train,llm")
    p.add_argument("--device", default="cpu", help="cpu or cuda:N")
    p.add_argument("--device-name", help="name to store the device under (default: from the hardware)")
    p.add_argument("--store", help="the SQLite store (created when missing)")
    p.add_argument("--graphs", help="where ONNX graphs go (default: graphs/ beside the store)")
    p.add_argument("--warmup", type=int, default=5, help="warm-up iterations (W)")
    p.add_argument("--iters", type=int, default=30, help="timed iterations (T)")
    p.add_argument("--cooldown", type=float, default=0.0, help="seconds to sleep after each configuration")
    p.add_argument("--max-config-seconds", type=float, default=0.0,
                   help="cap a configuration's warm-up (1/3) and timed phase (2/3); >= 1 and 3 iterations run")
    p.add_argument("--max-iter-seconds", type=float, default=0.0,
                   help="give up (outcome error, 'too slow') when one warm-up iteration takes longer")
    p.add_argument("--config-timeout", type=float, default=900.0, help="kill a child after this many seconds")
    p.add_argument("--optimizer", default="sgd", choices=("sgd", "adam"), help="train mode optimizer")
    p.add_argument("--threads", type=int, default=0, help="torch threads (default: the CPUs this process may use)")
    p.add_argument("--max-params", type=float, default=0,
                   help="do not measure models with more parameters (--unlabeled: do not export them)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--shard", help="i/n: only models i, i+n, i+2n, ... of the plan")
    p.add_argument("--shards", type=int, default=0, help="with --emit-slurm: number of shards")
    p.add_argument("--emit-slurm", metavar="FILE", help="write a Slurm job-array script instead of running")
    p.add_argument("--slurm-time", default="24:00:00")
    p.add_argument("--slurm-partition")
    p.add_argument("--slurm-account")
    p.add_argument("--slurm-gpus", type=int, default=1)
    p.add_argument("--unlabeled", type=int, default=0, metavar="N", help="export N distinct graphs, measure nothing")
    p.add_argument("--out", help="with --unlabeled: output folder")
    p.add_argument("--jobs", type=int, default=1, help="with --unlabeled: exports running at once")
    p.add_argument("--time-budget", type=float, default=0.0, help="stop cleanly after this many seconds")
    p.add_argument("--repeat", type=int, default=0, help="at the end, measure N earlier configurations again")
    p.add_argument("--repeat-every", type=int, default=0,
                   help="after every K new runs, measure one earlier configuration again")
    p.add_argument("--retry-errors", action="store_true", help="measure again configurations stored as error")
    p.add_argument("--omp-wait-policy", choices=("passive", "active"),
                   help="OMP_WAIT_POLICY for the children (default: unset, libgomp spins then sleeps); passive "
                        "avoids the spin-wait collapse of multi-threaded CPU runs on a shared, oversubscribed machine")
    p.add_argument("--isolate", default="forkserver", choices=("forkserver", "spawn"),
                   help="fresh child per task: forked from a torch-loaded server, or a new interpreter")
    p.add_argument("--dry-run", action="store_true", help="print the plan and exit")
    p.add_argument("-q", "--quiet", action="store_true")
    return p


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    p = build_parser()
    args = p.parse_args(argv)
    args.argv = list(argv)
    try:
        args.family_list = family_list(args.family)
        args.batches = parse_list(args.batch, int)
        args.seqs = parse_list(args.seq, int)
        args.dtypes = parse_list(args.dtype)
        args.modes = parse_list(args.mode)
        args.resolutions = tuple(parse_list(args.resolutions, int))
    except ValueError as e:
        p.error(str(e))
    for m in args.modes:
        if m not in ("infer", "train", "llm"):
            p.error("--mode: '%s' is not infer, train or llm" % m)
    for d in args.dtypes:
        if d not in ("float32", "float16", "bfloat16"):
            p.error("--dtype: '%s' is not float32, float16 or bfloat16" % d)
    if not args.batches or any(b < 1 for b in args.batches):
        p.error("--batch: positive integers expected")
    if "llm" in args.modes and args.family == "all":
        args.family_list = list(families.FAMILIES) + list(families.LLM_FAMILIES)
    if not (args.device == "cpu" or args.device.startswith("cuda")):
        p.error("--device: cpu or cuda:N")
    if args.shard:
        try:
            i, n = (int(x) for x in args.shard.split("/"))
            assert 0 <= i < n
        except (ValueError, AssertionError):
            p.error("--shard: i/n with 0 <= i < n expected")
    if not args.threads and args.device == "cpu":
        try:
            args.threads = len(os.sched_getaffinity(0))
        except AttributeError:
            args.threads = os.cpu_count() or 1
    if args.emit_slurm:
        if args.shards < 1 or not args.store:
            p.error("--emit-slurm needs --shards N and --store")
        return emit_slurm(args, argv)
    if args.unlabeled:
        if not args.out:
            p.error("--unlabeled needs --out DIR")
        return unlabeled(args)
    if args.dry_run:
        plan = shard_plan(args)
        for s in plan:
            print("%s\t%d configs\t%s" % (families.variant_name(s), len(configs_for(s, args)), families.spec_json(s)))
        return 0
    if not args.store:
        p.error("--store is required (or --unlabeled N --out DIR, or --emit-slurm)")
    try:
        return sweep(args)
    except storemod.StoreError as e:
        print("dlperf-profile: %s" % e, file=sys.stderr)
        return 1
