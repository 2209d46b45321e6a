"""dlperf: predict deep-learning performance without running the model.

A thin ctypes layer over libdlperf.so.  Every result is the dict of the JSON
text the library writes, the same bytes `dlperf ... --json` prints and the
HTTP API answers (predict, llm and mig go through the library's request
handler, so fields and defaults are the API's too).  Arguments are checked
here first; errors raise a dlperf.Error subclass that is also the built-in
a Python caller expects (FileNotFound: FileNotFoundError, InvalidValue:
ValueError, InvalidType: TypeError), with a one-line message in Python
terms.  docs/python.md.

    import dlperf
    r = dlperf.predict("examples/resnet18.onnx", device="h100-sxm", batch=32)
    r["latency_ms"], r["memory_mb"]
"""
import ctypes
import glob
import io
import json
import os
import re
import threading

from . import _check, _lib
from ._lib import Error, FileNotFound, InvalidType, InvalidValue

__all__ = ["Error", "FileNotFound", "InvalidValue", "InvalidType", "version", "predict", "inspect", "llm", "plan",
           "mig", "devices", "GraphModel"]

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
            if _lib.lib.dlp_server_new(ctypes.byref(o), ctypes.byref(s), ctypes.byref(err)) != 0:
                _lib.raise_error(err.text(), err.code)
            _server = s
        return _server


def _answer(resp):
    try:
        body = ctypes.string_at(resp.body, resp.len).decode("utf-8") if resp.body else ""
        status = resp.status
    finally:
        _lib.lib.dlp_server_response_clear(ctypes.byref(resp))
    if status != 200:
        try:
            msg = json.loads(body)["error"]
        except (ValueError, KeyError, TypeError):
            msg = body.strip() or "HTTP status %d" % status
        _lib.raise_error(msg, status, http=True)
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

def _read(path, what="model"):
    """The bytes of a file; FileNotFound when it is not there."""
    try:
        with open(path, "rb") as f:
            return f.read()
    except FileNotFoundError:
        raise FileNotFound("%s: no such file (%s)" % (path, what), filename=path) from None
    except OSError as e:
        raise Error("%s: cannot read: %s" % (path, e.strerror)) from None


def _onnx_of(model, example_inputs, batch_dims=None):
    """(bytes, name, batch of the example) of a model given as a path, bytes or torch module."""
    if isinstance(model, (str, os.PathLike)):
        path = os.fspath(model)
        if isinstance(path, bytes):
            path = os.fsdecode(path)
        return _read(path), os.path.basename(path), None
    if isinstance(model, (bytes, bytearray, memoryview)):
        return bytes(model), "model.onnx", None
    try:
        import torch
    except ImportError:
        torch = None
    if torch is not None and isinstance(model, torch.nn.Module):
        return _export_torch(torch, model, example_inputs, batch_dims)
    raise InvalidType("model must be an ONNX path, ONNX bytes or a torch.nn.Module, got %s"
                      % type(model).__name__)


def _batch_axes(torch, args, batch_dims):
    """{input index: axis} of the batch, checked against the example shapes."""
    if batch_dims is None:
        batch_dims = {0: 0}        # dim 0 of the first input only
    elif isinstance(batch_dims, (list, tuple)):
        batch_dims = {i: a for i, a in enumerate(batch_dims) if a is not None}
    elif not isinstance(batch_dims, dict):
        raise InvalidType("batch_dims must be a dict {input index: axis} or a list of axes (None: no batch "
                          "axis), got %r" % (batch_dims,))
    sizes = {}
    for i, a in batch_dims.items():
        _check.integer("batch_dims key", i, lo=0)
        if i >= len(args):
            raise InvalidValue("batch_dims names input %d, but example_inputs has %d" % (i, len(args)))
        x = args[i]
        if not isinstance(x, torch.Tensor):
            raise InvalidType("example_inputs[%d] must be a torch.Tensor to carry a batch axis, got %s"
                              % (i, type(x).__name__))
        _check.integer("batch_dims[%d]" % i, a, lo=0)
        if a >= x.dim():
            raise InvalidValue("batch_dims[%d] is axis %d, but example_inputs[%d] has shape %s (%d dims)"
                               % (i, a, i, tuple(x.shape), x.dim()))
        sizes[i] = int(x.shape[a])
    if len(set(sizes.values())) > 1:
        raise InvalidValue("the batch axes of example_inputs disagree: %s"
                           % ", ".join("input %d axis %d = %d" % (i, batch_dims[i], n) for i, n in sizes.items()))
    return batch_dims, (next(iter(sizes.values())) if sizes else None)


