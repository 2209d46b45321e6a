"""measure.py — what runs inside one fresh measuring child per configuration.

The harness forks a child per task (from a fork server that has imported
torch, or a freshly exec'ed interpreter with --isolate spawn); the child
builds the model from its spec, measures it and sends one result dict back
through a pipe.  A crash, a kernel OOM kill or a timeout of the child is seen
by the parent, which records it as the run's outcome.

Protocol (thesis ch. 6, Algorithm 2; DIPPM §4.4.1; TraPPM §5.5.2):
  cache clearing (GPU: empty_cache + an L2-sized write; CPU: an LLC-sized
  write, then the peak-RSS counter is reset) -> warm-up W iterations ->
  T timed iterations (each timed alone: CUDA events with a synchronize after
  each, or time.perf_counter on CPU) -> statistics.  --max-config-seconds caps
  the warm-up at a third of it (at least 1 iteration) and the timed phase at
  the rest (at least 3 iterations); the counts actually run are stored.
  The parent sleeps the cool-down between children.

Metrics (docs/store.md): latency_ms | step_ms, throughput_sps, memory_mb,
energy_j, power_w, plus memory_base_mb (CPU), memory_reserved_mb /
memory_alloc_mb (CUDA), tokens_tps and energy_sample_j (llm).  A metric the
machine cannot measure is stored with n = 0 and NULL values and a source
saying why — never an invented number.
"""
import math
import os
import statistics
import threading
import time

import hwinfo

MIN_TIMED = 3


class TooSlow(Exception):
    """A configuration slower than --max-iter-seconds per iteration: stored as an error."""


# ---------------------------------------------------------------------------
# statistics

def summarize(metric, values, source, keep_samples=True, unit=None):
    vals = [float(v) for v in values if v is not None and not math.isnan(float(v))]
    if not vals:
        return missing(metric, source)
    return {"metric": metric, "unit": unit, "n": len(vals), "mean": statistics.fmean(vals),
            "median": statistics.median(vals), "std": statistics.stdev(vals) if len(vals) > 1 else 0.0,
            "min": min(vals), "max": max(vals), "source": source,
            "samples": [round(v, 6) for v in vals] if keep_samples and len(vals) > 1 else None}


def single(metric, value, n, source):
    """One aggregate value (e.g. energy integrated over n iterations): no spread."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return missing(metric, source)
    return {"metric": metric, "n": int(n), "mean": value, "median": value, "std": None, "min": value,
            "max": value, "source": source, "samples": None}


def missing(metric, why):
    return {"metric": metric, "n": 0, "mean": None, "median": None, "std": None, "min": None, "max": None,
            "source": why, "samples": None}


def throughput(metric, times_ms, per_iter, source):
    """Items per second from per-iteration times (mean from the mean time)."""
    if not times_ms:
        return missing(metric, source)
    t = summarize("x", times_ms, "")
    return {"metric": metric, "n": t["n"], "mean": per_iter * 1000.0 / t["mean"],
            "median": per_iter * 1000.0 / t["median"], "std": None, "min": per_iter * 1000.0 / t["max"],
            "max": per_iter * 1000.0 / t["min"], "source": source, "samples": None}


# ---------------------------------------------------------------------------
# process helpers

def _pdeathsig():
    """Die with the parent (harness or fork server) so kill -9 leaves no orphan measuring."""
    try:
        import ctypes
        import signal
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except Exception:
        pass


def proc_status(key):
    """A kB field of /proc/self/status in MiB (VmHWM, VmRSS), or None."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1]) / 1024.0
    except OSError:
        pass
    return None


