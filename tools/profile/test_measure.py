"""Unit tests of measure.py: statistics, outcome classification, RAPL wrap-around,
and the CUDA measuring path run on the CPU through stubs of torch.cuda and NVML
(no GPU here: the stubs stand for CUDA events, the caching allocator's
counters, NVML's total-energy counter, power and per-process memory).

    /usr/bin/python3 -B -m unittest discover -s tools/profile -p 'test_*.py'
"""
import os
import sys
import tempfile
import time
import types
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True

import measure  # noqa: E402

TINY = {"family": "resnet", "ctor": "ResNet", "resolution": 32,
        "args": {"block": "BasicBlock", "layers": [1, 1, 1, 1], "groups": 1, "width_per_group": 64}}


class FakeEvent:
    def __init__(self, enable_timing=False):
        self.t = None

    def record(self, stream=None):
        self.t = time.perf_counter()

    def synchronize(self):
        pass

    def elapsed_time(self, end):
        return (end.t - self.t) * 1000.0


class FakeCuda:
    """torch.cuda as the CUDA backend uses it."""
    Event = FakeEvent

    def __init__(self):
        self.synced = 0
        self.reset = 0

    def set_device(self, d):
        pass

    def synchronize(self, d=None):
        self.synced += 1

    def empty_cache(self):
        pass

    def reset_peak_memory_stats(self, d=None):
        self.reset += 1

    def max_memory_reserved(self, d=None):
        return 96 << 20

    def max_memory_allocated(self, d=None):
        return 64 << 20


class FakeTorch:
    """The real torch, with cuda:N devices mapped to the CPU and torch.cuda stubbed."""

    def __init__(self):
        import torch
        self._t = torch
        self.cuda = FakeCuda()

    def __getattr__(self, name):
        return getattr(self._t, name)

    def device(self, spec):
        return self._t.device("cpu")


class FakeNvml:
    """pynvml with a constant 250 W board and a process using 1.5 GiB."""
    NVML_CLOCK_SM = 1
    NVML_CLOCK_MEM = 2
    WATTS = 250.0

    def __init__(self, energy_counter=True):
        self.t0 = time.perf_counter()
        self.energy_counter = energy_counter

    def nvmlDeviceGetHandleByIndex(self, i):
        return ("handle", i)

    def nvmlDeviceGetPowerUsage(self, h):
        return int(self.WATTS * 1000)

    def nvmlDeviceGetTotalEnergyConsumption(self, h):
        if not self.energy_counter:
            raise RuntimeError("NVML_ERROR_NOT_SUPPORTED")
        return int((time.perf_counter() - self.t0) * self.WATTS * 1000)  # mJ

    def nvmlDeviceGetMemoryInfo(self, h):
        return types.SimpleNamespace(used=2 << 30, total=80 << 30)

    def nvmlDeviceGetComputeRunningProcesses(self, h):
        return [types.SimpleNamespace(pid=os.getpid(), usedGpuMemory=3 << 29)]


def task(**kw):
    t = {"kind": "measure", "spec": TINY, "mode": "infer", "batch": 2, "seq": 0, "dtype": "float32",
         "device": "cuda:0", "warmup": 1, "iters": 4, "seed": 0, "threads": 1, "l2_flush_bytes": 1 << 16,
         "power_interval": 0.002}
    t.update(kw)
    return t


def by_name(res):
    return {m["metric"]: m for m in res["measurements"]}


