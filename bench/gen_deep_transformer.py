#!/usr/bin/env python3
"""Writes a weight-free ONNX graph of a deep BERT-base-like encoder exported
decomposed (LayerNorm and GELU as primitive ops, attention as MatMul/Softmax),
about 50 nodes a layer: `gen_deep_transformer.py OUT.onnx [LAYERS]` (default
100 layers = ~5,000 nodes).  Weights are external-data initializers whose data
file does not exist (as in data/models/torchvision/): shapes, no bytes.
Used by bench/bench_predict.sh as a second 5k-node graph, mostly compute nodes
(swin_t's 6,647 nodes are half Constant/Shape/Gather bookkeeping)."""
import math
import sys
import onnx
from onnx import helper, TensorProto

out = sys.argv[1]
layers = int(sys.argv[2]) if len(sys.argv) > 2 else 100
D, H, F, S = 768, 12, 3072, 128
nodes, inits = [], []
n = [0]


def name(p):
    n[0] += 1
    return f"{p}_{n[0]}"


def weight(dims):
    t = TensorProto()
    t.name = name("w")
    t.data_type = TensorProto.FLOAT
    t.dims.extend(dims)
    t.data_location = TensorProto.EXTERNAL
    for k, v in (("location", "deep_transformer.onnx.data"), ("offset", "0"),
                 ("length", str(4 * math.prod(dims)))):
        e = t.external_data.add()
        e.key, e.value = k, v
    inits.append(t)
    return t.name


def const_i64(vals):
    t = helper.make_tensor(name("c"), TensorProto.INT64, [len(vals)], vals)
    inits.append(t)
    return t.name


def const_f(v):
    t = helper.make_tensor(name("c"), TensorProto.FLOAT, [], [v])
    inits.append(t)
    return t.name


def op(t, ins, **attrs):
    o = name(t.lower())
    nodes.append(helper.make_node(t, ins, [o], name=name("n_" + t), **attrs))
    return o


def layernorm(x):
    m = op("ReduceMean", [x], axes=[-1], keepdims=1)
    d = op("Sub", [x, m])
    v = op("ReduceMean", [op("Pow", [d, const_f(2.0)])], axes=[-1], keepdims=1)
    s = op("Sqrt", [op("Add", [v, const_f(1e-12)])])
    return op("Add", [op("Mul", [op("Div", [d, s]), weight([D])]), weight([D])])


def linear(x, k, m):
    return op("Add", [op("MatMul", [x, weight([k, m])]), weight([m])])


def heads(x):  # [B,S,D] -> [B,H,S,D/H]
    return op("Transpose", [op("Reshape", [x, const_i64([0, 0, H, D // H])])], perm=[0, 2, 1, 3])


x = "input"
for _ in range(layers):
    q, k, v = (heads(linear(x, D, D)) for _ in range(3))
    kt = op("Transpose", [k], perm=[0, 1, 3, 2])
    p = op("Softmax", [op("Div", [op("MatMul", [q, kt]), const_f(8.0)])], axis=-1)
    a = op("Transpose", [op("MatMul", [p, v])], perm=[0, 2, 1, 3])
    a = linear(op("Reshape", [a, const_i64([0, 0, D])]), D, D)
    x = layernorm(op("Add", [x, a]))
    h = linear(x, D, F)
    g = op("Mul", [op("Mul", [h, op("Add", [op("Erf", [op("Div", [h, const_f(1.4142135)])]), const_f(1.0)])]),
                   const_f(0.5)])
    x = layernorm(op("Add", [x, linear(g, F, D)]))
nodes.append(helper.make_node("Identity", [x], ["output"], name="out"))
g = helper.make_graph(nodes, "deep_transformer",
                      [helper.make_tensor_value_info("input", TensorProto.FLOAT, ["batch", S, D])],
                      [helper.make_tensor_value_info("output", TensorProto.FLOAT, ["batch", S, D])], inits)
onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), out)
print(f"{out}: {len(nodes)} nodes, {layers} layers")
