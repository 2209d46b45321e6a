"""onnxexport.py — ONNX export of a spec with a symbolic batch and no weight bytes.

export_spec(spec, out_dir) builds the model (seeded), exports it with
torch.onnx.export (opset 13, eval mode, input "input" (batch_size, 3, H, W) or
"input_ids" (batch_size, sequence_length) int64, dynamic axes), then strips the
weights: every float initializer of 64 bytes or more and every integer one of
16 KiB or more keeps its name, dtype and dims but its bytes move to an
"external data" file that is never written (data_location EXTERNAL, location
"stripped.weights", offset, length) — what our corpus in ../shared/models
looks like, and all dlperf reads.  Small integer tensors stay inline: shape
inference needs their values (Reshape targets, Slice bounds).

The file is named by the SHA-256 of its bytes (<hash>.onnx), so the same graph
from two runs or two nodes is one file and one models row.
"""
import hashlib
import io
import os
import tempfile
import warnings

OPSET = 13
STRIP_FLOAT_BYTES = 64
STRIP_INT_BYTES = 16384
LOCATION = "stripped.weights"


def strip_weights(model):
    """Move initializer bytes out (in place); returns bytes removed."""
    from onnx import TensorProto as T
    floats = {T.FLOAT, T.FLOAT16, T.BFLOAT16, T.DOUBLE}
    ints = {T.INT8, T.UINT8, T.INT16, T.UINT16, T.INT32, T.UINT32, T.INT64, T.UINT64, T.BOOL}
    offset = removed = 0
    for t in model.graph.initializer:
        if t.data_location == T.EXTERNAL:
            continue
        n = len(t.raw_data) if t.HasField("raw_data") else 0
        if not n:  # typed fields (float_data, int64_data, ...)
            esz = {T.FLOAT: 4, T.DOUBLE: 8, T.INT64: 8, T.INT32: 4, T.UINT64: 8}.get(t.data_type, 4)
            n = esz * (len(t.float_data) + len(t.double_data) + len(t.int64_data) + len(t.int32_data)
                       + len(t.uint64_data))
        lim = STRIP_FLOAT_BYTES if t.data_type in floats else STRIP_INT_BYTES if t.data_type in ints else None
        if lim is None or n < lim:
            continue
        for f in ("raw_data", "float_data", "double_data", "int64_data", "int32_data", "uint64_data"):
            t.ClearField(f)
        t.data_location = T.EXTERNAL
        del t.external_data[:]
        for k, v in (("location", LOCATION), ("offset", str(offset)), ("length", str(n))):
            e = t.external_data.add()
            e.key, e.value = k, v
        offset += (n + 4095) // 4096 * 4096
        removed += n
    return removed


_REGISTERED = []


def _register_symbolics():
    """aten::zero (Swin V2 zeroes the k part of its qkv bias in place) has no opset-13
    symbolic in torch 1.13: export it as Sub(x, x) (same shape and type; the value is
    never read by dlperf)."""
    if _REGISTERED:
        return
    from torch.onnx import register_custom_op_symbolic

    def zero(g, self):
        return g.op("Sub", self, self)

    try:
        register_custom_op_symbolic("aten::zero", zero, OPSET)
    except Exception:
        pass
    _REGISTERED.append(1)


def export_model(model, spec, opset=OPSET):
    """Serialized stripped ONNX bytes of an nn.Module for a spec."""
    import onnx
    import torch
    model.eval()
    if spec["family"] in ("bert", "gpt2"):
        x = torch.randint(0, 100, (2, 16), dtype=torch.int64)
        names, axes = ["input_ids"], {"input_ids": {0: "batch_size", 1: "sequence_length"},
                                      "output": {0: "batch_size", 1: "sequence_length"}}
    else:
        r = spec["resolution"]
        x = torch.randn(1, 3, r, r)
        names, axes = ["input"], {"input": {0: "batch_size"}, "output": {0: "batch_size"}}
    _register_symbolics()
    f = io.BytesIO()
    # not under no_grad: nn.MultiheadAttention would take its fused inference path
    # (aten::_native_multi_head_attention), which has no ONNX symbolic
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(model, (x,), f, opset_version=opset, input_names=names, output_names=["output"],
                          dynamic_axes=axes, do_constant_folding=True)
    m = onnx.load_from_string(f.getvalue())
    strip_weights(m)
    return m.SerializeToString()


def write_graph(data, out_dir):
    """Write bytes as <sha256>.onnx in out_dir (atomically); returns (hash, path)."""
    h = hashlib.sha256(data).hexdigest()
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, h + ".onnx")
    if not os.path.exists(path) or os.path.getsize(path) != len(data):
        fd, tmp = tempfile.mkstemp(dir=out_dir, prefix=".tmp-", suffix=".onnx")
        os.fchmod(fd, 0o644)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    return h, path


def export_spec(spec, out_dir, seed=0, max_params=0):
    """Build, export, strip, write.  Returns dict(hash, path, bytes, params, nodes); with
    max_params, a larger model is not exported ({"outcome": "error", "message": ...})."""
    import onnx
    import torch
    import families
    torch.manual_seed(seed)
    model = families.build(spec)
    params = families.count_params(model)
    if max_params and params > max_params:
        return {"outcome": "error", "params": params,
                "message": "not exported: %d parameters > --max-params %d" % (params, max_params)}
    data = export_model(model, spec)
    h, path = write_graph(data, out_dir)
    nodes = len(onnx.load_from_string(data).graph.node)
    return {"hash": h, "path": path, "bytes": len(data), "params": params, "nodes": nodes}