def _export_torch(torch, module, example_inputs, batch_dims):
    """Export to ONNX in memory; the batch axes (batch_dims, default dim 0
    of the first input) become the symbol "batch_size", so that batch= binds
    them whatever the example's batch."""
    if example_inputs is None:
        raise InvalidType("example_inputs is required with a torch.nn.Module (a tensor or a tuple of them)")
    args = example_inputs if isinstance(example_inputs, tuple) else (example_inputs,)
    for i, x in enumerate(args):
        if not isinstance(x, torch.Tensor):
            raise InvalidType("example_inputs[%d] must be a torch.Tensor, got %s" % (i, type(x).__name__))
    axes_of, batch = _batch_axes(torch, args, batch_dims)
    n_in = len(args)
    with torch.no_grad():
        was_training = module.training
        module.eval()
        try:
            outs = module(*args)
        except Exception as e:  # a shape mismatch, usually: say so before exporting
            raise InvalidValue("%s(example_inputs) failed: %s" % (type(module).__name__, str(e).splitlines()[0]
                                                                  if str(e) else type(e).__name__)) from None
        finally:
            module.train(was_training)
    n_out = len(outs) if isinstance(outs, (tuple, list)) else 1
    inames = ["input%d" % i if n_in > 1 else "input" for i in range(n_in)]
    onames = ["output%d" % i if n_out > 1 else "output" for i in range(n_out)]
    axes = {inames[i]: {a: "batch_size"} for i, a in axes_of.items()}
    buf = io.BytesIO()
    try:
        torch.onnx.export(module, args, buf, input_names=inames, output_names=onames,
                          dynamic_axes=axes, opset_version=14, do_constant_folding=True)
    except Exception as e:  # torch raises many kinds; one line names it
        raise Error("%s: torch.onnx.export failed: %s" % (type(module).__name__, str(e).splitlines()[0]
                                                          if str(e) else type(e).__name__)) from None
    return buf.getvalue(), type(module).__name__ + ".onnx", batch


def predict(model, example_inputs=None, *, device=None, batch=None, seq=None, mode=None, dtype=None,
            runtime=None, cudnn=None, layout=None, optimizer=None, region=None, runs=None, steps=None, dims=None,
            tf32=None, fuse=None, pure=None, no_learned=None, no_sdpa=None, no_amp=None, margin=None,
            latency_slo_ms=None, launch_us=None, host_us=None, batch_dims=None, raw=False):
    """Predict latency (or training step time), throughput, memory, energy,
    MIG fit, cost and carbon of `model` on `device` (`dlperf predict`).

    model: an ONNX path, ONNX bytes, or a torch.nn.Module with example_inputs
        (a tensor or a tuple; exported in memory by torch.onnx).
    device (required): a device id, name or alias: {devices}.
    batch, seq: positive ints binding the model's symbolic batch / sequence
        dims (a module's batch defaults to the example's).
    batch_dims (modules only): which axis of which input is the batch, as
        {{input index: axis}} or a list of axes (None: no batch axis);
        default {{0: 0}}, dim 0 of the first input only.
    mode: {modes}.  dtype: {dtypes}.  runtime: {runtimes}.
    cudnn: 8 or 9, the cuDNN major version the runtime links (default: the
        runtime's own; 8 with eager = PyTorch 2.0-2.3, docs/predict.md).
    layout: {layouts} ("channels_last" = nhwc).  optimizer: {optimizers}.
    tf32: {tf32}.  region: {regions}.
    runs (inference) / steps (training): positive ints, the count that cost
        and carbon are for.  dims: {{symbol: positive int}}.
    fuse, pure, no_learned, no_sdpa, no_amp: True or False (the CLI's flags).
    margin: MIG memory margin in [0, 10]; latency_slo_ms > 0; launch_us and
        host_us (host CPU time to issue one kernel) in [0, 1e6] (docs/predict.md).
    raw=True returns the JSON text instead of a dict.

    Raises dlperf.InvalidType (a TypeError) for a wrong argument type,
    dlperf.InvalidValue (a ValueError) for a value dlperf cannot use,
    dlperf.FileNotFound (a FileNotFoundError) for a missing file."""
    _check.device("device", device)
    data, name, ex_batch = _onnx_of(model, example_inputs, batch_dims)
    if batch_dims is not None and ex_batch is None:
        raise InvalidType("batch_dims is for a torch.nn.Module; an ONNX file declares its own batch dim")
    if batch is None:
        batch = ex_batch
    f = dict(device=device, batch=_check.integer("batch", batch), seq=_check.integer("seq", seq),
             mode=_check.choice("mode", mode, _check.MODES, _lib.lib.dlp_predict_mode_parse),
             dtype=_check.choice("dtype", dtype, _check.DTYPES, _lib.lib.dlp_dtype_parse),
             runtime=_check.choice("runtime", runtime, _check.RUNTIMES, _lib.lib.dlp_runtime_parse),
             cudnn=_check.integer("cudnn", cudnn, lo=8, hi=9),
             layout=_check.choice("layout", layout, _check.LAYOUTS, _lib.lib.dlp_memfmt_parse),
             optimizer=_check.choice("optimizer", optimizer, _check.OPTIMIZERS, _lib.lib.dlp_optimizer_parse),
             region=_check.string("region", region), runs=_check.integer("runs", runs, hi=10 ** 18),
             steps=_check.integer("steps", steps, hi=10 ** 18), dims=_check.dims("dims", dims),
             tf32=_check.choice("tf32", tf32, _check.TF32), fuse=_check.boolean("fuse", fuse),
             pure=_check.boolean("pure", pure), no_learned=_check.boolean("no_learned", no_learned),
             no_sdpa=_check.boolean("no_sdpa", no_sdpa), no_amp=_check.boolean("no_amp", no_amp),
             margin=_check.real("margin", margin, 0, 10),
             latency_slo_ms=_check.real("latency_slo_ms", latency_slo_ms, 0, 1e12, lo_open=True),
             launch_us=_check.real("launch_us", launch_us, 0, 1e6),
             host_us=_check.real("host_us", host_us, 0, 1e6))
    return _request("/api/predict", f, data, name, raw)


