"""bench_python_batch.py — the Python batch API for NAS loops (issue 15):
graphs/s of dlperf.GraphModel.predict on NAS-Bench-201 networks (exported
from torch in memory, random cells), next to one `dlperf predict-graph`
process per graph, as a ratio.  Goal: >= 5,000 graphs/s in process.
Run by bench/bench_python_batch.sh; never fails (prints why instead)."""
import os
import random
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.join(ROOT, "python"))
import dlperf  # noqa: E402
import torch  # noqa: E402
from torch import nn  # noqa: E402

OPS = ["none", "skip_connect", "nor_conv_1x1", "nor_conv_3x3", "avg_pool_3x3"]


def op(name, c):
    if name == "nor_conv_1x1":
        return nn.Sequential(nn.ReLU(), nn.Conv2d(c, c, 1, bias=False), nn.BatchNorm2d(c))
    if name == "nor_conv_3x3":
        return nn.Sequential(nn.ReLU(), nn.Conv2d(c, c, 3, padding=1, bias=False), nn.BatchNorm2d(c))
    if name == "avg_pool_3x3":
        return nn.AvgPool2d(3, 1, 1, count_include_pad=False)
    return nn.Identity()


class Cell(nn.Module):  # 4 nodes, edge (j -> i) for j < i
    def __init__(self, arch, c):
        super().__init__()
        self.arch = arch
        self.ops = nn.ModuleDict({"%d_%d" % (i, j): op(arch[i][j], c)
                                  for i in range(1, 4) for j in range(i) if arch[i][j] != "none"})

    def forward(self, x):
        nodes = [x]
        for i in range(1, 4):
            terms = [self.ops["%d_%d" % (i, j)](nodes[j]) for j in range(i) if self.arch[i][j] != "none"]
            s = terms[0] if terms else nodes[0] * 0
            for t in terms[1:]:
                s = s + t
            nodes.append(s)
        return nodes[3]


class Reduce(nn.Module):  # NB201's ResNet basic block, stride 2
    def __init__(self, ci, co):
        super().__init__()
        self.a = nn.Sequential(nn.ReLU(), nn.Conv2d(ci, co, 3, 2, 1, bias=False), nn.BatchNorm2d(co),
                               nn.ReLU(), nn.Conv2d(co, co, 3, 1, 1, bias=False), nn.BatchNorm2d(co))
        self.b = nn.Sequential(nn.AvgPool2d(2, 2), nn.Conv2d(ci, co, 1, bias=False))

    def forward(self, x):
        return self.a(x) + self.b(x)


def network(arch, n=5, c=16, classes=10):
    layers = [nn.Conv2d(3, c, 3, padding=1, bias=False), nn.BatchNorm2d(c)]
    for stage in range(3):
        if stage:
            layers.append(Reduce(c, 2 * c))
            c *= 2
        layers += [Cell(arch, c) for _ in range(n)]
    layers += [nn.BatchNorm2d(c), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(c, classes)]
    return nn.Sequential(*layers)


def main():
    distinct = int(sys.argv[1]) if len(sys.argv) > 1 else 16
    total = int(sys.argv[2]) if len(sys.argv) > 2 else 5000
    cli = os.path.join(ROOT, os.environ.get("BUILD", "build"), "dlperf")
    # a GNN model: DLPERF_BENCH_MODEL (e.g. a small `dlperf train --arch sage`
    # model), else the shipped TraPPM model that is always there
    learned = os.environ.get("DLPERF_BENCH_MODEL") or os.path.join(
        ROOT, "data", "models", "learned", "cpu-amd-epyc-2c--infer--latency_ms.dlpm")
    rng = random.Random(1)
    blobs = []
    for _ in range(distinct):
        arch = {i: [rng.choice(OPS[1:] if j == 0 else OPS) for j in range(i)] for i in range(1, 4)}
        m = network(arch).eval()
        blobs.append(dlperf._onnx_of(m, torch.randn(1, 3, 32, 32))[0])
    models = [blobs[i % distinct] for i in range(total)]
    n_nodes = [dlperf.inspect(b, batch=1)["nodes"] for b in blobs]
    gm = dlperf.GraphModel.load(learned)
    gm.predict(models[:64], batch=1)   # warm: BLAS loaded, pages touched
    t = time.perf_counter()
    out = gm.predict(models, batch=1)
    dt = time.perf_counter() - t
    assert len(out) == total
    rate = total / dt
    with tempfile.TemporaryDirectory() as d:
        paths = []
        for i, b in enumerate(blobs):
            p = os.path.join(d, "nb%d.onnx" % i)
            with open(p, "wb") as f:
                f.write(b)
            paths.append(p)
        t = time.perf_counter()
        for p in paths:
            subprocess.run([cli, "predict-graph", "--model", learned, p, "--batch", "1", "--json"], check=True,
                           capture_output=True)
        cli_rate = len(paths) / (time.perf_counter() - t)
    print("NB201 networks (torch export, %d distinct, %d-%d nodes), model %s" %
          (distinct, min(n_nodes), max(n_nodes), os.path.basename(learned)))
    print("  GraphModel.predict, %d graphs in one call: %.0f graphs/s (%.1f us each)  goal >= 5000: %s" %
          (total, rate, 1e6 / rate, "met" if rate >= 5000 else "NOT met"))
    print("  one `dlperf predict-graph` per graph:     %.0f graphs/s" % cli_rate)
    print("  ratio in-process / per-process:          %.0fx" % (rate / cli_rate))


if __name__ == "__main__":
    main()
