#!/usr/bin/python3
"""Golden MACs/params of NAS-Bench-201 networks, independent of dlperf.

Run with Debian's python (torch 1.13, onnx 1.12):

    /usr/bin/python3 tools/golden/nb201_golden.py [--out tests/golden/nb201.json]

Builds the NAS-Bench-201 CIFAR TinyNetwork (C=16, N=5, 10 classes) in
PyTorch, following the structure of the benchmark's reference code
(models/cell_infers/tiny_network.py, cells.py, cell_operations.py; no
NAS-Bench package is installed here, so the module below is our own).
For each arch it records

  macs    Conv2d/Linear MACs at batch 1 from forward hooks:
          Conv2d: output numel x Cin/groups x kh x kw;  Linear: rows x in x out
  params  sum(p.numel() for p in model.parameters())  (BN weight+bias count,
          BN running mean/var are buffers and do not)

  prunes  whether some conv/pool edge reads a zero node (a node whose every
          incoming edge is none or itself comes from a zero node): there the
          reference module computes the op (on zeros) and dlperf's "effective"
          graph drops it, so only the "executed" graph must match macs
          (src/builders/nb201.c)

and cross-checks macs against the exported ONNX (torch.onnx.export, eval
mode, opset 13, constant folding: BN folds into the convs) with MACs counted
from onnx shape inference.
"""
import argparse
import io
import json
import sys

import onnx
import torch
import torch.nn as nn
from onnx import numpy_helper, shape_inference

ARCHS = [
    # every edge a 3x3 conv: the largest network of the space
    "|nor_conv_3x3~0|+|nor_conv_3x3~0|nor_conv_3x3~1|+|nor_conv_3x3~0|nor_conv_3x3~1|nor_conv_3x3~2|",
    # the best CIFAR-10 arch of the benchmark
    "|nor_conv_3x3~0|+|nor_conv_3x3~0|nor_conv_3x3~1|+|skip_connect~0|nor_conv_3x3~1|nor_conv_3x3~2|",
    # HELP rows 0 and 1
    "|avg_pool_3x3~0|+|nor_conv_1x1~0|skip_connect~1|+|nor_conv_1x1~0|skip_connect~1|skip_connect~2|",
    "|nor_conv_3x3~0|+|nor_conv_3x3~0|avg_pool_3x3~1|+|skip_connect~0|nor_conv_3x3~1|skip_connect~2|",
    # none edges, but no zero node
    "|nor_conv_1x1~0|+|none~0|avg_pool_3x3~1|+|nor_conv_3x3~0|none~1|nor_conv_1x1~2|",
    # convs reading zero nodes: computed by the reference, pruned by "effective"
    "|none~0|+|none~0|none~1|+|none~0|none~1|nor_conv_3x3~2|",
    "|nor_conv_1x1~0|+|none~0|none~1|+|avg_pool_3x3~0|nor_conv_3x3~1|nor_conv_3x3~2|",
]


class Zero(nn.Module):
    def forward(self, x):
        return x.mul(0.0)


def relu_conv_bn(cin, cout, k, stride, pad):
    return nn.Sequential(nn.ReLU(inplace=False),
                         nn.Conv2d(cin, cout, k, stride=stride, padding=pad, bias=False),
                         nn.BatchNorm2d(cout))


def make_op(name, c):
    if name == "none":
        return Zero()
    if name == "skip_connect":
        return nn.Identity()
    if name == "nor_conv_1x1":
        return relu_conv_bn(c, c, 1, 1, 0)
    if name == "nor_conv_3x3":
        return relu_conv_bn(c, c, 3, 1, 1)
    if name == "avg_pool_3x3":
        return nn.AvgPool2d(3, stride=1, padding=1, count_include_pad=False)
    raise ValueError(name)


def parse(arch):
    """'|a~0|+|b~0|c~1|+...' -> [[(op, in), ...] per node 1..3]"""
    nodes = []
    for part in arch.split("+"):
        edges = [t.split("~") for t in part.strip("|").split("|")]
        nodes.append([(op, int(i)) for op, i in edges])
    return nodes


class InferCell(nn.Module):
    def __init__(self, genotype, c):
        super().__init__()
        self.layers = nn.ModuleList()
        self.inputs = []
        for node in genotype:
            self.inputs.append([i for _, i in node])
            self.layers.append(nn.ModuleList(make_op(op, c) for op, _ in node))

    def forward(self, x):
        nodes = [x]
        for ops, ins in zip(self.layers, self.inputs):
            nodes.append(sum(op(nodes[i]) for op, i in zip(ops, ins)))
        return nodes[-1]