def inspect(model, example_inputs=None, *, batch=None, seq=None, dims=None, batch_dims=None, raw=False):
    """Totals (nodes, params, MACs, FLOPs, memory) and per-op-type tables of
    a model (`dlperf inspect --json`).  model, example_inputs, batch, seq,
    dims and batch_dims as for predict.  Raises as predict does."""
    data, name, ex_batch = _onnx_of(model, example_inputs, batch_dims)
    if batch is None:
        batch = ex_batch
    batch, seq, dims = _check.integer("batch", batch), _check.integer("seq", seq), _check.dims("dims", dims)
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
        _lib.raise_error(err.text(), err.code)
    try:
        buf, n = ctypes.c_void_p(), ctypes.c_size_t()
        st = _lib.lib.dlp_inspect_json(g, ctypes.byref(buf), ctypes.byref(n), ctypes.byref(err))
        text = _lib.take_text(st, buf, n, err)
    finally:
        _lib.lib.dlp_graph_free(g)  # before `data` goes: the graph points into it
        del keep
    return text if raw else json.loads(text)


def _llm_config(config):
    """config= of llm() and plan(): a config.json dict, its path (read here),
    or None."""
    if isinstance(config, (str, os.PathLike)):
        path = os.fspath(config)
        try:
            return json.loads(_read(path, "config").decode("utf-8"))
        except (ValueError, UnicodeDecodeError) as e:
            raise InvalidValue("%s: not a JSON config: %s" % (path, e)) from None
    if config is not None and not isinstance(config, dict):
        raise InvalidType("config must be a config.json dict or its path, got %s" % type(config).__name__)
    return config


# ---- llm(model=...): a folder or a hub-cache id, read here as the CLI reads it ------

# room for a dlp_llm_config (1416 bytes in 0.x); its first fields are
# char id[96] and char hf_id[96] (include/dlperf.h)
_LLM_CONFIG_ROOM = 1 << 16
_ENOTFOUND = -8
_HUB_NOTE = ("; not in the Hugging Face cache either ($HF_HUB_CACHE, $HF_HOME/hub, "
             "~/.cache/huggingface/hub); give a folder with its config.json")


def _hub_config(hub, model):
    """config.json of ORG/NAME under hub folder `hub`, as llm_find.c's
    hub_config: the snapshot refs/main names, else the first snapshot holding
    one; None when absent."""
    org, slash, name = model.partition("/")
    if not slash or "/" in name or ".." in model:
        return None
    repo = "%s/models--%s--%s" % (hub, org, name)
    if not os.path.isdir(repo):
        return None
    try:
        with open(repo + "/refs/main", "rb") as f:
            ref = re.split(r"[\r\n]", f.readline(63).decode("utf-8", "replace"))[0]   # fgets + strcspn
    except OSError:
        ref = ""
    if ref and "/" not in ref and os.path.isfile("%s/snapshots/%s/config.json" % (repo, ref)):
        return "%s/snapshots/%s/config.json" % (repo, ref)
    found = sorted(glob.glob(glob.escape(repo) + "/snapshots/*/config.json"))
    return found[0] if found else None


def _config_file(path):
    """(config.json text, the name the CLI gives it) of a file on this
    machine, through the library's own loader so that a bad file gets the
    CLI's message."""
    data = _read(path, "config")
    buf, err = ctypes.create_string_buffer(_LLM_CONFIG_ROOM), _lib._Err()
    st = _lib.lib.dlp_llm_config_load(os.fsencode(path), buf, ctypes.byref(err))
    if st:
        _lib.raise_error(err.text(), st)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InvalidValue("%s: not a JSON config: %s" % (path, e)) from None
    return text, buf.raw[:96].split(b"\0", 1)[0].decode("utf-8", "replace")


