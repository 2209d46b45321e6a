"""hwinfo.py — hardware features of the measuring machine, and library versions.

CPU: model name, cores/threads/sockets, caches, memory (all from /proc and
/sys), instruction-set flags that matter to kernels, whether RAPL is readable.
CUDA: torch.cuda.get_device_properties (name, memory, SMs, compute
capability) plus NVML when pynvml imports (driver, power limit, clocks, bus,
MIG mode).  Runs in a measuring child, so the harness parent never creates a
CUDA context.
"""
import os
import platform
import re
import socket

RAPL = "/sys/class/powercap/intel-rapl:0/energy_uj"


def slug(s):
    return re.sub(r"[^a-z0-9]+", "-", s.lower()).strip("-")


def _read(path):
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return None


def rapl_readable():
    v = _read(RAPL)
    try:
        int(v)
        return True
    except (TypeError, ValueError):
        return False


def cpu_features():
    info = {}
    txt = _read("/proc/cpuinfo") or ""
    for line in txt.splitlines():
        k, _, v = line.partition(":")
        k, v = k.strip(), v.strip()
        if k == "model name" and "model" not in info:
            info["model"] = v
        elif k == "flags" and "flags" not in info:
            fl = set(v.split())
            info["flags"] = sorted(f for f in fl if f in (
                "avx", "avx2", "fma", "avx512f", "avx512bw", "avx512vl", "avx512_vnni", "avx512_bf16",
                "amx_tile", "amx_bf16", "amx_int8", "hypervisor", "sse4_2"))
        elif k == "cpu MHz" and "mhz" not in info:
            try:
                info["mhz"] = float(v)
            except ValueError:
                pass
    info.setdefault("model", platform.processor() or "unknown cpu")
    info["threads"] = os.cpu_count()
    try:
        info["affinity"] = len(os.sched_getaffinity(0))
    except AttributeError:
        info["affinity"] = info["threads"]
    cores, sockets = set(), set()
    base = "/sys/devices/system/cpu"
    for d in sorted(os.listdir(base)) if os.path.isdir(base) else []:
        if re.fullmatch(r"cpu\d+", d):
            c = _read("%s/%s/topology/core_id" % (base, d))
            s = _read("%s/%s/topology/physical_package_id" % (base, d))
            cores.add((s, c))
            sockets.add(s)
    info["cores"] = len(cores) or info["threads"]
    info["sockets"] = len(sockets) or 1
    caches = {}
    cdir = base + "/cpu0/cache"
    for d in sorted(os.listdir(cdir)) if os.path.isdir(cdir) else []:
        lvl, typ, size = (_read("%s/%s/%s" % (cdir, d, k)) for k in ("level", "type", "size"))
        if lvl and size:
            caches["L%s%s" % (lvl, {"Data": "d", "Instruction": "i"}.get(typ, ""))] = size
    info["caches"] = caches
    mem = _read("/proc/meminfo") or ""
    m = re.search(r"MemTotal:\s+(\d+) kB", mem)
    if m:
        info["memory_mb"] = round(int(m.group(1)) / 1024.0, 1)
    info["rapl"] = rapl_readable()
    info["kernel"] = platform.release()
    return info


def cpu_name(info):
    model = re.sub(r"\((r|tm)\)|cpu|processor|@.*$", "", info["model"], flags=re.I)
    return "cpu-%s-%dc" % (slug(model), info.get("affinity") or info["threads"])


def nvml():
    """The pynvml module, initialised, or None."""
    try:
        import pynvml
        pynvml.nvmlInit()
        return pynvml
    except Exception:
        return None


def nvml_index(torch_index):
    """NVML index of a torch device index (CUDA_VISIBLE_DEVICES with integers remaps)."""
    vis = os.environ.get("CUDA_VISIBLE_DEVICES")
    if vis:
        ids = [x.strip() for x in vis.split(",") if x.strip()]
        if torch_index < len(ids) and ids[torch_index].isdigit():
            return int(ids[torch_index])
    return torch_index


def cuda_features(index, torch=None, nv=None):
    if torch is None:
        import torch
    p = torch.cuda.get_device_properties(index)
    info = {"name": p.name, "model": p.name, "total_memory_mb": round(p.total_memory / 1048576.0, 1),
            "cc": "%d.%d" % (p.major, p.minor), "sm_count": p.multi_processor_count, "index": index}
    nv = nv if nv is not None else nvml()
    if nv is not None:
        try:
            h = nv.nvmlDeviceGetHandleByIndex(nvml_index(index))
            info["nvml"] = True
            for key, fn in (("driver", lambda: nv.nvmlSystemGetDriverVersion()),
                            ("power_limit_w", lambda: nv.nvmlDeviceGetEnforcedPowerLimit(h) / 1000.0),
                            ("max_sm_clock_mhz", lambda: nv.nvmlDeviceGetMaxClockInfo(h, nv.NVML_CLOCK_SM)),
                            ("max_mem_clock_mhz", lambda: nv.nvmlDeviceGetMaxClockInfo(h, nv.NVML_CLOCK_MEM)),
                            ("pcie_gen", lambda: nv.nvmlDeviceGetMaxPcieLinkGeneration(h)),
                            ("pcie_width", lambda: nv.nvmlDeviceGetMaxPcieLinkWidth(h)),
                            ("mig_mode", lambda: nv.nvmlDeviceGetMigMode(h)[0]),
                            ("serial_hash", lambda: slug(str(nv.nvmlDeviceGetUUID(h)))[-8:])):
                try:
                    v = fn()
                    info[key] = v.decode() if isinstance(v, bytes) else v
                except Exception:
                    pass
        except Exception as e:
            info["nvml"] = "error: %s" % e
    else:
        info["nvml"] = False
    return info


def cuda_name(info):
    return slug(info["name"])


def versions(torch_mod=None):
    v = {"python": platform.python_version()}
    for mod in ("torch", "torchvision", "onnx", "numpy", "transformers", "pynvml"):
        try:
            m = __import__(mod)
            v[mod] = getattr(m, "__version__", "?")
        except Exception:
            pass
    env = {k: os.environ[k] for k in ("OMP_WAIT_POLICY", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "GOMP_SPINCOUNT",
                                      "KMP_BLOCKTIME", "CUDA_VISIBLE_DEVICES", "CUBLAS_WORKSPACE_CONFIG")
           if k in os.environ}
    if env:
        v["env"] = env
    try:
        import torch
        v["cuda"] = torch.version.cuda
        v["cudnn"] = torch.backends.cudnn.version() if torch.backends.cudnn.is_available() else None
    except Exception:
        pass
    return v


def host():
    return socket.gethostname()