def reset_peak_rss():
    """Reset VmHWM to the current RSS (Linux >= 4.0); False if not possible."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def is_oom(exc):
    if isinstance(exc, MemoryError):
        return True
    name = type(exc).__name__
    msg = str(exc).lower()
    return name == "OutOfMemoryError" or "out of memory" in msg or "can't allocate memory" in msg or \
        "not enough memory" in msg


def short(exc, limit=400):
    if isinstance(exc, TooSlow):
        return str(exc)[:limit]
    s = "%s: %s" % (type(exc).__name__, str(exc).strip().splitlines()[0] if str(exc).strip() else "")
    return s[:limit]


# ---------------------------------------------------------------------------
# energy and power

class Rapl:
    """CPU package energy from /sys/class/powercap (intel-rapl:0), with wrap-around."""

    def __init__(self, path=hwinfo.RAPL):
        self.path = path
        self.ok = hwinfo.rapl_readable() if path == hwinfo.RAPL else os.access(path, os.R_OK)
        mx = hwinfo._read(os.path.join(os.path.dirname(path), "max_energy_range_uj"))
        self.max = int(mx) if mx and mx.isdigit() else None

    def read(self):
        with open(self.path) as f:
            return int(f.read())

    def delta_j(self, a, b):
        d = b - a
        if d < 0 and self.max:
            d += self.max
        return d / 1e6


class PowerSampler(threading.Thread):
    """Polls NVML board power (W) and memory in use every `interval` s while running."""

    def __init__(self, nv, handle, interval=0.02, pid=None):
        super().__init__(daemon=True)
        self.nv, self.h, self.interval = nv, handle, interval
        self.pid = pid if pid is not None else os.getpid()
        self.power = []          # (t, W)
        self.used_mb = 0.0       # device memory in use, peak
        self.proc_mb = None      # this process's memory per NVML, peak (None: not reported)
        self._stop_evt = threading.Event()

    def sample_once(self):
        nv, h = self.nv, self.h
        try:
            self.power.append((time.perf_counter(), nv.nvmlDeviceGetPowerUsage(h) / 1000.0))
        except Exception:
            pass
        try:
            self.used_mb = max(self.used_mb, nv.nvmlDeviceGetMemoryInfo(h).used / 1048576.0)
        except Exception:
            pass
        try:
            for p in nv.nvmlDeviceGetComputeRunningProcesses(h):
                if p.pid == self.pid and p.usedGpuMemory is not None:
                    self.proc_mb = max(self.proc_mb or 0.0, p.usedGpuMemory / 1048576.0)
        except Exception:
            pass

    def run(self):
        while not self._stop_evt.is_set():
            self.sample_once()
            self._stop_evt.wait(self.interval)

    def stop(self):
        self._stop_evt.set()
        self.join(timeout=5)
        self.sample_once()

    def watts(self):
        return [w for _, w in self.power]

    def energy_j(self):
        """Trapezoid integral of the samples (fallback when the energy counter is missing)."""
        p = self.power
        return sum((p[i + 1][0] - p[i][0]) * (p[i + 1][1] + p[i][1]) / 2 for i in range(len(p) - 1)) \
            if len(p) > 1 else None


# ---------------------------------------------------------------------------
# backends

class CpuBackend:
    kind = "cpu"

    def __init__(self, task, torch):
        self.torch = torch
        self.device = torch.device("cpu")
        self.rapl = Rapl(task.get("rapl_path") or hwinfo.RAPL)
        self.notes = []

    def sync(self):
        pass

    def flush_cache(self):
        """Write a buffer twice the LLC, then reset the peak-RSS counter (so the buffer
        never shows in memory_mb).  Skipped when the counter cannot be reset."""
        base = "/sys/devices/system/cpu/cpu0/cache"
        llc = 32 << 20
        try:
            sizes = []
            for d in os.listdir(base):
                s = hwinfo._read(os.path.join(base, d, "size")) or ""
                if s.endswith("K"):
                    sizes.append(int(s[:-1]) << 10)
                elif s.endswith("M"):
                    sizes.append(int(s[:-1]) << 20)
            llc = max(sizes or [llc])
        except OSError:
            pass
        if not reset_peak_rss():
            self.notes.append("cache not flushed: /proc/self/clear_refs not writable")
            return
        buf = self.torch.empty(2 * llc, dtype=self.torch.uint8)
        buf.fill_(1)
        del buf
        reset_peak_rss()

    def reset_memory(self):
        pass

    def time_once(self, fn):
        t0 = time.perf_counter()
        fn()
        return (time.perf_counter() - t0) * 1000.0

    def energy_begin(self):
        self._e0 = self.rapl.read() if self.rapl.ok else None
        self._t0 = time.perf_counter()

    def energy_end(self, n_iter):
        wall = time.perf_counter() - self._t0
        if self._e0 is None:
            why = "unavailable: %s not readable" % self.rapl.path
            return [missing("energy_j", why), missing("power_w", why)]
        e = self.rapl.delta_j(self._e0, self.rapl.read())
        return [single("energy_j", e / max(1, n_iter), n_iter, "rapl:package-0 (whole package, per iteration)"),
                single("power_w", e / wall if wall > 0 else None, n_iter, "rapl:package-0 energy / wall time")]

    def memory(self):
        out = [single("memory_mb", proc_status("VmHWM"), 1, "VmHWM (peak RSS) of the fresh measuring child")]
        return out


class CudaBackend:
    kind = "cuda"

    def __init__(self, task, torch, nv=None):
        self.torch = torch
        self.device = torch.device(task["device"])
        self.nv = None if nv is False else nv if nv is not None else hwinfo.nvml()
        self.h = None
        self.notes = []
        self.interval = float(task.get("power_interval", 0.02))
        self.l2_bytes = int(task.get("l2_flush_bytes", 256 << 20))
        self.sampler = None
        self.base_used_mb = None      # device memory in use before this process's context
        if self.nv is not None:
            try:
                self.h = self.nv.nvmlDeviceGetHandleByIndex(hwinfo.nvml_index(self.device.index or 0))
                self.base_used_mb = self.nv.nvmlDeviceGetMemoryInfo(self.h).used / 1048576.0
            except Exception as e:
                self.notes.append("NVML handle: %s" % e)
        torch.cuda.set_device(self.device)
        if self.h is not None:       # memory and power sampled from before the model exists
            self.sampler = PowerSampler(self.nv, self.h, self.interval)
            self.sampler.start()

    def sync(self):
        self.torch.cuda.synchronize(self.device)

    def flush_cache(self):
        t = self.torch
        t.cuda.empty_cache()
        buf = t.empty(self.l2_bytes, dtype=t.uint8, device=self.device)
        buf.zero_()
        del buf
        t.cuda.synchronize(self.device)
        t.cuda.empty_cache()

    def reset_memory(self):
        self.torch.cuda.reset_peak_memory_stats(self.device)

    def time_once(self, fn):
        t = self.torch
        s, e = t.cuda.Event(enable_timing=True), t.cuda.Event(enable_timing=True)
        s.record()
        fn()
        e.record()
        e.synchronize()
        return s.elapsed_time(e)

    def energy_begin(self):
        self.sync()
        self._e0 = None
        if self.h is not None:
            try:
                self._e0 = self.nv.nvmlDeviceGetTotalEnergyConsumption(self.h)  # mJ since driver load
            except Exception as e:
                self.notes.append("total energy counter: %s" % e)
            if self.sampler is not None:
                self.sampler.power = []       # power over the timed phase only
        self._t0 = time.perf_counter()

    def energy_end(self, n_iter):
        self.sync()
        wall = time.perf_counter() - self._t0
        out = []
        if self.h is None:
            why = "unavailable: pynvml not importable or no NVML handle"
            return [missing("energy_j", why), missing("power_w", why)]
        e1 = None
        if self._e0 is not None:
            try:
                e1 = self.nv.nvmlDeviceGetTotalEnergyConsumption(self.h)
            except Exception:
                e1 = None
        if self.sampler is not None:
            self.sampler.stop()
        watts = self.sampler.watts() if self.sampler else []
        if e1 is not None:
            ej = (e1 - self._e0) / 1000.0
            out.append(single("energy_j", ej / max(1, n_iter), n_iter,
                              "nvml total energy counter (board, per iteration)"))
        else:
            ej = self.sampler.energy_j() if self.sampler else None
            out.append(single("energy_j", None if ej is None else ej / max(1, n_iter), n_iter,
                              "nvml power samples integrated (no energy counter)"))
        if watts:
            out.append(summarize("power_w", watts, "nvml power sampler every %g s" % self.interval,
                                 keep_samples=False))
        elif ej is not None and wall > 0:
            out.append(single("power_w", ej / wall, n_iter, "nvml energy / wall time"))
        else:
            out.append(missing("power_w", "no power samples"))
        return out

    def memory(self):
        t = self.torch
        mb = 1048576.0
        res = t.cuda.max_memory_reserved(self.device) / mb
        alloc = t.cuda.max_memory_allocated(self.device) / mb
        out = [single("memory_reserved_mb", res, 1, "torch.cuda.max_memory_reserved"),
               single("memory_alloc_mb", alloc, 1, "torch.cuda.max_memory_allocated")]
        s = self.sampler
        if s is not None and s.proc_mb:
            out.append(single("memory_mb", s.proc_mb, len(s.power), "nvml process memory, peak (incl. context)"))
        elif s is not None and s.used_mb and self.base_used_mb is not None:
            out.append(single("memory_mb", s.used_mb - self.base_used_mb, len(s.power),
                              "nvml device memory used, peak minus before this process (incl. context)"))
        else:
            out.append(single("memory_mb", res, 1, "torch.cuda.max_memory_reserved (no NVML; context excluded)"))
        return out


# ---------------------------------------------------------------------------
# the measurement

def make_backend(task, torch, nv=None):
    if task["device"].startswith("cuda"):
        return CudaBackend(task, torch, nv)
    return CpuBackend(task, torch)


def measure(task, torch=None, nv=None, build=None):
    """Measure one configuration; returns {"outcome", "message", "measurements", "info"}."""
    if torch is None:
        import torch
    import families
    mode, batch = task["mode"], int(task["batch"])
    seq = int(task.get("seq") or 0)
    dtype = getattr(torch, task.get("dtype") or "float32")
    if task.get("threads"):
        torch.set_num_threads(int(task["threads"]))
    torch.manual_seed(int(task.get("seed", 0)))
    be = make_backend(task, torch, nv)
    be.flush_cache()
    reset_peak_rss()
    base_rss = proc_status("VmRSS")
    spec = task["spec"]
    model = (build or families.build)(spec)
    model = model.to(be.device)
    gen = torch.Generator(device="cpu").manual_seed(int(task.get("seed", 0)))
    amp = None
    if spec["family"] in families.LLM_FAMILIES:
        x = torch.randint(0, min(1000, spec["args"]["vocab"]), (batch, seq), generator=gen).to(be.device)
    else:
        r = spec["resolution"]
        x = torch.randn(batch, 3, r, r, generator=gen).to(be.device)
    if mode in ("infer", "llm"):
        model.eval()
        if dtype != torch.float32:
            model = model.to(dtype)
            if x.is_floating_point():
                x = x.to(dtype)

        def fn():
            with torch.inference_mode():
                model(x)
    elif mode == "train":
        model.train()
        y = torch.randint(0, 1000, (batch,), generator=gen).to(be.device)
        opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9) if task.get("optimizer", "sgd") == "sgd" \
            else torch.optim.Adam(model.parameters(), lr=1e-3)
        loss_fn = torch.nn.CrossEntropyLoss()
        if dtype != torch.float32:
            amp = dtype

        def fn():
            opt.zero_grad(set_to_none=True)
            if amp is not None:
                with torch.autocast(device_type=be.device.type, dtype=amp):
                    loss = loss_fn(model(x), y)
            else:
                loss = loss_fn(model(x), y)
            loss.backward()
            opt.step()
    else:
        raise ValueError("unknown mode '%s'" % mode)

    warmup, iters = int(task.get("warmup", 5)), int(task.get("iters", 30))
    cap = float(task.get("max_seconds") or 0)
    be.reset_memory()
    t0 = time.perf_counter()
    w = 0
    max_iter = float(task.get("max_iter_seconds") or 0)
    while w < warmup:
        ti = time.perf_counter()
        fn()
        w += 1
        be.sync()
        if max_iter and time.perf_counter() - ti > max_iter:
            raise TooSlow("too slow: warm-up iteration %d took %.1f s > --max-iter-seconds %g"
                          % (w, time.perf_counter() - ti, max_iter))
        if cap and time.perf_counter() - t0 > cap / 3.0:
            break
    be.energy_begin()
    times = []
    t1 = time.perf_counter()
    while len(times) < iters:
        times.append(be.time_once(fn))
        if cap and len(times) >= MIN_TIMED and time.perf_counter() - t1 > cap * 2.0 / 3.0:
            break
    energy = be.energy_end(len(times))
    tm = "cuda events, one synchronized iteration each" if be.kind == "cuda" else \
        "time.perf_counter around each iteration"
    ms = []
    if mode == "train":
        ms.append(summarize("step_ms", times, tm))
        ms.append(throughput("throughput_sps", times, batch, "batch / step time"))
    else:
        ms.append(summarize("latency_ms", times, tm))
        ms.append(throughput("throughput_sps", times, batch, "batch / latency"))
        if mode == "llm":
            ms.append(throughput("tokens_tps", times, batch * seq, "batch x seq / latency"))
    ms.extend(be.memory())
    if be.kind == "cpu":
        ms.append(single("memory_base_mb", base_rss, 1, "VmRSS of the child before building the model"))
    ms.extend(energy)
    if mode == "llm":
        e = next(m for m in energy if m["metric"] == "energy_j")
        ms.append(single("energy_sample_j", None if e["mean"] is None else e["mean"] / batch, e["n"],
                         "energy_j / batch") if e["n"] else missing("energy_sample_j", e["source"]))
    info = {"warmup_done": w, "iters_done": len(times), "threads": torch.get_num_threads(),
            "notes": be.notes}
    return {"outcome": "ok", "message": None, "measurements": ms, "info": info}


# ---------------------------------------------------------------------------
# child entry point

def child_main(task, conn):
    """Entry of a measuring child: run one task, send one dict, exit."""
    _pdeathsig()
    try:
        kind = task.get("kind", "measure")
        if kind == "measure":
            res = measure(task)
        elif kind == "export":
            import onnxexport
            res = onnxexport.export_spec(task["spec"], task["out_dir"], seed=int(task.get("seed", 0)),
                                         max_params=float(task.get("max_params") or 0))
        elif kind == "hwinfo":
            res = hwinfo_task(task)
        else:
            raise ValueError("unknown task kind %r" % kind)
        res.setdefault("outcome", "ok")
    except BaseException as e:  # noqa: the parent records every failure as an outcome
        res = {"outcome": "oom" if is_oom(e) else "error", "message": short(e)}
        if os.environ.get("DLPERF_PROFILE_TRACEBACK"):
            import traceback
            res["traceback"] = traceback.format_exc()
    try:
        conn.send(res)
    finally:
        conn.close()


def hwinfo_task(task):
    v = hwinfo.versions()
    dev = task["device"]
    if dev.startswith("cuda"):
        import torch
        if not torch.cuda.is_available():
            raise RuntimeError("--device %s: torch.cuda.is_available() is False" % dev)
        idx = torch.device(dev).index or 0
        f = hwinfo.cuda_features(idx, torch)
        v["driver"] = f.get("driver")
        return {"kind": "cuda", "name": hwinfo.cuda_name(f), "model": f["name"], "features": f, "versions": v}
    f = hwinfo.cpu_features()
    return {"kind": "cpu", "name": hwinfo.cpu_name(f), "model": f["model"], "features": f, "versions": v}