def _llm_model(model):
    """(model, config, config_name) to send for llm(model=...), found as
    `dlperf llm --model` finds it (src/llm/llm_find.c): a catalogue id goes
    by name; else a folder holding a config.json (or the file itself); else
    a Hugging Face id ORG/NAME in the local hub cache ($HF_HUB_CACHE,
    $HF_HOME/hub, ~/.cache/huggingface/hub).  The file is read here, on the
    caller's machine, as the CLI would read it on its own: the server never
    reads its disk."""
    buf, err = ctypes.create_string_buffer(_LLM_CONFIG_ROOM), _lib._Err()
    st = _lib.lib.dlp_llm_catalogue_get(model.encode(), buf, ctypes.byref(err))
    if st != _ENOTFOUND:
        return model, None, None   # known (or refused by the server in the CLI's words)
    if os.path.isdir(model):
        path = model + "/config.json"
        if not os.path.isfile(path):
            _lib.raise_error("%s: the folder holds no config.json" % model, _ENOTFOUND)
        text, name = _config_file(path)
        return None, text, name
    if os.path.isfile(model):
        text, name = _config_file(model)
        return None, text, name
    path, env = None, os.environ
    if env.get("HF_HUB_CACHE"):
        path = _hub_config(env["HF_HUB_CACHE"], model)
    if not path and env.get("HF_HOME"):
        path = _hub_config(env["HF_HOME"] + "/hub", model)
    if not path and env.get("HOME"):
        path = _hub_config(env["HOME"] + "/.cache/huggingface/hub", model)
    if not path:
        _lib.raise_error(err.text() + (_HUB_NOTE if "/" in model else ""), _ENOTFOUND)
    text, _ = _config_file(path)
    return None, text, model.encode()[:95].decode("utf-8", "ignore")   # named as the user named it


def _llm_source(model, config):
    """(model, config, config_name) that llm() and plan() send: a model
    found as the CLI's --model finds it (_llm_model), a config path named as
    --config FILE names it, or a config dict / text as given."""
    if isinstance(model, os.PathLike):
        model = os.fspath(model)
    _check.string("model", model)
    if model is not None and config is None:
        return _llm_model(model)
    if isinstance(config, (str, os.PathLike)) and model is None:
        text, name = _config_file(os.fspath(config))
        return None, text, name
    return model, _llm_config(config), None


