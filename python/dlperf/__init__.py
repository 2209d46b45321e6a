"""dlperf: predict deep-learning performance without running the model.

A thin ctypes layer over libdlperf.so.  Every result is the dict of the JSON
text the library writes, the same bytes `dlperf ... --json` prints and the
HTTP API answers (predict, llm and mig go through the library's request
handler, so fields, defaults and error messages are the API's too).  Errors
raise dlperf.Error with the library's one-line message.  docs/python.md.

    import dlperf
    r = dlperf.predict("examples/resnet18.onnx", device="h100-sxm", batch=32)
    r["latency_ms"], r["memory_mb"]
"""
import ctypes
import io
import json
import os
import threading

from . import _lib
from ._lib import Error

__all__ = ["Error", "version", "predict", "inspect", "llm", "mig", "devices", "GraphModel"]

__version__ = _lib.lib.dlp_version().decode()


def version():
    """The library's version (DLP_VERSION_STRING)."""
    return _lib.lib.dlp_version().decode()


# ---- the embedded request handler (no socket) ---------------------------------

_server = None
_server_lock = threading.Lock()


def _handler():
    global _server
    with _server_lock:
        if _server is None:
            o = _lib._ServerOpts()
            o.no_listen = 1
            o.quiet = 1
            o.threads = max(1, min(16, os.cpu_count() or 1))
            s = ctypes.c_void_p()
            err = _lib._Err()
            if _lib.lib.dlp_server_start(ctypes.byref(o), ctypes.byref(s), ctypes.byref(err)) != 0:
                raise Error(err.text())
            _server = s
        return _server


def _answer(resp):
    try:
        body = ctypes.string_at(resp.body, resp.len).decode("utf-8") if resp.body else ""
        status = resp.status
    finally:
        _lib.lib.dlp_server_response_free(ctypes.byref(resp))
    if status != 200:
        try:
            msg = json.loads(body)["error"]
        except (ValueError, KeyError, TypeError):
            msg = body.strip() or "HTTP status %d" % status
        raise Error(msg, status)
    return body


def _request(path, fields, model=None, model_name=None, raw=False):
    """POST fields (and a model's bytes) to an API route; the parsed answer."""
    body = json.dumps({k: v for k, v in fields.items() if v is not None}).encode()
    resp = _lib._Response()
    if model is None:
        rc = _lib.lib.dlp_server_handle(_handler(), b"POST", path.encode(), b"application/json", body,
                                        len(body), ctypes.byref(resp))
    else:
        rc = _lib.lib.dlp_server_handle_upload(_handler(), path.encode(), body, model, len(model),
                                               (model_name or "model.onnx").encode(), ctypes.byref(resp))
    if rc != 0:
        raise Error("out of memory", rc)
    text = _answer(resp)
    return text if raw else json.loads(text)


# ---- models: a path, bytes, or a torch.nn.Module ------------------------------------

def _onnx_of(model, example_inputs):
    """(bytes, name, batch of the example) of a model given as a path, bytes or torch module."""
    if isinstance(model, (str, os.PathLike)):
        path = os.fspath(model)
        try:
            with open(path, "rb") as f:
                return f.read(), os.path.basename(path), None
        except OSError as e:
            raise Error("%s: cannot read: %s" % (path, e.strerror)) from None
    if isinstance(model, (bytes, bytearray, memoryview)):
        return bytes(model), "model.onnx", None
    try:
        import torch
    except ImportError:
        torch = None
    if torch is not None and isinstance(model, torch.nn.Module):
        return _export_torch(torch, model, example_inputs)
    raise Error("model: expected an ONNX path, ONNX bytes or a torch.nn.Module, got %s"
                % type(model).__name__)


def _export_torch(torch, module, example_inputs):
    """Export to ONNX in memory, dim 0 of every input and output symbolic
    ("batch_size") so that batch= binds it whatever the example's batch."""
    if example_inputs is None:
        raise Error("example_inputs: a torch.nn.Module needs example inputs (a tensor or a tuple of them)")
    args = example_inputs if isinstance(example_inputs, tuple) else (example_inputs,)
    n_in = len(args)
    with torch.no_grad():
        was_training = module.training
        module.eval()
        try:
            outs = module(*args)
        finally:
            module.train(was_training)
    n_out = len(outs) if isinstance(outs, (tuple, list)) else 1
    inames = ["input%d" % i if n_in > 1 else "input" for i in range(n_in)]
    onames = ["output%d" % i if n_out > 1 else "output" for i in range(n_out)]
    axes = {n: {0: "batch_size"} for n in inames + onames}
    buf = io.BytesIO()
    try:
        torch.onnx.export(module, args, buf, input_names=inames, output_names=onames,
                          dynamic_axes=axes, opset_version=14, do_constant_folding=True)
    except Exception as e:  # torch raises many kinds; one line names it
        raise Error("%s: torch.onnx.export failed: %s" % (type(module).__name__, str(e).splitlines()[0]
                                                          if str(e) else type(e).__name__)) from None
    first = args[0] if args and hasattr(args[0], "shape") else None
    batch = int(first.shape[0]) if first is not None and len(first.shape) else None
    return buf.getvalue(), type(module).__name__ + ".onnx", batch


