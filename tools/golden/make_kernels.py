#!/usr/bin/python3
"""Golden eager-PyTorch kernel lists for dlperf's torchvision ONNX corpus.

Run with Debian's python (onnx 1.12, torch 1.13, torchvision 0.14):

    /usr/bin/python3 tools/golden/make_kernels.py                 # all models + training runs
    /usr/bin/python3 tools/golden/make_kernels.py --models resnet18,swin_t --no-train
    /usr/bin/python3 tools/golden/make_kernels.py --train-only --train-models resnet18

For each model of ../shared/models/torchvision/manifest.jsonl this builds
torchvision.models.<name>(weights=None).eval(), runs one warm-up forward and one
profiled forward at batch 1 under torch.no_grad() with
torch.profiler.profile(activities=[CPU], record_shapes=True), and writes
tests/golden/kernels/<name>.json with the TOP-LEVEL aten ops (see below).
With training on (default) it also profiles one forward + cross-entropy loss +
loss.backward() at batch 2 in train() mode for resnet18, mobilenet_v2 and
vit_b_16 and writes tests/golden/kernels/train_<name>.json.

Nothing here uses dlperf code; see docs/kernels_golden.md for every field.

Definitions (documented in docs/kernels_golden.md):

* tree: the profiler's own event tree, prof.profiler.kineto_results.
  experimental_event_tree() (nanosecond start/end, nesting as recorded).  The
  FunctionEvent tree of prof.events() (.cpu_parent / .cpu_children) is rebuilt
  by torch from start/end times truncated to whole microseconds, and a child
  that ends in the same microsecond as its parent can come out as a sibling
  (e.g. aten::reshape's aten::_reshape_alias shows up as a root).  The number
  of roots that tree gives is printed to stderr to show the difference; it
  changes from run to run (69..72 for resnet18, 941..953 for swin_t, against 69 and 806), so it is
  not stored.
* top-level op: an event whose name starts with "aten::" and none of whose
  ancestors has a name starting with "aten::".
* copy: a top-level op "launches a copy" iff it is, or has a descendant (any
  depth) that is, an aten::copy_ event whose destination (first input) has
  rank >= 1 and more than one element.  On CPU every materialising copy
  (aten::clone, aten::contiguous of a non-contiguous tensor, aten::_to_copy,
  aten::reshape / flatten of a non-viewable tensor -> aten::clone) ends in
  aten::copy_; views (aten::view, _reshape_alias, as_strided, transpose,
  permute, ...) never do.  0-d copies are the wrapping of Python scalars
  (aten::eq(t, 0) -> to -> _to_copy -> copy_ on a [] tensor) and are ignored.
  Copies are split into "layout" (the top-level op is a view / copy op from
  NO_KERNEL_OPS or COPY_OPS, e.g. aten::reshape of a permuted tensor: the copy
  IS the kernel) and "internal" (a compute op that copies inside, e.g.
  aten::linear -> aten::addmm copies the bias into the output before the GEMM).
  aten::cat, aten::roll, aten::constant_pad_nd write new tensors with kernels
  of their own and are counted as kernels, as copies only when they reach
  aten::copy_ (aten::pad with all-zero pads -> constant_pad_nd -> clone).
* no-kernel op: a top-level op whose name is in NO_KERNEL_OPS (views, aliasing,
  allocation-only, eval-mode dropout) and that launched no copy.
"""
import argparse
import collections
import json
import os
import sys
import time
import warnings

import onnx

SEED = 0
TRAIN_MODELS = ("resnet18", "mobilenet_v2", "vit_b_16")
TRAIN_BATCH = 2
COPY_OP = "aten::copy_"
# Top-level aten ops that launch no compute kernel of their own (unless a copy
# shows up under them): views / aliasing / metadata / allocation-only, and
# eval-mode dropout (which returns its input).
NO_KERNEL_OPS = frozenset("""
aten::view aten::_unsafe_view aten::_reshape_alias aten::reshape aten::flatten
aten::unflatten aten::view_as aten::reshape_as aten::transpose aten::t
aten::permute aten::expand aten::expand_as aten::select aten::slice aten::narrow
aten::unsqueeze aten::squeeze aten::chunk aten::split aten::split_with_sizes
aten::unbind aten::as_strided aten::alias aten::detach aten::contiguous
aten::dropout aten::dropout_ aten::feature_dropout aten::feature_dropout_
aten::alpha_dropout aten::alpha_dropout_ aten::size aten::numel
aten::dim aten::empty aten::empty_like aten::empty_strided aten::lift
aten::lift_fresh aten::resolve_conj aten::resolve_neg aten::to aten::type_as
""".split())
# Top-level ops whose whole job is a copy (when they copy at all).
COPY_OPS = frozenset("aten::clone aten::copy_ aten::_to_copy aten::to "
                     "aten::contiguous".split())
