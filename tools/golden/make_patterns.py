#!/usr/bin/python3
"""Tiny real exports, one per lowering pattern (docs/predict.md, "Lowering"),
with the aten ops torch.profiler sees when the same module runs eagerly.

Run with Debian's python3 (python3-torch, python3-onnx):
    /usr/bin/python3 tools/golden/make_patterns.py
Writes tests/golden/patterns/<name>.onnx (weights inline; each a few KB) and
tests/golden/patterns/patterns.json: for every pattern, the top-level aten
ops of one eager forward (ops with no aten:: ancestor in the profiler's
tree) and the torch version.  tests/test_lower.c lowers each file and checks
its kernel list against those ops: the golden side is PyTorch, never dlperf.
"""
import json
import os
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "golden", "patterns")


class RMSNorm(nn.Module):
    """Hugging Face's LlamaRMSNorm, as written there."""

    def __init__(self, d, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(d))
        self.eps = eps

    def forward(self, x):
        v = x.pow(2).mean(-1, keepdim=True)
        return self.weight * (x * torch.rsqrt(v + self.eps))


class Attention(nn.Module):
    """Attention written out (timm's pre-SDPA path): q k^T * scale, softmax, @ v."""

    def forward(self, q, k, v):
        a = (q @ k.transpose(-2, -1)) * 0.125
        return a.softmax(dim=-1) @ v


class Linear3D(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(64, 32)

    def forward(self, x):
        return self.fc(x)


PATTERNS = {
    "layernorm": (nn.LayerNorm(64), [(2, 10, 64)]),
    "rmsnorm": (RMSNorm(64), [(2, 10, 64)]),
    "gelu_erf": (nn.GELU(), [(2, 10, 64)]),
    "gelu_tanh": (nn.GELU(approximate="tanh"), [(2, 10, 64)]),
    "silu": (nn.SiLU(), [(2, 16, 8, 8)]),
    "hardswish": (nn.Hardswish(), [(2, 16, 8, 8)]),
    "mish": (nn.Mish(), [(2, 16, 8, 8)]),
    "attention": (Attention(), [(2, 4, 16, 8), (2, 4, 16, 8), (2, 4, 16, 8)]),
    "linear3d": (Linear3D(), [(2, 10, 64)]),
}


def top_level_ops(model, args):
    """Top-level aten ops (no aten:: ancestor) of one eager forward, counted.
    The nesting comes from the profiler's nanosecond event tree, as in
    make_kernels.py (FunctionEvent.cpu_parent is rebuilt from microsecond
    times and loses children that end in the same microsecond)."""
    with torch.no_grad():
        model(*args)
        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU]) as prof:
            model(*args)
    counts = {}

    def rec(e):
        if e.name.startswith("aten::"):
            counts[e.name] = counts.get(e.name, 0) + 1
            return
        for c in e.children:
            rec(c)
    for r in prof.profiler.kineto_results.experimental_event_tree():
        rec(r)
    return counts


def main():
    os.makedirs(OUT, exist_ok=True)
    torch.manual_seed(0)
    golden = {"torch_version": torch.__version__, "opset": 13, "patterns": {}}
    for name, (model, shapes) in PATTERNS.items():
        model.eval()
        args = tuple(torch.randn(*s) for s in shapes)
        path = os.path.join(OUT, name + ".onnx")
        names = ["x%d" % i for i in range(len(args))]
        torch.onnx.export(model, args, path, opset_version=13, input_names=names, output_names=["y"],
                          do_constant_folding=True)
        golden["patterns"][name] = {"inputs": [list(s) for s in shapes], "top_level": top_level_ops(model, args)}
    with open(os.path.join(OUT, "patterns.json"), "w") as f:
        json.dump(golden, f, indent=1, sort_keys=True)
        f.write("\n")
    print("wrote %d patterns to %s (torch %s)" % (len(PATTERNS), OUT, torch.__version__), file=sys.stderr)


if __name__ == "__main__":
    main()