def llm(model=None, *, config=None, device=None, batch=None, seq=None, dtype=None, kv_dtype=None, gen=None,
        gpus=None, region=None, samples=None, analytic=None, image_tokens=None, concurrency=None, max_fit=None,
        prompt=None, max_seqs=None, ep=None, attention_dp=None, phase=None, mem_fraction=None, images=None,
        image_size=None, video_frames=None, rate=None, engine=None, mtp=None, mtp_accepted=None, offline=None, batch_wait_iters=None,
        batch_wait_tokens=None, expert_slots=None, eager=None, recv_interval=None, adp_balance_iters=None,
        fixed_lengths=None, mixed_chunk=None, trtllm_gen_moe=None, same_prompts=None, max_prefill_tokens=None,
        raw=False):
    """An LLM's throughput, latency, memory, energy and carbon from its
    config (`dlperf llm`).

    model: as `dlperf llm --model`: a catalogue or Hugging Face id ('dlperf
        llm --list'); else a folder holding a config.json (or the file);
        else an id ORG/NAME whose snapshot is in the local Hugging Face cache
        ($HF_HUB_CACHE, $HF_HOME/hub, ~/.cache/huggingface/hub, in that
        order).  A folder or cached config is read by this process (the
        server never reads its disk) and sent as 'config' with the name the
        CLI prints ('config_name').  Or config: a config.json dict or its
        path (a path is named as `dlperf llm --config FILE` names it).
    device (required): {devices}.
    batch, seq (prompt tokens), gen (generated tokens; 0: the forward pass
        alone), gpus (tensor parallel), samples, image_tokens: ints.
    dtype (weights) and kv_dtype: {llm_dtypes}.  region: {regions}.
    analytic: True for the analytic model alone (no learned trees).
    Serving (docs/llm.md, "Serving"; give concurrency, rate or max_fit=True):
        concurrency: closed-loop clients; rate: open-loop clients instead,
        Poisson arrivals in requests/s (a float; refused at or past the
        replica's capacity, which the error names); max_fit: the most that fit;
        engine: {engines} (the engine's CPU side per step);
        max_seqs: the engine's running limit (default the engine's: vLLM 1024 on GPUs >= 70 GiB but the A100, else 256; docs/llm.md "Engine defaults");
        offline: True for the concurrency requests submitted at once as one
        batch (vLLM's LLM.generate(), no API server): no front end, TTFT =
        the batch's prefill rounds (not with rate);
        prompt, gen: tokens per request; ep: expert parallelism within gpus;
        attention_dp: attention data parallelism; phase: {phases};
        mem_fraction: the share of GPU memory the engine may use, in (0, 1].
        mtp, mtp_accepted: speculative decoding with mtp MTP draft tokens
        per step (1..16), mtp_accepted of them accepted on average (a float
        in [0, mtp], measured on the deployment); given together.
        batch_wait_iters, batch_wait_tokens: TensorRT-LLM's batch waiting
        (engine trtllm; its batch_wait_timeout_iters and
        batch_wait_max_tokens_ratio x max_num_tokens): a prompt arriving
        while others decode waits up to batch_wait_iters iterations or until
        a step would hold batch_wait_tokens tokens; ints, given together.
        expert_slots: redundant experts (EPLB), the expert copies the ep
        ranks hold in all, expert_slots / ep each (>= the model's experts,
        a multiple of ep; an int; default the model's experts).
        eager: True for an engine without CUDA graphs (vLLM --enforce-eager,
        SGLang --disable-cuda-graph): host time per layer on every step.
        recv_interval: SGLang's --scheduler-recv-interval (engine sglang,
        aggregated): new requests are read every recv_interval decode steps,
        so a prompt arriving while others decode waits (N - 1) / 2 steps
        more; an int (default 1: every step).
        adp_balance_iters: TensorRT-LLM's attention-DP balance (engine
        trtllm, attention_dp > 1; attention_dp_config enable_balance with
        timeout_iters): prompts are held until every attention-DP rank has
        one or that many iterations have passed; an int (default: none).
        fixed_lengths: True where the benchmark sends every request with
        the same prompt and output length (aiperf / genai-perf, stddev 0):
        under SGLang's prefill-first schedule the clients' waves never part.
        mixed_chunk: True for SGLang's mixed chunked prefill (its
        enable_mixed_chunk; engine sglang): prefill batches carry the
        running decodes.
        trtllm_gen_moe: True for TensorRT-LLM's moe_config backend TRTLLM
        (engine trtllm): block-fp8 experts on Blackwell run the trtllm-gen
        fused MoE, not DEEPGEMM.
        same_prompts: True where every request is a copy of one prompt,
        decoded greedily (top_k 1): an MoE router sends the copies to the
        same experts (dense models: no change).
        max_prefill_tokens: SGLang's --max-prefill-tokens (engine sglang,
        phase "prefill"): a busy prefill worker's batch takes whole prompts
        up to that many tokens; an int (default 16384).
    VLMs: images per prompt with image_size "WxH" (and video_frames, ints),
        or image_tokens as the raw count.
    raw=True returns the JSON text.  Raises as predict does."""
    if model is None and config is None:
        raise InvalidType("llm() needs model= (a catalogue or Hugging Face id) or config=")
    model, config, name = _llm_source(model, config)
    _check.device("device", device)
    f = dict(model=model, config=config, config_name=name or None, device=device, batch=_check.integer("batch", batch),
             seq=_check.integer("seq", seq), dtype=_check.choice("dtype", dtype, _check.LLM_DTYPES,
                                                                  _lib.lib.dlp_quant_parse),
             kv_dtype=_check.choice("kv_dtype", kv_dtype, _check.DTYPES, _lib.lib.dlp_dtype_parse),
             gen=_check.integer("gen", gen, lo=0), gpus=_check.integer("gpus", gpus),
             region=_check.string("region", region), samples=_check.integer("samples", samples),
             analytic=_check.boolean("analytic", analytic),
             image_tokens=_check.integer("image_tokens", image_tokens, lo=0),
             concurrency=_check.integer("concurrency", concurrency), max_fit=_check.boolean("max_fit", max_fit),
             prompt=_check.integer("prompt", prompt), ep=_check.integer("ep", ep),
             attention_dp=_check.integer("attention_dp", attention_dp),
             phase=_check.choice("phase", phase, _check.PHASES, _lib.lib.dlp_llm_phase_parse),
             mem_fraction=_check.real("mem_fraction", mem_fraction, 0, 1, lo_open=True),
             max_seqs=_check.integer("max_seqs", max_seqs), images=_check.integer("images", images),
             image_size=_check.string("image_size", image_size),
             video_frames=_check.integer("video_frames", video_frames),
             rate=_check.real("rate", rate, 0, None, lo_open=True),
             engine=_check.choice("engine", engine, _check.ENGINES, _lib.lib.dlp_llm_engine_parse),
             mtp=_check.integer("mtp", mtp, hi=16), mtp_accepted=_check.real("mtp_accepted", mtp_accepted, 0, 16),
             offline=_check.boolean("offline", offline),
             batch_wait_iters=_check.integer("batch_wait_iters", batch_wait_iters),
             batch_wait_tokens=_check.integer("batch_wait_tokens", batch_wait_tokens),
             expert_slots=_check.integer("expert_slots", expert_slots),
             eager=_check.boolean("eager", eager),
             recv_interval=_check.integer("recv_interval", recv_interval),
             adp_balance_iters=_check.integer("adp_balance_iters", adp_balance_iters),
             fixed_lengths=_check.boolean("fixed_lengths", fixed_lengths),
             mixed_chunk=_check.boolean("mixed_chunk", mixed_chunk),
             trtllm_gen_moe=_check.boolean("trtllm_gen_moe", trtllm_gen_moe),
             same_prompts=_check.boolean("same_prompts", same_prompts),
             max_prefill_tokens=_check.integer("max_prefill_tokens", max_prefill_tokens))
    return _request("/api/llm", f, raw=raw)