GEMM_ATEN = ("aten::mm", "aten::addmm", "aten::bmm", "aten::baddbmm")


def log(*a):
    print(*a, file=sys.stderr, flush=True)


def torch_setup():
    import torch
    torch.set_num_threads(2)
    warnings.filterwarnings("ignore")
    return torch


def build_model(name, train=False):
    import torch
    import torchvision
    torch.manual_seed(SEED)
    model = getattr(torchvision.models, name)(weights=None)
    model.train(train)
    return model


# --------------------------------------------------------------------------
# profiler tree
# --------------------------------------------------------------------------

def is_aten(e):
    return e.name.startswith("aten::")


def walk(e):
    yield e
    for c in e.children:
        yield from walk(c)


def contiguous(shape, stride):
    expect = 1
    for d, s in zip(reversed(shape), reversed(stride)):
        if d != 1 and s != expect:
            return False
        expect *= d
    return True


def sig(e):
    """Compact input signature: '1x3x224x224,64x3x7x7,-' ('-' = not a tensor,
    '[]' = 0-d tensor, trailing '*' = non-contiguous tensor input)."""
    try:
        inp = e.extra_fields.inputs
        shapes, strides, dtypes = inp.shapes, inp.strides, inp.dtypes
    except AttributeError:
        return "?"
    parts = []
    for i, s in enumerate(shapes):
        dt = dtypes[i] if i < len(dtypes) else ""
        if not s and dt in ("", "Scalar", "ScalarList", "TensorList", "GenericList"):
            parts.append("-" if dt != "TensorList" else "list")
            continue
        txt = "x".join(str(d) for d in s) if s else "[]"
        st = strides[i] if i < len(strides) else []
        if s and st and not contiguous(s, st):
            txt += "*"
        parts.append(txt)
    return ",".join(parts)


def top_level(roots):
    """Top-level aten events, in start order: aten events with no aten ancestor."""
    out = []

    def rec(e):
        if is_aten(e):
            out.append(e)
            return
        for c in e.children:
            rec(c)
    for r in roots:
        rec(r)
    out.sort(key=lambda e: e.start_time_ns)
    return out


def real_copy(e):
    """An aten::copy_ whose destination (first input) has more than one element.

    0-d / 1-element copies are the CPU wrapping of Python scalars (aten::eq(t, 0)
    -> aten::to -> aten::_to_copy -> aten::copy_ on a [] tensor, the divisor of
    aten::mean) and move no tensor data."""
    if e.name != COPY_OP:
        return False
    try:
        dst = e.extra_fields.inputs.shapes[0]
    except (AttributeError, IndexError):
        return True
    n = 1
    for d in dst:
        n *= d
    return len(dst) > 0 and n > 1


def copy_path(e):
    """'' if e launches no copy, else the path from e to the first real aten::copy_."""
    if real_copy(e):
        return COPY_OP

    def rec(x, path):
        for c in x.children:
            p = path + [c.name]
            if real_copy(c):
                return p
            r = rec(c, p)
            if r:
                return r
        return None
    p = rec(e, [e.name])
    return ">".join(p) if p else ""


def summarize(tops):
    """Counts over a list of top-level events."""
    top = collections.Counter()
    copies = collections.Counter()
    layout = collections.Counter()
    copy_events = collections.Counter()
    children = {}
    paths = collections.Counter()
    kernels = collections.Counter()
    shapes = collections.defaultdict(collections.Counter)
    ops, copy_index = [], []
    for i, e in enumerate(tops):
        top[e.name] += 1
        ops.append(e.name)
        shapes[e.name][sig(e)] += 1
        if e.name not in children:
            children[e.name] = [c.name for c in e.children]
        cp = copy_path(e)
        if cp:
            copy_events[e.name] += sum(1 for d in walk(e) if real_copy(d))
            copies[e.name] += 1
            if e.name in NO_KERNEL_OPS or e.name in COPY_OPS:
                layout[e.name] += 1
            paths[cp] += 1
            copy_index.append(i)
        if cp or e.name not in NO_KERNEL_OPS:
            kernels[e.name] += 1
    return {
        "top_level": dict(sorted(top.items())),
        "top_level_total": len(tops),
        "top_level_copies": dict(sorted(copies.items())),
        "top_level_copies_layout": dict(sorted(layout.items())),
        "top_level_copies_internal": {k: v - layout.get(k, 0) for k, v in
                                      sorted(copies.items()) if v - layout.get(k, 0)},
        "copy_paths": dict(sorted(paths.items())),
        "copy_events": dict(sorted(copy_events.items())),
        "kernel_ops": dict(sorted(kernels.items())),
        "kernel_ops_total": sum(kernels.values()),
        "ops": ops,
        "copy_index": copy_index,
        "children_of_first": dict(sorted(children.items())),
        "shapes": {k: dict(sorted(v.items())) for k, v in sorted(shapes.items())},
    }


