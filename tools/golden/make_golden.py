#!/usr/bin/python3
"""Independent golden values for dlperf's torchvision ONNX corpus.

Run with Debian's python (onnx 1.12, torch 1.13, torchvision 0.14):

    /usr/bin/python3 tools/golden/make_golden.py            # all models
    /usr/bin/python3 tools/golden/make_golden.py --models resnet18,swin_t --out /tmp/x.json

Nothing here uses dlperf code.  Every number comes from onnx / torch /
torchvision; see tools/golden/README.md for the meaning of each field.
"""
import argparse
import collections
import copy
import io
import json
import math
import os
import sys
import time
import warnings

import onnx
from onnx import TensorProto, shape_inference

FLOAT_TYPES = {TensorProto.FLOAT, TensorProto.FLOAT16, TensorProto.DOUBLE,
               TensorProto.BFLOAT16}
MAC_OPS = ("Conv", "ConvTranspose", "Gemm", "MatMul", "Einsum")
BATCHES_MACS = (1, 8, 64)
BATCHES_SHAPES = (1, 8)
SEED = 0


def log(*a):
    print(*a, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------
# ONNX helpers
# --------------------------------------------------------------------------

def subgraphs(node):
    for a in node.attribute:
        if a.type == onnx.AttributeProto.GRAPH:
            yield a.g
        elif a.type == onnx.AttributeProto.GRAPHS:
            for g in a.graphs:
                yield g


def used_names(graph, acc=None):
    """Every name consumed as a node input, recursing into subgraphs."""
    if acc is None:
        acc = set()
    for n in graph.node:
        acc.update(i for i in n.input if i)
        for g in subgraphs(n):
            used_names(g, acc)
    return acc


def numel(dims):
    return math.prod(int(d) for d in dims)


def static_dims(vi):
    """Tuple of ints if vi is a tensor with a fully static shape, else None."""
    t = vi.type
    if not t.HasField("tensor_type"):
        return None
    tt = t.tensor_type
    if not tt.HasField("shape"):
        return None
    out = []
    for d in tt.shape.dim:
        if not d.HasField("dim_value"):
            return None
        out.append(int(d.dim_value))
    return out


def shape_table(m):
    """name -> static dims (or None) over inputs, value_info, outputs, inits."""
    tab = {}
    for i in m.graph.initializer:
        tab[i.name] = [int(d) for d in i.dims]
    for v in list(m.graph.input) + list(m.graph.value_info) + list(m.graph.output):
        tab.setdefault(v.name, static_dims(v))
        if tab[v.name] is None:
            tab[v.name] = static_dims(v)
    return tab


def node_outputs(m):
    return [o for n in m.graph.node for o in n.output if o]


def known_fraction(inferred, skip_constant=False):
    tab = {v.name: static_dims(v)
           for v in list(inferred.graph.value_info) + list(inferred.graph.output)}
    outs = [o for n in inferred.graph.node
            if not (skip_constant and n.op_type == "Constant")
            for o in n.output if o]
    if not outs:
        return 1.0, 0, 0
    k = sum(1 for o in outs if tab.get(o) is not None)
    return round(k / len(outs), 6), k, len(outs)


def fix_batch(m, batch):
    """Copy of m with every dim_param of graph inputs/outputs set to batch."""
    m2 = copy.deepcopy(m)
    for v in list(m2.graph.input) + list(m2.graph.output):
        if v.type.HasField("tensor_type") and v.type.tensor_type.HasField("shape"):
            for d in v.type.tensor_type.shape.dim:
                if d.HasField("dim_param"):
                    d.dim_value = batch   # setting dim_value clears the oneof
    return m2


def infer(m):
    return shape_inference.infer_shapes(m, check_type=False, strict_mode=False,
                                        data_prop=True)


class MacsUnknown(Exception):
    pass


def einsum_macs(eq, shapes):
    eq = eq.replace(" ", "")
    lhs = eq.split("->")[0]
    terms = lhs.split(",")
    if len(terms) != len(shapes):
        raise MacsUnknown("einsum arity")
    sizes = {}
    ell = []
    for term, shp in zip(terms, shapes):
        if "..." in term:
            a, b = term.split("...")
            ne = len(shp) - len(a) - len(b)
            labels = list(a) + [None] * ne + list(b)
            e = shp[len(a):len(a) + ne]
            # broadcast ellipsis dims right-aligned
            if len(e) > len(ell):
                ell = [1] * (len(e) - len(ell)) + ell
            for i in range(len(e)):
                j = len(ell) - len(e) + i
                ell[j] = max(ell[j], e[i])
        else:
            labels = list(term)
        if len(labels) != len(shp):
            raise MacsUnknown("einsum rank mismatch")
        for l, s in zip(labels, shp):
            if l is not None:
                sizes[l] = max(sizes.get(l, 1), s)
    return math.prod(sizes.values()) * math.prod(ell)


def onnx_macs(inferred):
    """MACs per op type from a shape-inferred ONNX model.

    Raises MacsUnknown if any needed shape is not fully static."""
    tab = shape_table(inferred)
    per = collections.Counter()
    missing = []

    def need(name, node):
        s = tab.get(name)
        if s is None:
            missing.append("%s(%s) %s" % (node.op_type, node.name, name))
        return s

    for n in inferred.graph.node:
        op = n.op_type
        if op not in MAC_OPS:
            continue
        attrs = {a.name: onnx.helper.get_attribute_value(a) for a in n.attribute}
        if op == "Conv":
            y, w = need(n.output[0], n), need(n.input[1], n)
            if y is None or w is None:
                continue
            per[op] += numel(y) * numel(w[1:])
        elif op == "ConvTranspose":
            x, w = need(n.input[0], n), need(n.input[1], n)
            if x is None or w is None:
                continue
            per[op] += numel(x) * numel(w[1:])
        elif op == "Gemm":
            a, b = need(n.input[0], n), need(n.input[1], n)
            if a is None or b is None:
                continue
            M, K = (a[1], a[0]) if attrs.get("transA", 0) else (a[0], a[1])
            K2, N = (b[1], b[0]) if attrs.get("transB", 0) else (b[0], b[1])
            assert K == K2, (n.name, a, b)
            per[op] += M * N * K
        elif op == "MatMul":
            a, y = need(n.input[0], n), need(n.output[0], n)
            if a is None or y is None:
                continue
            per[op] += numel(y) * a[-1]
        elif op == "Einsum":
            shps = [need(i, n) for i in n.input]
            if any(s is None for s in shps):
                continue
            eq = attrs["equation"]
            per[op] += einsum_macs(eq.decode() if isinstance(eq, bytes) else eq, shps)
    if missing:
        raise MacsUnknown("%d unknown shapes, first: %s" % (len(missing), missing[:3]))
    out = {k: int(v) for k, v in per.items()}
    out["total"] = int(sum(per.values()))
    return out


# --------------------------------------------------------------------------
# torch side
# --------------------------------------------------------------------------

def torch_setup():
    import torch
    torch.set_num_threads(2)
    warnings.filterwarnings("ignore")
    return torch


def build_model(torch, name):
    import torchvision
    torch.manual_seed(SEED)
    model = getattr(torchvision.models, name)(weights=None)
    model.eval()
    return model


def has_mha(torch, model):
    return any(isinstance(m, torch.nn.MultiheadAttention) for m in model.modules())


def export_static(torch, name, batch, hw, opsets=(13, 14, 15, 16, 17)):
    """Static-batch export; returns (ModelProto with float weights stripped, opset)."""
    model = build_model(torch, name)
    torch.manual_seed(SEED)
    x = torch.randn(batch, 3, hw[0], hw[1])
    # nn.MultiheadAttention takes the fused "fast path"
    # (aten::_native_multi_head_attention, not exportable) when grad is
    # disabled, so models containing it are traced with grad enabled (the
    # torch.onnx.export default, as the shared corpus was produced); the
    # others are traced under no_grad (same graph, less memory).
    ctx = torch.enable_grad() if has_mha(torch, model) else torch.no_grad()
    last = None
    for opset in opsets:
        f = io.BytesIO()
        try:
            with ctx:
                torch.onnx.export(model, x, f, opset_version=opset,
                                  do_constant_folding=True,
                                  input_names=["input"], output_names=["output"])
        except Exception as e:   # noqa: BLE001
            log("  export %s opset %d failed: %s" % (name, opset, str(e)[:200]))
            last = e
            continue
        m = onnx.load_from_string(f.getvalue())
        del f
        for t in m.graph.initializer:        # weights are irrelevant here
            if t.data_type in FLOAT_TYPES and numel(t.dims) > 64:
                t.ClearField("raw_data")
                t.ClearField("float_data")
                t.ClearField("double_data")
                t.ClearField("int32_data")
        return m, opset
    raise RuntimeError("export of %s failed at all opsets: %s" % (name, last))


def classify_fn_macs(torch, name, args, kwargs, out):
    """(onnx_op, macs) for a torch-function-level call, mirroring how the
    opset-13 exporter maps it (linear: Gemm if input is 2-D with bias, else
    MatMul; mm/addmm: Gemm; matmul/bmm/baddbmm/mv/dot: MatMul)."""
    def arg(i, key):
        if len(args) > i:
            return args[i]
        return kwargs.get(key)
    if name in ("conv1d", "conv2d", "conv3d"):
        w = arg(1, "weight")
        return "Conv", out.numel() * numel(w.shape[1:])
    if name in ("conv_transpose1d", "conv_transpose2d", "conv_transpose3d"):
        x, w = arg(0, "input"), arg(1, "weight")
        return "ConvTranspose", x.numel() * numel(w.shape[1:])
    if name == "linear":
        x, w, b = arg(0, "input"), arg(1, "weight"), arg(2, "bias")
        op = "Gemm" if (x.dim() == 2 and b is not None) else "MatMul"
        return op, out.numel() * w.shape[-1]
    if name in ("mm", "addmm"):
        a = arg(0, "input") if name == "mm" else arg(1, "mat1")
        return "Gemm", out.numel() * a.shape[-1]
    if name in ("matmul", "__matmul__", "bmm", "mv", "dot"):
        a = arg(0, "input")
        return "MatMul", max(out.numel(), 1) * a.shape[-1]
    if name == "__rmatmul__":
        a = arg(1, "other")
        return "MatMul", max(out.numel(), 1) * a.shape[-1]
    if name == "baddbmm":
        a = arg(1, "batch1")
        return "MatMul", out.numel() * a.shape[-1]
    if name == "einsum":
        eq = arg(0, "equation")
        ops = list(args[1:])
        if len(ops) == 1 and isinstance(ops[0], (list, tuple)):
            ops = list(ops[0])
        return "Einsum", einsum_macs(eq, [list(t.shape) for t in ops])
    return None


SUSPICIOUS = ("conv", "mm", "matmul", "linear", "einsum", "bilinear", "tensordot",
              "attention", "dot", "mv")


def torch_count(torch, name, batch, hw):
    """Run one forward pass and count MACs two ways at once:
    * 'fn': a TorchFunctionMode classifying torch-function calls into ONNX
      op types (per-op breakdown);
    * 'aten': a TorchDispatchMode summing aten.convolution/mm/addmm/bmm/...
      (total only; exact for whatever kernels really ran)."""
    import torch.nn.functional as F
    from torch.overrides import TorchFunctionMode
    from torch.utils._python_dispatch import TorchDispatchMode
    aten = torch.ops.aten

    fn_counts = collections.Counter()
    fn_calls = collections.Counter()
    aten_counts = collections.Counter()
    unknown = set()

    class FnMode(TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            kwargs = kwargs or {}
            fname = getattr(func, "__name__", str(func))
            if func is F.multi_head_attention_forward:
                # Count inside: re-push this mode and let MHA's own
                # has_torch_function check pass through once.
                saved = F.has_torch_function
                F.has_torch_function = lambda *a, **k: False
                try:
                    with self:
                        return func(*args, **kwargs)
                finally:
                    F.has_torch_function = saved
            out = func(*args, **kwargs)
            r = classify_fn_macs(torch, fname, args, kwargs, out)
            if r is not None:
                fn_counts[r[0]] += int(r[1])
                fn_calls[r[0]] += 1
            elif any(s in fname.lower() for s in SUSPICIOUS) and fname not in (
                    "__get__", "dim", "size"):
                unknown.add(fname)
            return out

    def ashape(t):
        return list(t.shape)

    class AtenMode(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            kwargs = kwargs or {}
            out = func(*args, **kwargs)
            pkt = func.overloadpacket
            if pkt in (aten.convolution, aten._convolution):
                x, w, transposed = args[0], args[1], args[6]
                if transposed:
                    aten_counts["ConvTranspose"] += x.numel() * numel(w.shape[1:])
                else:
                    aten_counts["Conv"] += out.numel() * numel(w.shape[1:])
            elif pkt in (aten.mm, aten.bmm):
                aten_counts["mm"] += out.numel() * ashape(args[0])[-1]
            elif pkt in (aten.addmm, aten.baddbmm, aten.addbmm):
                aten_counts["mm"] += out.numel() * ashape(args[1])[-1] * (
                    ashape(args[1])[0] if pkt is aten.addbmm else 1)
            elif pkt in (aten.mv, aten.addmv, aten.dot):
                a = args[0] if pkt is not aten.addmv else args[1]
                aten_counts["mm"] += max(out.numel(), 1) * ashape(a)[-1]
            elif pkt is aten._native_multi_head_attention:
                raise RuntimeError("MHA fast path taken: cannot count")
            else:
                nm = str(pkt).lower()
                if any(s in nm for s in ("conv", "mm", "matmul", "attention", "linear")):
                    unknown.add("aten:" + str(pkt))
            return out

    model = build_model(torch, name)
    for p in model.parameters():
        p.requires_grad_(False)
    torch.manual_seed(SEED)
    x = torch.randn(batch, 3, hw[0], hw[1])
    with torch.no_grad(), AtenMode(), FnMode():
        model(x)
    if unknown:
        raise RuntimeError("unhandled matmul/conv-like functions: %s" % sorted(unknown))
    fn = {k: int(v) for k, v in fn_counts.items()}
    fn["total"] = int(sum(fn_counts.values()))
    at = {k: int(v) for k, v in aten_counts.items()}
    at["total"] = int(sum(aten_counts.values()))
    return fn, at, dict(fn_calls)


def fn_vs_aten(fn, at):
    """fn per-op totals must match the aten count: convs exactly, and all
    matrix products (Gemm+MatMul+Einsum) against aten mm/addmm/bmm/..."""
    ok = fn["total"] == at["total"]
    ok = ok and fn.get("Conv", 0) == at.get("Conv", 0)
    ok = ok and fn.get("ConvTranspose", 0) == at.get("ConvTranspose", 0)
    ok = ok and (fn.get("Gemm", 0) + fn.get("MatMul", 0) + fn.get("Einsum", 0)
                 == at.get("mm", 0))
    return ok


# --------------------------------------------------------------------------
# per model
# --------------------------------------------------------------------------

def shared_info(path):
    m = onnx.load(path, load_external_data=False)
    g = m.graph
    used = used_names(g)
    fl = [i for i in g.initializer if i.data_type in FLOAT_TYPES]
    info = {
        "params": int(sum(numel(i.dims) for i in fl if i.name in used)),
        "params_all_float_inits": int(sum(numel(i.dims) for i in fl)),
        "n_initializers": len(g.initializer),
        "n_float_initializers_used": sum(1 for i in fl if i.name in used),
        "nodes": len(g.node),
        "op_counts": dict(sorted(collections.Counter(n.op_type for n in g.node).items())),
        "opset": {(o.domain or "ai.onnx"): int(o.version) for o in m.opset_import},
        "float_elems_in_constant_nodes": int(sum(
            numel(a.t.dims) for n in g.node if n.op_type == "Constant"
            for a in n.attribute if a.name == "value" and a.t.data_type in FLOAT_TYPES)),
    }
    # symbolic batch, as stored
    inf = infer(m)
    info["shape_inference_known_fraction_symbolic"] = known_fraction(inf)[0]
    shapes, fracs, macs_shared, nc = {}, {}, {}, {}
    for b in BATCHES_SHAPES:
        inf = infer(fix_batch(m, b))
        fr, k, tot = known_fraction(inf)
        fracs[str(b)] = fr
        nc[str(b)] = known_fraction(inf, skip_constant=True)[0]
        smap = {}
        for v in list(inf.graph.value_info) + list(inf.graph.output):
            d = static_dims(v)
            if d is not None:
                smap[v.name] = d
        shapes[str(b)] = smap
        try:
            macs_shared[str(b)] = onnx_macs(inf)
        except MacsUnknown as e:
            macs_shared[str(b)] = None
            info["macs_shared_fixed_batch_error"] = str(e)
    info["shape_inference_known_fraction"] = fracs["1"]
    info["shape_inference_known_fraction_by_batch"] = fracs
    info["shape_inference_known_fraction_excl_constant"] = nc["1"]
    info["shapes"] = shapes
    info["macs_shared_fixed_batch"] = macs_shared
    return info


def do_model(torch, name, man, shared_dir, skip_torch=False):
    t0 = time.time()
    path = os.path.join(shared_dir, "models", "torchvision", man["file"])
    rec = shared_info(path)
    rec["manifest_params"] = man["params"]
    hw = man["input"][2:]
    rec["input_hw"] = hw
    log("  shared-file part %.1fs" % (time.time() - t0))

    macs_onnx, onnx_err, fracs, opsets = {}, {}, {}, set()
    static_mac_nodes = {}
    for b in BATCHES_MACS:
        t = time.time()
        m, opset = export_static(torch, name, b, hw)
        opsets.add(opset)
        static_mac_nodes[str(b)] = dict(sorted(collections.Counter(
            n.op_type for n in m.graph.node if n.op_type in MAC_OPS).items()))
        inf = infer(m)
        del m
        fracs[str(b)] = known_fraction(inf)[0]
        try:
            macs_onnx[str(b)] = onnx_macs(inf)
        except MacsUnknown as e:
            onnx_err[str(b)] = str(e)
            log("  !!! FAIL onnx_static_infer %s batch %d: %s" % (name, b, e))
        del inf
        log("  export+infer b=%d %.1fs" % (b, time.time() - t))
    rec["static_export_opset"] = sorted(opsets)[0] if len(opsets) == 1 else sorted(opsets)
    rec["shapes_known_fraction"] = fracs["1"]
    rec["shapes_known_fraction_by_batch"] = fracs
    rec["static_export_mac_op_nodes"] = static_mac_nodes["1"]
    rec["macs_onnx_static"] = macs_onnx if not onnx_err else None
    if onnx_err:
        rec["macs_onnx_static_error"] = onnx_err

    macs_fn, aten, calls = {}, {}, {}
    if not skip_torch:
        for b in BATCHES_MACS:
            t = time.time()
            macs_fn[str(b)], aten[str(b)], calls[str(b)] = torch_count(torch, name, b, hw)
            log("  torch count b=%d %.1fs" % (b, time.time() - t))
        rec["macs_torch_fn"] = macs_fn
        rec["macs_torch_aten"] = aten
        rec["torch_fn_mac_calls"] = calls["1"]

    # choose + cross-check
    checks = {}
    for b in map(str, BATCHES_MACS):
        c = []
        if b in macs_fn:
            c.append("fn==aten" if fn_vs_aten(macs_fn[b], aten[b])
                     else "MISMATCH fn!=aten")
            c.append("fn_calls==static_export_mac_op_nodes"
                     if calls[b] == static_mac_nodes[b]
                     else "MISMATCH fn_calls!=static_export_mac_op_nodes")
        if b in macs_onnx and b in macs_fn:
            c.append("onnx==fn" if macs_onnx[b] == macs_fn[b] else "MISMATCH onnx!=fn")
        ms = rec["macs_shared_fixed_batch"].get(b)
        if ms is not None and b in macs_onnx:
            c.append("onnx==shared_fixed" if ms == macs_onnx[b]
                     else "MISMATCH onnx!=shared_fixed")
        checks[b] = c
    rec["macs_crosscheck"] = checks
    if not onnx_err:
        rec["macs"] = macs_onnx
        rec["macs_method"] = "onnx_static_infer"
    else:
        if not macs_fn:
            raise RuntimeError("%s: onnx static method failed and torch method skipped" % name)
        for b in map(str, BATCHES_MACS):
            if not fn_vs_aten(macs_fn[b], aten[b]):
                raise RuntimeError("%s: torch fn/aten counts disagree at batch %s" % (name, b))
        rec["macs"] = macs_fn
        rec["macs_method"] = "torch_function_mode"
    bad = [(b, c) for b, cs in checks.items() for c in cs if c.startswith("MISMATCH")]
    if bad:
        log("  !!! CROSS-CHECK MISMATCH %s: %s" % (name, bad))
    log("  %s done %.1fs macs@1=%s" % (name, time.time() - t0, rec["macs"]["1"]))
    return rec


# --------------------------------------------------------------------------
# output
# --------------------------------------------------------------------------

def dump(obj, depth=0, max_depth=3):
    """JSON, sorted keys; objects pretty-printed down to max_depth levels
    (top -> models -> model -> field), compact below."""
    if not isinstance(obj, dict) or depth >= max_depth or not obj:
        return json.dumps(obj, sort_keys=True, separators=(",", ":"))
    pad = " " * (depth + 1)
    items = ["%s%s: %s" % (pad, json.dumps(k), dump(obj[k], depth + 1, max_depth))
             for k in sorted(obj)]
    return "{\n" + ",\n".join(items) + "\n" + " " * depth + "}"


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.dirname(os.path.dirname(here))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--shared", default=os.path.join(repo, "..", "shared"),
                    help="shared dir holding models/torchvision (default <repo>/../shared)")
    ap.add_argument("--out", default=os.path.join(repo, "tests", "golden", "torchvision.json"))
    ap.add_argument("--models", default="", help="comma list (default: all in manifest)")
    ap.add_argument("--skip-torch", action="store_true",
                    help="skip the torch cross-check count (faster; only if onnx method works)")
    args = ap.parse_args()

    torch = torch_setup()
    import torchvision
    mpath = os.path.join(args.shared, "models", "torchvision", "manifest.jsonl")
    manifest = [json.loads(l) for l in open(mpath) if l.strip()]
    want = [s for s in args.models.split(",") if s]
    out = {"models": {}}
    t_all = time.time()
    for man in manifest:
        if want and man["name"] not in want:
            continue
        log("== %s" % man["name"])
        out["models"][man["name"]] = do_model(torch, man["name"], man, args.shared,
                                              args.skip_torch)
    out["meta"] = {
        "generator": "tools/golden/make_golden.py",
        "python": sys.version.split()[0],
        "onnx": onnx.__version__,
        "torch": torch.__version__,
        "torchvision": torchvision.__version__,
        "torch_seed": SEED,
        "batches_macs": list(BATCHES_MACS),
        "batches_shapes": list(BATCHES_SHAPES),
        "shared": "../shared/models/torchvision",
    }
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        f.write(dump(out) + "\n")
    log("wrote %s in %.1fs" % (args.out, time.time() - t_all))
    log("%-20s %12s %15s %6s %6s  %s" % ("model", "params", "macs@1", "shfix", "static", "method"))
    for k, r in out["models"].items():
        log("%-20s %12d %15d %6.3f %6.3f  %s" % (
            k, r["params"], r["macs"]["1"]["total"], r["shape_inference_known_fraction"],
            r["shapes_known_fraction"], r["macs_method"]))


if __name__ == "__main__":
    main()