def _names_list(name, v):
    """A list/tuple of non-empty str (or one comma-separated str) -> list; None passes."""
    if v is None:
        return None
    if isinstance(v, str):
        v = v.split(",")
    if not isinstance(v, (list, tuple)) or not v or not all(isinstance(x, str) and x for x in v):
        raise InvalidType("%s must be a non-empty list of non-empty str, got %r" % (name, v))
    for x in v:
        _check.string(name, x)
    return list(v)


def _plan_onnx(model, batch, latency_ms, throughput, runtime, seq, devices, dtypes, prices, region, kwh_price, raw):
    """dlperf.plan of an ONNX model (a path ending .onnx, or its bytes)."""
    if isinstance(model, (bytes, bytearray, memoryview)):
        data, name = bytes(model), "model.onnx"
    else:
        path = os.fspath(model)
        data, name = _read(path), os.path.basename(path)
    lo = hi = None
    if isinstance(batch, (tuple, list)):
        if len(batch) != 2:
            raise InvalidType("batch must be an int or a (min, max) pair, got %r" % (batch,))
        lo, hi = _check.integer("batch", batch[0]), _check.integer("batch", batch[1])
        if lo > hi:
            raise InvalidValue("batch (%d, %d) is an empty range" % (lo, hi))
    elif batch is not None:
        lo = hi = _check.integer("batch", batch)
    dts = _names_list("dtypes", dtypes)
    for d in dts or ():
        _check.choice("dtypes", d, _check.DTYPES, _lib.lib.dlp_dtype_parse)
    f = dict(batch_min=lo, batch_max=hi, latency_ms=_check.real("latency_ms", latency_ms, 0, lo_open=True),
             throughput=_check.real("throughput", throughput, 0, lo_open=True),
             runtime=_check.choice("runtime", runtime, _check.RUNTIMES, _lib.lib.dlp_runtime_parse),
             seq=_check.integer("seq", seq), devices=_names_list("devices", devices), dtypes=dts, prices=prices,
             region=_check.string("region", region), kwh_price=_check.real("kwh_price", kwh_price, 0, lo_open=True))
    return _request("/api/plan", f, data, name, raw)


def _plan_train(model, batch, samples, epochs, deadline_hours, optimizer, max_gpus, seq, devices, dtypes, prices,
                region, kwh_price, raw):
    """dlperf.plan(model.onnx, mode="train"): training plans (`dlperf plan
    MODEL.onnx --mode train`, docs/plan.md "Training")."""
    if isinstance(model, (bytes, bytearray, memoryview)):
        data, name = bytes(model), "model.onnx"
    else:
        path = os.fspath(model)
        data, name = _read(path), os.path.basename(path)
    if batch is None or samples is None:
        raise InvalidType("a training plan needs batch= (the global batch per step) and samples= (per epoch)")
    dts = _names_list("dtypes", dtypes)
    for d in dts or ():
        _check.choice("dtypes", d, ["fp32", "fp16", "bf16"], _lib.lib.dlp_dtype_parse)
    f = dict(mode="train", batch=_check.integer("batch", batch), samples=_check.integer("samples", samples),
             epochs=_check.real("epochs", epochs, 0, lo_open=True),
             deadline_hours=_check.real("deadline_hours", deadline_hours, 0, lo_open=True),
             optimizer=_check.choice("optimizer", optimizer, _check.OPTIMIZERS, _lib.lib.dlp_optimizer_parse),
             max_gpus=_check.integer("max_gpus", max_gpus, hi=1024), seq=_check.integer("seq", seq),
             devices=_names_list("devices", devices), dtypes=dts, prices=prices, region=_check.string("region", region),
             kwh_price=_check.real("kwh_price", kwh_price, 0, lo_open=True))
    return _request("/api/plan", f, data, name, raw)