class ResNetBasicblock(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.conv_a = relu_conv_bn(cin, cout, 3, 2, 1)
        self.conv_b = relu_conv_bn(cout, cout, 3, 1, 1)
        self.downsample = nn.Sequential(nn.AvgPool2d(kernel_size=2, stride=2, padding=0),
                                        nn.Conv2d(cin, cout, 1, stride=1, padding=0, bias=False))

    def forward(self, x):
        return self.downsample(x) + self.conv_b(self.conv_a(x))


class TinyNetwork(nn.Module):
    def __init__(self, arch, C=16, N=5, num_classes=10):
        super().__init__()
        g = parse(arch)
        self.stem = nn.Sequential(nn.Conv2d(3, C, 3, padding=1, bias=False), nn.BatchNorm2d(C))
        chans = [C] * N + [2 * C] + [2 * C] * N + [4 * C] + [4 * C] * N
        reds = [False] * N + [True] + [False] * N + [True] + [False] * N
        self.cells = nn.ModuleList()
        prev = C
        for c, red in zip(chans, reds):
            self.cells.append(ResNetBasicblock(prev, c) if red else InferCell(g, c))
            prev = c
        self.lastact = nn.Sequential(nn.BatchNorm2d(prev), nn.ReLU(inplace=True))
        self.global_pooling = nn.AdaptiveAvgPool2d(1)
        self.classifier = nn.Linear(prev, num_classes)

    def forward(self, x):
        x = self.stem(x)
        for cell in self.cells:
            x = cell(x)
        x = self.global_pooling(self.lastact(x))
        return self.classifier(x.view(x.size(0), -1))


def prunes(arch):
    """True when a non-none edge reads a zero node."""
    zero = [False]
    hit = False
    for node in parse(arch):
        live = [op for op, i in node if op != "none" and not zero[i]]
        hit |= any(op != "none" and zero[i] for op, i in node)
        zero.append(not live)
    return hit


def hook_macs(model, x):
    total = [0]

    def conv_hook(m, inp, out):
        kh, kw = m.kernel_size
        total[0] += out.numel() * (m.in_channels // m.groups) * kh * kw

    def linear_hook(m, inp, out):
        total[0] += (out.numel() // m.out_features) * m.in_features * m.out_features

    hs = []
    for m in model.modules():
        if isinstance(m, nn.Conv2d):
            hs.append(m.register_forward_hook(conv_hook))
        elif isinstance(m, nn.Linear):
            hs.append(m.register_forward_hook(linear_hook))
    with torch.no_grad():
        model(x)
    for h in hs:
        h.remove()
    return total[0]


def onnx_macs(model, x):
    """Conv/Gemm MACs of the exported graph, from onnx's own shape inference."""
    buf = io.BytesIO()
    torch.onnx.export(model, x, buf, opset_version=13, do_constant_folding=True,
                      input_names=["input"], output_names=["logits"],
                      training=torch.onnx.TrainingMode.EVAL)
    m = shape_inference.infer_shapes(onnx.load_from_string(buf.getvalue()))
    g = m.graph
    shapes = {}
    for vi in list(g.value_info) + list(g.input) + list(g.output):
        shapes[vi.name] = [d.dim_value for d in vi.type.tensor_type.shape.dim]
    for t in g.initializer:
        shapes[t.name] = list(t.dims)
    macs = 0
    for n in g.node:
        if n.op_type == "Conv":
            w = shapes[n.input[1]]
            out = shapes[n.output[0]]
            numel = 1
            for d in out:
                numel *= d
            macs += numel * w[1] * w[2] * w[3]   # W is (Cout, Cin/groups, kh, kw)
        elif n.op_type == "Gemm":
            a = shapes[n.input[0]]
            b = shapes[n.input[1]]
            tb = any(at.name == "transB" and at.i for at in n.attribute)
            nout = b[0] if tb else b[1]
            macs += a[0] * a[1] * nout
    return macs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default="tests/golden/nb201.json")
    args = ap.parse_args()
    torch.manual_seed(0)
    res = {}
    for arch in ARCHS:
        model = TinyNetwork(arch).eval()
        x = torch.randn(1, 3, 32, 32)
        macs = hook_macs(model, x)
        om = onnx_macs(model, x)
        if om != macs:
            sys.exit("%s: hook MACs %d != ONNX MACs %d" % (arch, macs, om))
        params = sum(p.numel() for p in model.parameters())
        res[arch] = {"macs": macs, "params": params, "prunes": prunes(arch)}
        print("%-100s macs %11d params %9d" % (arch, macs, params), file=sys.stderr)
    with open(args.out, "w") as f:
        json.dump(res, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
