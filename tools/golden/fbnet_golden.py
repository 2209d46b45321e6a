#!/usr/bin/python3
"""Golden MACs/params of HW-NAS-Bench FBNet (CIFAR-100) networks, independent of dlperf.

Run with Debian's python (torch 1.13, onnx 1.12):

    /usr/bin/python3 tools/golden/fbnet_golden.py [--out tests/golden/fbnet.json]

Our own PyTorch module following the structure of HW-NAS-Bench's FBNet_Infer
(hw_nas_bench_api/fbnet_models/model_infer.py) with its CIFAR settings
(strides [1,1,2,2,1,2,1], stem stride 1, header 1504 channels) and 100
classes, input 1x3x32x32 (HELP's data/fbnet/metainfo.pt: dataset cifar100).
Records, per arch (the 22 op indices joined by '-', as HELP's CSV):

  macs    Conv2d/Linear MACs from forward hooks (output numel x Cin/groups x kh x kw;
          rows x in x out), cross-checked against the exported ONNX graph
  params  sum(p.numel() for p in model.parameters())
"""
import argparse
import io
import json
import math
import sys

import onnx
import torch
import torch.nn as nn
from onnx import shape_inference

sys.dont_write_bytecode = True  # keep tools/golden free of __pycache__
sys.path.insert(0, __file__.rsplit("/", 1)[0])
from nb201_golden import hook_macs, onnx_macs  # noqa: E402

PRIMITIVES = ["k3_e1", "k3_e1_g2", "k3_e3", "k3_e6", "k5_e1", "k5_e1_g2", "k5_e3", "k5_e6", "skip"]
ARCHS = [
    [8] * 22,                      # every layer skip
    [0] * 22,                      # every layer k3_e1
    [7, 8, 1, 8, 4, 8, 8, 8, 7, 4, 1, 4, 7, 3, 2, 7, 3, 2, 4, 2, 4, 5],  # HELP row 0
    [5, 3, 5, 5, 0, 4, 7, 5, 5, 2, 0, 2, 4, 5, 1, 3, 7, 2, 6, 0, 4, 0],  # HELP row 1
]


class Shuffle(nn.Module):
    def __init__(self, g):
        super().__init__()
        self.g = g

    def forward(self, x):
        n, c, h, w = x.size()
        return x.view(n, self.g, c // self.g, h, w).permute(0, 2, 1, 3, 4).contiguous().view(n, c, h, w)


class ConvBlock(nn.Module):
    """1x1 (group g) - [shuffle] - kxk depthwise stride s - 1x1 (group g), residual if same shape."""
    def __init__(self, cin, cout, e, k, s, g):
        super().__init__()
        mid = cin * e
        pad = int(math.ceil((k - s) / 2.0))
        self.res = cin == cout and s == 1
        layers = [nn.Conv2d(cin, mid, 1, groups=g, bias=False), nn.BatchNorm2d(mid), nn.ReLU()]
        if g > 1:
            layers.append(Shuffle(g))
        layers += [nn.Conv2d(mid, mid, k, stride=s, padding=pad, groups=mid, bias=False),
                   nn.BatchNorm2d(mid), nn.ReLU(),
                   nn.Conv2d(mid, cout, 1, groups=g, bias=False), nn.BatchNorm2d(cout)]
        self.body = nn.Sequential(*layers)

    def forward(self, x):
        y = self.body(x)
        return y + x if self.res else y


def make_op(op, cin, cout, s):
    name = PRIMITIVES[op]
    if name == "skip":
        if s == 1 and cin == cout:
            return nn.Identity()
        return nn.Sequential(nn.Conv2d(cin, cout, 1, stride=s, bias=False), nn.BatchNorm2d(cout), nn.ReLU())
    k = int(name[1])
    e = int(name.split("_")[1][1:])
    g = 2 if name.endswith("_g2") else 1
    return ConvBlock(cin, cout, e, k, s, g)


class FBNet(nn.Module):
    def __init__(self, ops, num_classes=100):
        super().__init__()
        layers = [1, 4, 4, 4, 4, 4, 1]
        chans = [16, 24, 32, 64, 112, 184, 352]
        strides = [1, 1, 2, 2, 1, 2, 1]
        self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, stride=1, padding=1, bias=False), nn.BatchNorm2d(16), nn.ReLU())
        cells, cin, l = [], 16, 0
        for n, c, s in zip(layers, chans, strides):
            for i in range(n):
                cells.append(make_op(ops[l], cin, c, s if i == 0 else 1))
                cin, l = c, l + 1
        self.cells = nn.Sequential(*cells)
        self.header = nn.Sequential(nn.Conv2d(352, 1504, 1, bias=False), nn.BatchNorm2d(1504), nn.ReLU())
        self.avgpool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(1504, num_classes)

    def forward(self, x):
        x = self.avgpool(self.header(self.cells(self.stem(x))))
        return self.fc(x.view(x.size(0), -1))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default="tests/golden/fbnet.json")
    args = ap.parse_args()
    torch.manual_seed(0)
    res = {}
    for ops in ARCHS:
        model = FBNet(ops).eval()
        x = torch.randn(1, 3, 32, 32)
        macs = hook_macs(model, x)
        om = onnx_macs(model, x)
        if om != macs:
            sys.exit("%s: hook MACs %d != ONNX MACs %d" % (ops, macs, om))
        key = "-".join(str(o) for o in ops)
        res[key] = {"macs": macs, "params": sum(p.numel() for p in model.parameters())}
        print("%-60s macs %11d params %9d" % (key, macs, res[key]["params"]), file=sys.stderr)
    with open(args.out, "w") as f:
        json.dump(res, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