def plan(model=None, *, config=None, prompt=None, gen=None, ttft_ms=None, tpot_ms=None, rate=None, devices=None,
         dtypes=None, max_gpus=None, max_concurrency=None, prices=None, region=None, kwh_price=None,
         mem_fraction=None, analytic=None, batch=None, latency_ms=None, throughput=None, runtime=None, seq=None,
         mode=None, samples=None, epochs=None, deadline_hours=None, optimizer=None, raw=False):
    """LLM serving plans under a service level (`dlperf plan --json`,
    docs/plan.md): every GPU x weight format x GPU count x parallelism at
    the largest concurrency meeting ttft_ms / tpot_ms, ranked by cost.

    model: as `dlperf plan --model` (and llm(model=)): a catalogue or
        Hugging Face id; else a folder holding a config.json (or the file);
        else an id ORG/NAME in the local Hugging Face cache, read by this
        process and sent as 'config' with its name.  Or config: a
        config.json dict or its path.  prompt, gen (required): tokens per
        request.
    ttft_ms, tpot_ms: the limits (ms); rate: requests/s (replicas, and the
        ranking by the fleet's $/h).
    devices: ids ({devices}); default every GPU with a price.
    dtypes: weight formats ({llm_dtypes}); default bf16, fp8, fp4 where run.
    max_gpus (default 8), max_concurrency: ints.  prices: {{device: $/h per
        GPU}} overriding the database.  region: {regions}.  kwh_price: $/kWh.
    mem_fraction in (0, 1]; analytic: True for the analytic serving model.
    Returns {{"considered", "plans": [...], "missed": {{...}}, "closest_miss",
    ...}}; raw=True the JSON text.  Raises as predict does.

    An ONNX model (a path ending .onnx, a PathLike or the bytes) plans
    inference instead (`dlperf plan MODEL.onnx`): batch (an int or a (min,
    max) pair; default (1, 256)), latency_ms per batch, throughput
    (samples/s), runtime ({runtimes}), seq, with devices, dtypes ({dtypes}),
    prices, region, kwh_price as above.

    mode="train" with an ONNX model: the cheapest way to train it (`dlperf
    plan MODEL.onnx --mode train`): batch (the global batch per step) and
    samples (per epoch) required; epochs (default 1), deadline_hours,
    optimizer ({optimizers}), max_gpus (data-parallel, default 8), dtypes
    (fp32, fp16, bf16), with devices, prices, region, kwh_price as above."""
    onnx = isinstance(model, (bytes, bytearray, memoryview, os.PathLike)) or (
        isinstance(model, str) and model.lower().endswith(".onnx"))
    if prices is not None:
        if not isinstance(prices, dict):
            raise InvalidType("prices must be a dict {device: $/h per GPU}, got %r" % (prices,))
        for k, v in prices.items():
            _check.device("prices key", k)
            _check.real("prices[%r]" % k, v, 0, lo_open=True)
    train = _check.choice("mode", mode, _check.MODES, _lib.lib.dlp_predict_mode_parse) is not None and \
        _lib.lib.dlp_predict_mode_parse(mode.encode()) == 1
    train_args = dict(samples=samples, epochs=epochs, deadline_hours=deadline_hours, optimizer=optimizer)
    if train:
        if not onnx:
            raise InvalidType("mode='train' plans an ONNX model (a path ending .onnx, a PathLike or the bytes)")
        given = [k for k, v in dict(config=config, prompt=prompt, gen=gen, ttft_ms=ttft_ms, tpot_ms=tpot_ms, rate=rate,
                                    max_concurrency=max_concurrency, mem_fraction=mem_fraction, analytic=analytic,
                                    latency_ms=latency_ms, throughput=throughput, runtime=runtime).items()
                 if v is not None]
        if given:
            raise InvalidType("%s: not arguments of training plans" % ", ".join(given))
        return _plan_train(model, batch, samples, epochs, deadline_hours, optimizer, max_gpus, seq, devices, dtypes,
                           prices, region, kwh_price, raw)
    given = [k for k, v in train_args.items() if v is not None]
    if given:
        raise InvalidType("%s: arguments of training plans (mode='train')" % ", ".join(given))
    if onnx:
        given = [k for k, v in dict(config=config, prompt=prompt, gen=gen, ttft_ms=ttft_ms, tpot_ms=tpot_ms, rate=rate,
                                    max_gpus=max_gpus, max_concurrency=max_concurrency, mem_fraction=mem_fraction,
                                    analytic=analytic).items() if v is not None]
        if given:
            raise InvalidType("%s: LLM arguments; an ONNX model takes batch, latency_ms, throughput, runtime, seq"
                              % ", ".join(given))
        return _plan_onnx(model, batch, latency_ms, throughput, runtime, seq, devices, dtypes, prices, region,
                          kwh_price, raw)
    given = [k for k, v in dict(batch=batch, latency_ms=latency_ms, throughput=throughput, runtime=runtime,
                                seq=seq).items() if v is not None]
    if given:
        raise InvalidType("%s: arguments of ONNX-model plans (model='model.onnx')" % ", ".join(given))
    if model is None and config is None:
        raise InvalidType("plan() needs model= (a catalogue or Hugging Face id) or config=")
    model, config, name = _llm_source(model, config)
    if prompt is None or gen is None:
        raise InvalidType("plan() needs prompt= and gen= (tokens per request)")
    dts = _names_list("dtypes", dtypes)
    for d in dts or ():
        _check.choice("dtypes", d, _check.LLM_DTYPES, _lib.lib.dlp_quant_parse)
    f = dict(model=model, config=config, config_name=name or None, prompt=_check.integer("prompt", prompt),
             gen=_check.integer("gen", gen),
             ttft_ms=_check.real("ttft_ms", ttft_ms, 0, lo_open=True),
             tpot_ms=_check.real("tpot_ms", tpot_ms, 0, lo_open=True),
             rate=_check.real("rate", rate, 0, lo_open=True), devices=_names_list("devices", devices),
             dtypes=dts, max_gpus=_check.integer("max_gpus", max_gpus, hi=1024),
             max_concurrency=_check.integer("max_concurrency", max_concurrency), prices=prices,
             region=_check.string("region", region), kwh_price=_check.real("kwh_price", kwh_price, 0, lo_open=True),
             mem_fraction=_check.real("mem_fraction", mem_fraction, 0, 1, lo_open=True),
             analytic=_check.boolean("analytic", analytic))
    return _request("/api/plan", f, raw=raw)