def all_depth(roots):
    c = collections.Counter()
    for r in roots:
        for e in walk(r):
            if is_aten(e):
                c[e.name] += 1
    return dict(sorted(c.items()))


def functionevent_roots(prof):
    """Top-level aten count from prof.events() via .cpu_parent (µs tree)."""
    n = 0
    for fe in prof.events():
        if not fe.name.startswith("aten::"):
            continue
        p = fe.cpu_parent
        while p is not None and not p.name.startswith("aten::"):
            p = p.cpu_parent
        n += p is None
    return n


# --------------------------------------------------------------------------
# ONNX
# --------------------------------------------------------------------------

def onnx_ops(path):
    m = onnx.load(path, load_external_data=False)
    return dict(sorted(collections.Counter(n.op_type for n in m.graph.node).items()))


# --------------------------------------------------------------------------
# runs
# --------------------------------------------------------------------------

def profile_eval(torch, name, shape):
    from torch.profiler import ProfilerActivity, profile
    model = build_model(name, train=False)
    torch.manual_seed(SEED)
    x = torch.randn(*shape)
    with torch.no_grad():
        model(x)                                   # warm-up
        with profile(activities=[ProfilerActivity.CPU], record_shapes=True) as prof:
            model(x)
    roots = prof.profiler.kineto_results.experimental_event_tree()
    return prof, roots


def do_eval(torch, torchvision, man, shared):
    name = man["name"]
    shape = list(man["input"])
    shape[0] = 1
    t0 = time.time()
    prof, roots = profile_eval(torch, name, shape)
    tops = top_level(roots)
    s = summarize(tops)
    deep = all_depth(roots)
    oo = onnx_ops(os.path.join(shared, "models", "torchvision", man["file"]))
    gemm_aten = sum(deep.get(k, 0) for k in GEMM_ATEN)
    arch = {
        "onnx_Conv": oo.get("Conv", 0),
        "onnx_Gemm": oo.get("Gemm", 0),
        "onnx_MatMul": oo.get("MatMul", 0),
        "top_aten_conv2d": s["top_level"].get("aten::conv2d", 0),
        "top_aten_linear": s["top_level"].get("aten::linear", 0),
        "top_aten_matmul": s["top_level"].get("aten::matmul", 0),
        "all_aten_convolution": deep.get("aten::convolution", 0),
        "all_aten_linear": deep.get("aten::linear", 0),
        "all_aten_matmul": deep.get("aten::matmul", 0),
        "all_aten_gemm": gemm_aten,
        "onnx_BatchNormalization": oo.get("BatchNormalization", 0),
        "top_aten_batch_norm": s["top_level"].get("aten::batch_norm", 0),
    }
    arch["conv_match"] = arch["onnx_Conv"] == arch["all_aten_convolution"]
    arch["gemm_match"] = arch["onnx_Gemm"] + arch["onnx_MatMul"] == gemm_aten
    notes = []
    if arch["top_aten_batch_norm"] and not arch["onnx_BatchNormalization"]:
        notes.append("%d aten::batch_norm have no ONNX node: the eval export folded "
                     "BatchNorm into the preceding Conv" % arch["top_aten_batch_norm"])
    nd = s["top_level"].get("aten::dropout", 0)
    if nd:
        notes.append("%d aten::dropout in eval launch nothing (no children) and have "
                     "no ONNX node" % nd)
    rec = {
        "model": name,
        "torch_version": torch.__version__,
        "torchvision_version": torchvision.__version__,
        "input": shape,
        "mode": "eval, torch.no_grad(), batch 1, CPU, 1 warm-up + 1 profiled forward",
        "tree": "kineto_results.experimental_event_tree",
        "onnx_ops": oo,
        "onnx_nodes": sum(oo.values()),
        "arch_check": arch,
        "all_depth": deep,
        "notes": notes,
    }
    rec.update(s)
    log("   %s: %d top-level (%d via prof.events() cpu_parent), %d kernel ops, %d copies, "
        "%d ONNX nodes, conv %s gemm %s, %.1fs" % (
        name, s["top_level_total"], functionevent_roots(prof), s["kernel_ops_total"],
        len(s["copy_index"]),
        rec["onnx_nodes"], arch["conv_match"], arch["gemm_match"], time.time() - t0))
    return rec


def backward_parts(roots):
    """(backward function counts, aten ops directly under them, other top-level)."""
    fns = collections.Counter()
    ops = collections.Counter()
    pre = "autograd::engine::evaluate_function: "

    def first_aten(e, acc):
        for c in e.children:
            if is_aten(c):
                acc[c.name] += 1
            else:
                first_aten(c, acc)

    def rec(e):
        if e.name.startswith(pre):
            fns[e.name[len(pre):]] += 1
            first_aten(e, ops)
            return True
        return any([rec(c) for c in e.children])
    for r in roots:
        rec(r)
    return fns, ops


