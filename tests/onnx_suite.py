"""ONNX's own backend test models (Debian's libonnx-testdata) through dlperf.

For every model.onnx of a set, the first graph output's shape three ways:

  reference  the shape of the stored output tensor (test_data_set_0/output_0.pb,
             written by ONNX's reference backend: independent of dlperf);
  onnx       what python3-onnx's shape_inference.infer_shapes gives once the
             declared output shapes are removed from the model;
  dlperf     what `dlperf inspect MODEL --json --nodes` reports (its "outputs").

Each of onnx / dlperf is then "exact" (every dim known and equal to the
reference), "wrong" (every dim known, not equal), "unknown" (rank or a dim not
known) or "refused" (an error).  Models whose first output is not a tensor
(sequences, optionals) or that have no stored output are counted apart as
"n/a" (dlperf still reads them: "refused" if it cannot).

Both dlperf and onnx get the same model with the declared output shapes and
value_info removed (dlperf would otherwise fall back on them).

usage: onnx_suite.py DLPERF DATA_ROOT OUT_TSV TMPDIR
Prints one TSV row per model to OUT_TSV:
  set  model  ops  reference  onnx_class  onnx_shape  dlperf_class  dlperf_shape  note
One python process does all of it (the issue asks for a modest runtime).
"""
import json
import os
import subprocess
import sys

import onnx
from onnx import shape_inference

SETS = ["node", "pytorch-converted", "pytorch-operator"]


def shape_str(s):
    return "?" if s is None else "[" + ",".join("?" if d is None else str(d) for d in s) + "]"


def classify(shape, ref):
    if shape is None or any(d is None for d in shape):
        return "unknown"
    return "exact" if list(shape) == list(ref) else "wrong"


def strip_declared(m):
    """Remove what the file declares about the shapes a rule must find: the
    graph outputs' shapes (their element types stay) and every value_info."""
    for o in m.graph.output:
        if o.type.HasField("tensor_type"):
            o.type.tensor_type.ClearField("shape")
    del m.graph.value_info[:]


def onnx_infer(m):
    """First output's shape by onnx.shape_inference on the stripped model
    (dims None where not a plain dim_value)."""
    try:
        mi = shape_inference.infer_shapes(m)
    except Exception as e:  # noqa: BLE001 - any refusal counts as refused
        return "refused", None, str(e).splitlines()[0][:120] if str(e) else type(e).__name__
    t = mi.graph.output[0].type
    if not t.HasField("tensor_type") or not t.tensor_type.HasField("shape"):
        return "ok", None, ""
    return "ok", [d.dim_value if d.HasField("dim_value") else None for d in t.tensor_type.shape.dim], ""


def dlperf_shape(dlperf, path, extra=()):
    p = subprocess.run([dlperf, "inspect", path, "--json", "--nodes", *extra], capture_output=True, text=True)
    if p.returncode != 0:
        return "refused", None, (p.stderr.strip().splitlines() or ["exit %d" % p.returncode])[0][:160]
    outs = json.loads(p.stdout).get("outputs", [])
    if not outs or outs[0]["shape"] is None:
        return "ok", None, ""
    return "ok", [None if d < 0 else d for d in outs[0]["shape"]], ""


def main():
    dlperf, root, out_tsv, tmp = sys.argv[1:5]
    rows = []
    for s in SETS:
        d = os.path.join(root, s)
        if not os.path.isdir(d):
            continue
        for name in sorted(os.listdir(d)):
            path = os.path.join(d, name, "model.onnx")
            if not os.path.isfile(path):
                continue
            m = onnx.load(path)
            ops = ",".join(sorted({n.op_type for n in m.graph.node}))
            out0 = m.graph.output[0] if m.graph.output else None
            ref_pb = os.path.join(d, name, "test_data_set_0", "output_0.pb")
            # the first output must be a tensor with a stored reference value
            if out0 is None or not out0.type.HasField("tensor_type"):
                # no shape to compare, but dlperf must still read the model
                # (some of these have symbolic input dims, N or M on axis 0:
                # dlperf asks for their value, --batch gives it)
                kind = out0.type.WhichOneof("value") if out0 is not None else "none"
                dst, _, dnote = dlperf_shape(dlperf, path, ("--batch", "1"))
                note = "first output is a " + str(kind) + (("; dlperf: " + dnote) if dnote else "")
                rows.append([s, name, ops, "-", "n/a", "-", "refused" if dst == "refused" else "n/a", "-", note])
                continue
            if not os.path.isfile(ref_pb):
                rows.append([s, name, ops, "-", "n/a", "-", "n/a", "-", "no stored output"])
                continue
            t = onnx.TensorProto()
            with open(ref_pb, "rb") as f:
                t.ParseFromString(f.read())
            ref = list(t.dims)
            strip_declared(m)
            stripped = os.path.join(tmp, s + "_" + name + ".onnx")
            onnx.save(m, stripped)
            ost, oshape, onote = onnx_infer(m)
            ocls = "refused" if ost == "refused" else classify(oshape, ref)
            dst, dshape, dnote = dlperf_shape(dlperf, stripped)
            os.unlink(stripped)
            dcls = "refused" if dst == "refused" else classify(dshape, ref)
            note = "; ".join(x for x in (dnote and "dlperf: " + dnote, onote and "onnx: " + onote) if x)
            rows.append([s, name, ops, shape_str(ref), ocls, shape_str(oshape), dcls, shape_str(dshape), note])
    with open(out_tsv, "w") as f:
        for r in rows:
            f.write("\t".join(x.replace("\t", " ") for x in r) + "\n")


if __name__ == "__main__":
    main()