def mig(*, device=None, memory_mb=None, margin=None, latency_ms=None, slo_ms=None, raw=False):
    """The smallest MIG profile that holds memory_mb (`dlperf mig`).

    device (required): {devices}.  memory_mb (required): the model's memory,
    MiB (>= 0).  margin: safety margin in [0, 10] (default 0.1).
    latency_ms and slo_ms (> 0, together): the full-GPU latency and the
    latency objective.  Raises as predict does."""
    _check.device("device", device)
    if memory_mb is None:
        raise InvalidType("memory_mb is required: the model's memory in MiB")
    f = dict(device=device, memory_mb=_check.real("memory_mb", memory_mb, 0),
             margin=_check.real("margin", margin, 0, 10),
             latency_ms=_check.real("latency_ms", latency_ms, 0, lo_open=True),
             slo_ms=_check.real("slo_ms", slo_ms, 0, lo_open=True))
    return _request("/api/mig", f, raw=raw)


def devices(id=None, raw=False):
    """The device database {{"devices": [...], "carbon": {{...}}}}, or one
    device by id, name or alias (`dlperf devices [ID] --json`): {devices}."""
    _check.string("id", id, "a str (a device id, name or alias)")
    db = ctypes.c_void_p()
    err = _lib._Err()
    if _lib.lib.dlp_devdb_load(None, ctypes.byref(db), ctypes.byref(err)) != 0:
        _lib.raise_error(err.text(), err.code)
    try:
        buf, n = ctypes.c_void_p(), ctypes.c_size_t()
        if id is None:
            st = _lib.lib.dlp_devices_json(db, ctypes.byref(buf), ctypes.byref(n), ctypes.byref(err))
        else:
            d = _lib.lib.dlp_devdb_find(db, id.encode())
            if not d:
                raise InvalidValue("unknown device '%s' (dlperf.devices() lists them)" % id)
            st = _lib.lib.dlp_device_json(d, ctypes.byref(buf), ctypes.byref(n), ctypes.byref(err))
        text = _lib.take_text(st, buf, n, err)
    finally:
        _lib.lib.dlp_devdb_free(db)
    return text if raw else json.loads(text)


# every allowed value, from the library, in the docstrings (help(dlperf.predict))
_ALLOWED = dict(devices=_check.listed(_check.DEVICES) or "see dlperf.devices()",
                regions=_check.listed(_check.REGIONS) or "see dlperf.devices()['carbon']",
                modes=_check.listed(_check.MODES), dtypes=_check.listed(_check.DTYPES),
                runtimes=_check.listed(_check.RUNTIMES), layouts=_check.listed(_check.LAYOUTS),
                optimizers=_check.listed(_check.OPTIMIZERS), tf32=_check.listed(_check.TF32),
                llm_dtypes=_check.listed(_check.LLM_DTYPES), phases=_check.listed(_check.PHASES),
                engines=_check.listed(_check.ENGINES))
for _f in (predict, llm, plan, mig, devices):
    _f.__doc__ = _f.__doc__.format(**_ALLOWED)


from ._graph_model import GraphModel  # noqa: E402  (uses the names above)