def do_train(torch, torchvision, man):
    from torch.profiler import ProfilerActivity, profile, record_function
    name = man["name"]
    shape = list(man["input"])
    shape[0] = TRAIN_BATCH
    t0 = time.time()
    model = build_model(name, train=True)
    torch.manual_seed(SEED)
    x = torch.randn(*shape)
    y = torch.randint(0, 1000, (TRAIN_BATCH,))
    lossf = torch.nn.CrossEntropyLoss()

    def step():
        with record_function("dlperf::forward"):
            loss = lossf(model(x), y)
        with record_function("dlperf::backward"):
            loss.backward()
        model.zero_grad(set_to_none=True)

    step()                                         # warm-up
    with profile(activities=[ProfilerActivity.CPU], record_shapes=True) as prof:
        step()
    roots = prof.profiler.kineto_results.experimental_event_tree()
    fwd_roots, other_roots = [], []
    for r in roots:
        (fwd_roots if r.name == "dlperf::forward" else other_roots).append(r)
    fwd = summarize(top_level(fwd_roots))
    fns, bops = backward_parts(roots)
    # aten ops outside forward and outside any evaluate_function (grad seed etc.)
    misc = collections.Counter()

    def rec(e):
        if e.name.startswith("autograd::engine::evaluate_function: "):
            return
        if is_aten(e):
            misc[e.name] += 1
            return
        for c in e.children:
            rec(c)
    for r in other_roots:
        rec(r)
    rec_ = {
        "model": name,
        "torch_version": torch.__version__,
        "torchvision_version": torchvision.__version__,
        "input": shape,
        "mode": "train(), batch %d, CPU, CrossEntropyLoss + loss.backward(), no optimizer; "
                "1 warm-up + 1 profiled step" % TRAIN_BATCH,
        "forward_top_level": fwd["top_level"],
        "forward_top_level_total": fwd["top_level_total"],
        "forward_top_level_copies": fwd["top_level_copies"],
        "forward_copy_paths": fwd["copy_paths"],
        "forward_ops": fwd["ops"],
        "backward_functions": dict(sorted(fns.items())),
        "backward_functions_total": sum(fns.values()),
        "backward_ops": dict(sorted(bops.items())),
        "backward_ops_total": sum(bops.values()),
        "backward_other_top_level": dict(sorted(misc.items())),
    }
    log("   train_%s: %d fwd top-level, %d backward functions, %d backward aten ops, %.1fs" % (
        name, fwd["top_level_total"], rec_["backward_functions_total"],
        rec_["backward_ops_total"], time.time() - t0))
    return rec_


def dump(rec):
    """One field per line, each value compact JSON (keeps diffs readable)."""
    keys = list(rec.keys())
    lines = ["  %s: %s" % (json.dumps(k), json.dumps(rec[k], separators=(",", ":")))
             for k in keys]
    return "{\n" + ",\n".join(lines) + "\n}\n"


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.dirname(os.path.dirname(here))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--shared", default=os.path.join(repo, "..", "shared"),
                    help="shared dir holding models/torchvision (default <repo>/../shared)")
    ap.add_argument("--out-dir", default=os.path.join(repo, "tests", "golden", "kernels"))
    ap.add_argument("--models", default="", help="comma list (default: all in manifest)")
    ap.add_argument("--train-models", default=",".join(TRAIN_MODELS))
    ap.add_argument("--no-train", action="store_true", help="skip the training runs")
    ap.add_argument("--train-only", action="store_true", help="only the training runs")
    args = ap.parse_args()

    torch = torch_setup()
    import torchvision
    mpath = os.path.join(args.shared, "models", "torchvision", "manifest.jsonl")
    manifest = [json.loads(l) for l in open(mpath) if l.strip()]
    want = [s for s in args.models.split(",") if s]
    want_train = [s for s in args.train_models.split(",") if s]
    os.makedirs(args.out_dir, exist_ok=True)
    t_all = time.time()
    for man in manifest:
        name = man["name"]
        if not args.train_only and (not want or name in want):
            log("== %s" % name)
            rec = do_eval(torch, torchvision, man, args.shared)
            with open(os.path.join(args.out_dir, name + ".json"), "w") as f:
                f.write(dump(rec))
        if not args.no_train and name in want_train:
            log("== train_%s" % name)
            rec = do_train(torch, torchvision, man)
            with open(os.path.join(args.out_dir, "train_" + name + ".json"), "w") as f:
                f.write(dump(rec))
    log("done in %.1fs" % (time.time() - t_all))


if __name__ == "__main__":
    main()
