#!/usr/bin/env python3
"""One short, batched measurement on a lent GPU (issue 23's checks).

Writes to $OUT (or ./gpu_out):
  env.txt      torch/GPU facts, nvidia-smi clocks and power limits
  gemm.csv     matmul time over size sweeps (fp32 without TF32, fp16, bf16):
               square sizes and an M sweep at N=K=4096 that crosses tile-wave
               boundaries, plus BERT-like token sweeps
  ew.csv       element-wise / reduction kernels over sizes (add, relu, gelu,
               softmax, layer_norm) in fp32 and fp16
  train.json   torchvision AMP training step and AMP inference time, batch 64,
               NCHW and channels_last, plus torch.profiler's CUDA kernel table
               of one training step
  power.csv    nvidia-smi samples (SM clock, power, temperature) while a fp16
               GEMM, a fp32 GEMM and a device copy run back to back
  compile.json eager vs torch.compile inference (resnet50 fp16 b64), if time

Timing: CUDA events around a loop of R calls (launch gaps amortised), median
of 5 such loops after warm-up.  cudnn.benchmark = True as timm's benchmark.py
sets it.  Nothing here is fitted; the numbers are a check.
Usage: python3 tools/gpu/measure.py [--quick]   (--quick: CPU dry run, tiny)
Env: BUDGET_S (default 420), PARTS=power,gemm,ew,train,compiled, MODELS=a,b (torchvision names),
LAYOUTS=nchw,nhwc, BATCH=64 (train_bN.json when not 64).
"""
import json, os, subprocess, sys, time

import torch
import torch.nn.functional as F

T0 = time.time()
QUICK = "--quick" in sys.argv
OUT = os.environ.get("OUT", "gpu_out")
os.makedirs(OUT, exist_ok=True)
DEV = "cuda" if torch.cuda.is_available() and not QUICK else "cpu"
BUDGET = float(os.environ.get("BUDGET_S", "420"))


def left():
    return BUDGET - (time.time() - T0)


def log(*a):
    print(f"[{time.time() - T0:6.1f}s]", *a, flush=True)


def sync():
    if DEV == "cuda":
        torch.cuda.synchronize()


def time_loop(fn, reps=10, loops=5, warm=2):
    """Median per-call milliseconds of `loops` timed loops of `reps` calls."""
    for _ in range(warm):
        fn()
    sync()
    per = []
    for _ in range(loops):
        if DEV == "cuda":
            s = torch.cuda.Event(enable_timing=True)
            e = torch.cuda.Event(enable_timing=True)
            s.record()
            for _ in range(reps):
                fn()
            e.record()
            e.synchronize()
            per.append(s.elapsed_time(e) / reps)
        else:
            t = time.perf_counter()
            for _ in range(reps):
                fn()
            per.append((time.perf_counter() - t) * 1e3 / reps)
    per.sort()
    return per[len(per) // 2]


def smi(args):
    try:
        return subprocess.run(["nvidia-smi"] + args, capture_output=True, text=True, timeout=20).stdout
    except Exception as ex:  # no nvidia-smi on a CPU dry run
        return f"nvidia-smi: {ex}\n"


def env():
    with open(f"{OUT}/env.txt", "w") as f:
        f.write(f"torch {torch.__version__} device {DEV}\n")
        if DEV == "cuda":
            p = torch.cuda.get_device_properties(0)
            f.write(f"name {p.name} sms {p.multi_processor_count} mem {p.total_memory} "
                    f"l2 {getattr(p, 'L2_cache_size', 'na')}\n")
            f.write(f"cudnn {torch.backends.cudnn.version()}\n")
        f.write(smi(["-q", "-d", "CLOCK,POWER,PERFORMANCE"]))


DT = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}
if DEV == "cpu":  # dry run: this torch's CPU kernels lack half precision
    DT = {k: torch.float32 for k in DT}


def amp():
    """fp16 autocast on the GPU; nothing on a CPU dry run."""
    import contextlib
    return torch.autocast("cuda", dtype=torch.float16) if DEV == "cuda" else contextlib.nullcontext()