def predict(model, example_inputs=None, *, device=None, batch=None, seq=None, mode=None, dtype=None,
            runtime=None, layout=None, optimizer=None, region=None, runs=None, steps=None, dims=None,
            raw=False, **fields):
    """Predict latency (or training step time), throughput, memory, energy,
    MIG fit, cost and carbon of `model` on `device` (`dlperf predict`).

    model: an ONNX path, ONNX bytes, or a torch.nn.Module with example_inputs
    (exported in memory by torch.onnx; batch defaults to the example's).
    Other fields of POST /api/predict (tf32, fuse, margin, latency_slo_ms,
    launch_us, no_learned, ...) pass through **fields.  raw=True returns
    the JSON text instead of a dict."""
    data, name, ex_batch = _onnx_of(model, example_inputs)
    if batch is None:
        batch = ex_batch
    f = dict(device=device, batch=batch, seq=seq, mode=mode, dtype=dtype, runtime=runtime, layout=layout,
             optimizer=optimizer, region=region, runs=runs, steps=steps, dims=dims, **fields)
    return _request("/api/predict", f, data, name, raw)


def inspect(model, example_inputs=None, *, batch=None, seq=None, dims=None, raw=False):
    """Totals (nodes, params, MACs, FLOPs, memory) and per-op-type tables of
    a model (`dlperf inspect --json`)."""
    data, name, ex_batch = _onnx_of(model, example_inputs)
    if batch is None:
        batch = ex_batch
    opts = _lib._LoadOpts()
    opts.batch = batch or 0
    opts.seq = seq or 0
    keep = []
    if dims:
        names = (ctypes.c_char_p * len(dims))(*[k.encode() for k in dims])
        values = (ctypes.c_int64 * len(dims))(*[int(v) for v in dims.values()])
        opts.n_dims, opts.dim_names, opts.dim_values = len(dims), names, values
        keep = [names, values]
    g = ctypes.c_void_p()
    err = _lib._Err()
    if _lib.lib.dlp_graph_load_mem(data, len(data), name.encode(), ctypes.byref(opts), ctypes.byref(g),
                                   ctypes.byref(err)) != 0:
        raise Error(err.text(), err.code)
    try:
        buf, n = ctypes.c_void_p(), ctypes.c_size_t()
        st = _lib.lib.dlp_inspect_json(g, ctypes.byref(buf), ctypes.byref(n), ctypes.byref(err))
        text = _lib.take_text(st, buf, n, err)
    finally:
        _lib.lib.dlp_graph_free(g)  # before `data` goes: the graph points into it
        del keep
    return text if raw else json.loads(text)


def llm(model=None, *, config=None, device=None, batch=None, seq=None, dtype=None, gen=None, gpus=None,
        region=None, samples=None, analytic=None, image_tokens=None, kv_dtype=None, concurrency=None,
        prompt=None, max_fit=None, max_seqs=None, ep=None, attention_dp=None, phase=None, mem_fraction=None,
        images=None, image_size=None, video_frames=None, raw=False, **fields):
    """An LLM's throughput, latency, memory and energy from its config
    (`dlperf llm`): model is a catalogue id, or config a config.json dict
    (or its path).

    Generate mode: batch, seq, gen (tokens generated per sequence).
    Serving (`dlperf llm --concurrency`, docs/llm.md "Serving"): concurrency
    (closed-loop clients) or max_fit=True, prompt and gen tokens per request,
    max_seqs (the engine's running limit, default 256), ep, attention_dp,
    phase ("agg", "prefill", "decode"), mem_fraction.
    VLMs: images per prompt with image_size "WxH" (and video_frames), or
    image_tokens as the raw count."""
    if isinstance(config, (str, os.PathLike)):
        try:
            with open(config) as f:
                config = json.load(f)
        except (OSError, ValueError) as e:
            raise Error("%s: cannot read the config: %s" % (os.fspath(config), e)) from None
    f = dict(model=model, config=config, device=device, batch=batch, seq=seq, dtype=dtype, gen=gen, gpus=gpus,
             region=region, samples=samples, analytic=analytic, image_tokens=image_tokens, kv_dtype=kv_dtype,
             concurrency=concurrency, prompt=prompt, max_fit=max_fit, max_seqs=max_seqs, ep=ep,
             attention_dp=attention_dp, phase=phase, mem_fraction=mem_fraction, images=images,
             image_size=image_size, video_frames=video_frames, **fields)
    return _request("/api/llm", f, raw=raw)


def mig(*, device, memory_mb, margin=None, latency_ms=None, slo_ms=None, raw=False):
    """The smallest MIG profile that holds memory_mb (`dlperf mig`)."""
    f = dict(device=device, memory_mb=memory_mb, margin=margin, latency_ms=latency_ms, slo_ms=slo_ms)
    return _request("/api/mig", f, raw=raw)


def devices(id=None, raw=False):
    """The device database {"devices": [...], "carbon": {...}}, or one
    device by id, name or alias (`dlperf devices [ID] --json`)."""
    db = ctypes.c_void_p()
    err = _lib._Err()
    if _lib.lib.dlp_devdb_load(None, ctypes.byref(db), ctypes.byref(err)) != 0:
        raise Error(err.text(), err.code)
    try:
        buf, n = ctypes.c_void_p(), ctypes.c_size_t()
        if id is None:
            st = _lib.lib.dlp_devices_json(db, ctypes.byref(buf), ctypes.byref(n), ctypes.byref(err))
        else:
            d = _lib.lib.dlp_devdb_find(db, str(id).encode())
            if not d:
                raise Error("unknown device '%s' ('dlperf.devices()' lists them)" % id)
            st = _lib.lib.dlp_device_json(d, ctypes.byref(buf), ctypes.byref(n), ctypes.byref(err))
        text = _lib.take_text(st, buf, n, err)
    finally:
        _lib.lib.dlp_devdb_free(db)
    return text if raw else json.loads(text)


from ._graph_model import GraphModel  # noqa: E402  (uses the names above)