class Stats(unittest.TestCase):
    def test_summarize(self):
        m = measure.summarize("latency_ms", [1.0, 2.0, 3.0, 10.0], "x")
        self.assertEqual((m["n"], m["mean"], m["median"], m["min"], m["max"]), (4, 4.0, 2.5, 1.0, 10.0))
        self.assertAlmostEqual(m["std"], 4.08248290463863)
        self.assertEqual(m["samples"], [1.0, 2.0, 3.0, 10.0])
        e = measure.summarize("energy_j", [], "unavailable: no counter")
        self.assertEqual((e["n"], e["mean"], e["source"]), (0, None, "unavailable: no counter"))

    def test_throughput(self):
        t = measure.throughput("throughput_sps", [10.0, 20.0], 8, "b/l")
        self.assertAlmostEqual(t["mean"], 8 * 1000 / 15.0)
        self.assertAlmostEqual(t["min"], 400.0)
        self.assertAlmostEqual(t["max"], 800.0)

    def test_oom_classification(self):
        self.assertTrue(measure.is_oom(RuntimeError("CUDA out of memory. Tried to allocate 2.00 GiB")))
        self.assertTrue(measure.is_oom(RuntimeError("DefaultCPUAllocator: can't allocate memory: you tried")))
        self.assertTrue(measure.is_oom(MemoryError()))
        self.assertFalse(measure.is_oom(ValueError("Expected more than 1 value per channel when training")))
        self.assertEqual(measure.short(measure.TooSlow("too slow: x")), "too slow: x")

    def test_rapl_wraparound(self):
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "energy_uj")
            with open(p, "w") as f:
                f.write("100\n")
            with open(os.path.join(d, "max_energy_range_uj"), "w") as f:
                f.write("1000\n")
            r = measure.Rapl(p)
            self.assertTrue(r.ok)
            self.assertEqual(r.read(), 100)
            self.assertAlmostEqual(r.delta_j(900, 100), 200e-6)
            self.assertAlmostEqual(r.delta_j(100, 600), 500e-6)


class CudaPathOnStubs(unittest.TestCase):
    def setUp(self):
        import torch
        torch.set_num_threads(1)

    def test_infer_with_nvml(self):
        ft, nv = FakeTorch(), FakeNvml()
        res = measure.measure(task(), torch=ft, nv=nv)
        m = by_name(res)
        self.assertEqual(res["outcome"], "ok")
        self.assertEqual(m["latency_ms"]["n"], 4)
        self.assertIn("cuda events", m["latency_ms"]["source"])
        self.assertEqual(len(m["latency_ms"]["samples"]), 4)
        # energy per iteration from the counter: 250 W x (timed phase / iterations) >= 250 W x latency
        lat_s = m["latency_ms"]["mean"] / 1000.0
        self.assertIn("total energy counter", m["energy_j"]["source"])
        self.assertGreaterEqual(m["energy_j"]["mean"], 0.8 * 250 * lat_s)
        self.assertLess(m["energy_j"]["mean"], 250 * lat_s * 5 + 0.05)
        self.assertAlmostEqual(m["power_w"]["mean"], 250.0)
        self.assertGreaterEqual(m["power_w"]["n"], 1)
        self.assertEqual(m["memory_mb"]["mean"], 1536.0)
        self.assertIn("process memory", m["memory_mb"]["source"])
        self.assertEqual(m["memory_reserved_mb"]["mean"], 96.0)
        self.assertEqual(m["memory_alloc_mb"]["mean"], 64.0)
        self.assertGreaterEqual(ft.cuda.synced, 4)
        self.assertEqual(ft.cuda.reset, 1)

    def test_train_without_energy_counter(self):
        res = measure.measure(task(mode="train", iters=3), torch=FakeTorch(), nv=FakeNvml(energy_counter=False))
        m = by_name(res)
        self.assertEqual(m["step_ms"]["n"], 3)
        self.assertIn("integrated", m["energy_j"]["source"])
        self.assertAlmostEqual(m["power_w"]["mean"], 250.0)

    def test_without_nvml(self):
        res = measure.measure(task(), torch=FakeTorch(), nv=False)
        m = by_name(res)
        self.assertEqual(m["energy_j"]["n"], 0)
        self.assertIsNone(m["energy_j"]["mean"])
        self.assertIn("unavailable", m["energy_j"]["source"])
        self.assertIn("max_memory_reserved", m["memory_mb"]["source"])

    def test_cpu_backend(self):
        res = measure.measure(task(device="cpu", rapl_path="/nonexistent/energy_uj", max_seconds=2))
        m = by_name(res)
        self.assertGreater(m["memory_mb"]["mean"], m["memory_base_mb"]["mean"])
        self.assertEqual(m["energy_j"]["n"], 0)
        self.assertIn("not readable", m["energy_j"]["source"])
        self.assertGreaterEqual(m["latency_ms"]["n"], measure.MIN_TIMED)


if __name__ == "__main__":
    unittest.main()