def gemm():
    torch.backends.cuda.matmul.allow_tf32 = False
    rows = ["kind,dtype,M,N,K,ms,tflops"]
    sq = [256, 512, 768, 1024, 1536, 2048, 3072, 4096, 6144, 8192]
    msweep = list(range(128, 128 * 272 + 1, 128 * 3))  # crosses 132-SM waves of 128-row tiles
    tok = [128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768]
    if QUICK:
        sq, msweep, tok = [64, 128], [128, 256], [128]
    cases = [("square", n, n, n) for n in sq]
    cases += [("msweep", m, 4096, 4096) for m in msweep]
    for t in tok:
        cases += [("bert_qkv", t, 2304, 768), ("bert_ff1", t, 3072, 768), ("bert_ff2", t, 768, 3072)]
    for dn in ["fp16", "bf16", "fp32"]:
        for kind, M, N, K in cases:
            if dn == "fp32" and kind == "msweep" and M % (128 * 9) != 128:
                continue  # fp32 is slow: every third point of the M sweep
            if left() < 300:
                log("gemm: stopping early (budget)")
                break
            a = torch.randn(M, K, device=DEV, dtype=DT[dn])
            b = torch.randn(K, N, device=DEV, dtype=DT[dn])
            reps = 3 if 2.0 * M * N * K > 2e11 else 10
            ms = time_loop(lambda: torch.mm(a, b), reps=reps)
            rows.append(f"{kind},{dn},{M},{N},{K},{ms:.5f},{2.0 * M * N * K / ms / 1e9:.2f}")
        log("gemm", dn, "done")
    with open(f"{OUT}/gemm.csv", "w") as f:
        f.write("\n".join(rows) + "\n")


def ew():
    rows = ["op,dtype,elements,ms,gbps"]
    sizes = [1 << k for k in range(12, 29, 1)] + [3 << k for k in range(12, 27, 2)]
    if QUICK:
        sizes = [4096, 8192]
    sizes.sort()
    for dn in ["fp32", "fp16"]:
        for n in sizes:
            x = torch.randn(n, device=DEV, dtype=DT[dn])
            y = torch.randn(n, device=DEV, dtype=DT[dn])
            es = x.element_size()
            ops = [("add", lambda: x + y, 3), ("relu", lambda: F.relu(x), 2), ("gelu", lambda: F.gelu(x), 2)]
            if n % 768 == 0 or n >= 768 * 16:
                r = n // 768
                xm = x[: r * 768].view(r, 768)
                ops.append(("layer_norm768", lambda: F.layer_norm(xm, (768,)), 2))
                ops.append(("softmax768", lambda: torch.softmax(xm, -1), 2))
            for name, fn, passes in ops:
                ms = time_loop(fn, reps=20)
                rows.append(f"{name},{dn},{n},{ms:.5f},{passes * n * es / ms / 1e6:.1f}")
        log("ew", dn, "done")
    with open(f"{OUT}/ew.csv", "w") as f:
        f.write("\n".join(rows) + "\n")


def kernel_table(prof, top=45):
    agg = {}
    for ev in prof.events():
        if ev.device_type != torch.autograd.DeviceType.CUDA:
            continue
        k = agg.setdefault(ev.name, [0, 0.0])
        k[0] += 1
        k[1] += ev.device_time if hasattr(ev, "device_time") else ev.cuda_time
    items = sorted(agg.items(), key=lambda kv: -kv[1][1])
    return [{"kernel": n[:160], "count": c, "us": round(t, 2)} for n, (c, t) in items[:top]], \
        round(sum(t for _, (c, t) in items), 1), sum(c for _, (c, t) in items)


