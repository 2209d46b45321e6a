#!/usr/bin/env python3
"""dlperf's training/inference predictions beside tools/gpu/measure.py's measurements.

usage: /usr/bin/python3 tools/gpu/compare_train.py [--host-us US] DEVICE_ID FILE.json [FILE.json ...]
Prints, per model/layout/batch: measured step (CUDA events), the GPU kernel sum of one
profiled step (torch.profiler), dlperf's predicted step, and the ratios; then the same
for AMP inference.  The measurement ran SGD with momentum, GradScaler, torch.autocast
fp16, cudnn.benchmark on (timm's setting).  Nothing is fitted here.
"""
import json, os, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHARED = os.environ.get("DLP_SHARED", os.path.join(ROOT, "..", "shared"))


def onnx_of(name):
    for d in (os.path.join(ROOT, "data/models/torchvision"), os.path.join(SHARED, "models/torchvision")):
        p = os.path.join(d, name + ".onnx")
        if os.path.exists(p):
            return p
    return None


HOST_US = None


def predict(path, dev, batch, layout, mode):
    cmd = [os.path.join(ROOT, "build/dlperf"), "predict", path, "--device", dev, "--batch", str(batch),
           "--dtype", "fp16", "--mode", mode, "--layout", layout, "--dim", "height=224", "--dim", "width=224",
           "--no-learned", "--json"]
    if mode == "train":
        cmd += ["--optimizer", "sgd-momentum"]
    if HOST_US is not None:
        cmd += ["--host-us", str(HOST_US)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        return None
    j = json.loads(r.stdout)
    return j["step_ms"] if mode == "train" else j["latency_ms"]


def main():
    global HOST_US
    args = sys.argv[1:]
    if args[:1] == ["--host-us"]:
        HOST_US, args = float(args[1]), args[2:]
    dev, files = args[0], args[1:]
    rows = [r for f in files for r in json.load(open(f))]
    print(f"| model | layout | batch | meas. step ms | GPU kernel sum ms | pred. step ms | pred/kernel sum | "
          f"pred/step | meas. infer ms | pred. infer ms | pred/infer |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    rk, rs, ri = [], [], []
    for r in rows:
        p = onnx_of(r["model"])
        if not p:
            continue
        pt = predict(p, dev, r["batch"], r["layout"], "train")
        pi = predict(p, dev, r["batch"], r["layout"], "infer")
        ks = r["profiled_kernel_us"] / 1e3
        if pt:
            rk.append(pt / ks); rs.append(pt / r["train_ms"])
        if pi:
            ri.append(pi / r["infer_ms"])
        f = lambda v: f"{v:.2f}" if v else "n/a"
        print(f"| {r['model']} | {r['layout']} | {r['batch']} | {r['train_ms']:.2f} | {ks:.2f} | {f(pt)} | "
              f"{f(pt and pt / ks)} | {f(pt and pt / r['train_ms'])} | {r['infer_ms']:.2f} | {f(pi)} | "
              f"{f(pi and pi / r['infer_ms'])} |")
    med = lambda v: sorted(v)[len(v) // 2] if v else float("nan")
    print(f"\nmedian pred/kernel-sum {med(rk):.2f}, pred/step {med(rs):.2f}, pred/infer {med(ri):.2f} "
          f"over {len(rk)} training and {len(ri)} inference rows")


if __name__ == "__main__":
    main()