def train():
    import torchvision.models as tvm
    torch.backends.cudnn.benchmark = True
    names = ["resnet50", "mobilenet_v2", "mobilenet_v3_large", "efficientnet_b0", "mnasnet1_0",
             "regnet_y_800mf", "convnext_tiny", "vgg16", "resnext50_32x4d", "vit_b_16"]
    batch, hw = (int(os.environ.get("BATCH", "64")), 224) if not QUICK else (2, 64)
    if os.environ.get("MODELS"):
        names = os.environ["MODELS"].split(",")
    if QUICK:
        names = ["mobilenet_v2"]
    res = []
    for name in names:
        for layout in os.environ.get("LAYOUTS", "nchw,nhwc").split(","):
            if left() < 130:
                log("train: stopping early (budget)")
                break
            mf = torch.channels_last if layout == "nhwc" else torch.contiguous_format
            m = getattr(tvm, name)(weights=None).to(DEV).to(memory_format=mf)
            x = torch.randn(batch, 3, hw, hw, device=DEV).to(memory_format=mf)
            yt = torch.randint(0, 1000, (batch,), device=DEV)
            opt = torch.optim.SGD(m.parameters(), lr=0.01, momentum=0.9)
            try:
                scaler = torch.amp.GradScaler(DEV, enabled=DEV == "cuda")
            except AttributeError:  # torch < 2.3 (the CPU dry run on Debian's torch)
                scaler = torch.cuda.amp.GradScaler(enabled=DEV == "cuda")
            crit = torch.nn.CrossEntropyLoss()

            def step():
                opt.zero_grad(set_to_none=True)
                with amp():
                    loss = crit(m(x), yt)
                scaler.scale(loss).backward()
                scaler.step(opt)
                scaler.update()

            m.train()
            t_train = time_loop(step, reps=3, loops=5, warm=3)
            from torch.profiler import profile, ProfilerActivity
            acts = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if DEV == "cuda" else [])
            with profile(activities=acts) as prof:
                step()
                sync()
            ktab, ktot, kn = kernel_table(prof)
            m.eval()

            def infer():
                with torch.no_grad(), amp():
                    m(x)

            t_inf = time_loop(infer, reps=5, loops=5, warm=3)
            res.append({"model": name, "layout": layout, "batch": batch, "train_ms": round(t_train, 4),
                        "infer_ms": round(t_inf, 4), "profiled_kernel_us": ktot, "profiled_kernels": kn,
                        "kernels": ktab})
            log(name, layout, f"train {t_train:.2f} ms infer {t_inf:.2f} ms kernels {kn}")
            del m, opt, x
            if DEV == "cuda":
                torch.cuda.empty_cache()
        with open(f"{OUT}/train_b{batch}.json" if batch != 64 else f"{OUT}/train.json", "w") as f:
            json.dump(res, f, indent=1)


def power():
    if DEV != "cuda":
        return
    torch.backends.cuda.matmul.allow_tf32 = False
    smi_p = subprocess.Popen(["nvidia-smi", "--query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,"
                              "power.limit,temperature.gpu,clocks_throttle_reasons.active",
                              "--format=csv,noheader", "-lms", "100"],
                             stdout=open(f"{OUT}/power.csv", "w"), stderr=subprocess.STDOUT)
    marks = []

    def run(label, fn, secs):
        marks.append(f"# {time.strftime('%H:%M:%S')} start {label}")
        t = time.time()
        while time.time() - t < secs:
            fn()
            sync()
        marks.append(f"# {time.strftime('%H:%M:%S')} end {label}")

    a = torch.randn(8192, 8192, device=DEV, dtype=torch.float16)
    run("idle", lambda: time.sleep(0.2), 2)
    run("gemm_fp16_8192", lambda: [torch.mm(a, a) for _ in range(20)], 8)
    a32 = torch.randn(8192, 8192, device=DEV)
    run("gemm_fp32_8192_notf32", lambda: [torch.mm(a32, a32) for _ in range(2)], 6)
    big = torch.empty(1 << 30, device=DEV, dtype=torch.uint8)
    big2 = torch.empty_like(big)
    run("copy_1GiB", lambda: [big2.copy_(big) for _ in range(20)], 5)
    time.sleep(0.3)
    smi_p.terminate()
    smi_p.wait()
    with open(f"{OUT}/power.csv", "a") as f:
        f.write("\n".join(marks) + "\n")
    log("power done")


def compiled():
    if DEV != "cuda" or left() < 100:
        log("compile: skipped (budget)")
        return
    import torchvision.models as tvm
    m = tvm.resnet50(weights=None).to(DEV).eval().half()
    x = torch.randn(64, 3, 224, 224, device=DEV, dtype=torch.float16)
    with torch.no_grad():
        eager = time_loop(lambda: m(x), reps=5)
        t = time.time()
        mc = torch.compile(m)
        mc(x)
        ctime = time.time() - t
        comp = time_loop(lambda: mc(x), reps=5)
    with open(f"{OUT}/compile.json", "w") as f:
        json.dump({"model": "resnet50", "dtype": "fp16", "batch": 64, "eager_ms": eager, "compile_ms": comp,
                   "compile_wall_s": ctime}, f, indent=1)
    log(f"compile eager {eager:.3f} compiled {comp:.3f} ({ctime:.0f} s to compile)")


if __name__ == "__main__":
    env()
    parts = (power, gemm, ew, train, compiled)
    if os.environ.get("PARTS"):
        parts = [globals()[p] for p in os.environ["PARTS"].split(",")]
    for part in parts:
        try:
            part()
        except Exception as ex:
            log(f"{part.__name__} failed: {ex!r}")
    log("all done")
