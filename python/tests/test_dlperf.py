"""pytest tests of the Python package (run by tests/t_python.sh from `make
test`): results are the library's JSON, the same bytes as the CLI; errors are
dlperf.Error; a torch module predicts; numpy and dlperf share a process."""
import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "python"))
import dlperf  # noqa: E402

BUILD = os.environ.get("BUILD", "build")
CLI = os.path.join(ROOT, BUILD, "dlperf")
RESNET = os.path.join(ROOT, "examples", "resnet18.onnx")
BERT = os.path.join(ROOT, "examples", "bert.onnx")
LEARNED = os.path.join(ROOT, "data", "models", "learned", "cpu-amd-epyc-2c--infer--latency_ms.dlpm")


def cli(*args):
    return subprocess.run([CLI, *args], cwd=ROOT, check=True, capture_output=True, text=True).stdout


def test_version_is_the_header_s():
    with open(os.path.join(ROOT, "include", "dlperf.h")) as f:
        line = next(l for l in f if l.startswith("#define DLP_VERSION_STRING"))
    assert dlperf.version() == line.split('"')[1] == dlperf.__version__


def test_predict_path_same_bytes_as_cli():
    py = dlperf.predict(RESNET, device="h100-sxm", batch=32, raw=True)
    assert py == cli("predict", RESNET, "--device", "h100-sxm", "--batch", "32", "--json")
    r = json.loads(py)
    assert r["latency_ms"] > 0 and r["batch"] == 32 and r["device"] == "h100-sxm"


def test_predict_train_options_same_bytes_as_cli():
    py = dlperf.predict(RESNET, device="a100-40gb", batch=8, mode="train", dtype="bf16", steps=1000,
                        region="eu", optimizer="sgd", raw=True)
    assert py == cli("predict", RESNET, "--device", "a100-40gb", "--batch", "8", "--mode", "train", "--dtype",
                     "bf16", "--steps", "1000", "--region", "eu", "--optimizer", "sgd", "--json")


def test_predict_bytes_equals_path():
    with open(RESNET, "rb") as f:
        data = f.read()
    a = dlperf.predict(data, device="t4", batch=4)
    b = dlperf.predict(RESNET, device="t4", batch=4)
    a.pop("model"), b.pop("model")
    assert a == b


def test_inspect_mig_llm_devices_same_bytes_as_cli():
    assert dlperf.inspect(BERT, batch=8, seq=128, raw=True) == cli("inspect", BERT, "--batch", "8", "--seq", "128",
                                                                   "--json")
    assert dlperf.mig(device="h100-sxm", memory_mb=7300, raw=True) == cli("mig", "--device", "h100-sxm",
                                                                          "--memory-mb", "7300", "--json")
    assert dlperf.llm("bert-base-uncased", device="a100-40gb", batch=64, seq=128, dtype="fp16", raw=True) == cli(
        "llm", "--model", "bert-base-uncased", "--device", "a100-40gb", "--batch", "64", "--seq", "128",
        "--dtype", "fp16", "--json")
    assert dlperf.devices(raw=True) == cli("devices", "--json")
    assert dlperf.devices("h100", raw=True) == cli("devices", "h100", "--json")


def test_llm_serving_fields_same_as_cli():
    # issue 22: serving and VLM fields in the signature, the same bytes as the CLI
    assert dlperf.llm("Qwen/Qwen3-VL-8B-Instruct", device="h100-sxm", concurrency=8, prompt=256, gen=64, images=1,
                      image_size="1024x768", max_seqs=128, raw=True) == cli(
        "llm", "--model", "Qwen/Qwen3-VL-8B-Instruct", "--device", "h100-sxm", "--concurrency", "8", "--prompt",
        "256", "--gen", "64", "--images", "1", "--image-size", "1024x768", "--max-seqs", "128", "--json")
    with pytest.raises(dlperf.Error, match="no vision tower"):
        dlperf.llm("meta-llama/Llama-3.1-8B-Instruct", device="h100-sxm", concurrency=4, images=1)


def test_errors_carry_the_library_message():
    with pytest.raises(dlperf.Error, match="unknown device 'nope'"):
        dlperf.predict(RESNET, device="nope", batch=1)
    with pytest.raises(dlperf.Error, match="is not infer or train"):
        dlperf.predict(RESNET, device="t4", batch=1, mode="fly")
    with pytest.raises(dlperf.Error, match="no_such.onnx: cannot read"):
        dlperf.predict("no_such.onnx", device="t4")
    with pytest.raises(dlperf.Error, match="model.onnx"):
        dlperf.predict(b"not an onnx file", device="t4", batch=1)
    with pytest.raises(dlperf.Error, match="unknown device"):
        dlperf.devices("nope")
    with pytest.raises(dlperf.Error):
        dlperf.inspect(RESNET)  # batch_size unbound: the library names it
    with pytest.raises(dlperf.Error, match="memory_mb"):
        dlperf.mig(device="h100-sxm", memory_mb=-5)


def test_torch_module_in_memory():
    torch = pytest.importorskip("torch")
    m = torch.nn.Sequential(torch.nn.Conv2d(3, 8, 3, padding=1), torch.nn.ReLU(), torch.nn.AdaptiveAvgPool2d(1),
                            torch.nn.Flatten(), torch.nn.Linear(8, 10))
    x = torch.randn(1, 3, 32, 32)
    r = dlperf.predict(m, x, device="a100-40gb", batch=64, mode="train")
    assert r["batch"] == 64 and r["step_ms"] > 0 and r["model"] == "Sequential.onnx"
    i = dlperf.inspect(m, torch.randn(4, 3, 32, 32))   # batch from the example
    assert i["batch"] == 4 and i["params"] == 3 * 8 * 9 + 8 + 8 * 10 + 10
    with pytest.raises(dlperf.Error, match="example_inputs"):
        dlperf.predict(m, device="t4")


def test_graph_model_batch_matches_cli():
    gm = dlperf.GraphModel.load(LEARNED)
    out = gm.predict([RESNET, RESNET], batch=8)
    ref = json.loads(cli("predict-graph", "--model", LEARNED, RESNET, "--batch", "8", "--json"))["predictions"]
    assert len(out) == 2 and out[0] == out[1]
    assert out[0]["latency_ms"] == pytest.approx(ref["latency_ms"], rel=1e-5)
    gm.close()
    with pytest.raises(dlperf.Error):
        dlperf.GraphModel.load(RESNET)


def test_graph_model_batch_equals_one_by_one():
    # dlp_gnn_predict_onnx's worker threads give each model the very floats
    # it gets alone: different models, paths and bytes mixed, several batch
    # sizes, 1 and 3 threads
    with open(RESNET, "rb") as f:
        rb = f.read()
    with dlperf.GraphModel.load(LEARNED) as gm:
        for batch in (1, 8):
            models = [RESNET, BERT, rb, RESNET, BERT, rb, BERT]
            alone = [gm.predict([m], batch=batch, seq=64, threads=1)[0] for m in models]
            for threads in (1, 3):
                assert gm.predict(models, batch=batch, seq=64, threads=threads) == alone
        assert gm.predict([]) == []
        # the error names the first bad model, whatever thread met it
        for _ in range(5):
            with pytest.raises(dlperf.Error) as e:
                gm.predict([rb, rb, b"", rb, b"garbage", rb], batch=1, threads=2)
            assert str(e.value) == "model.onnx: empty file"


def test_numpy_and_dlperf_in_one_process():
    # numpy's BLAS and libdlperf's private cblas shim must not meet: the .so
    # exports no cblas_/XGB/MHD symbol, and both still compute correctly.
    code = r"""
import ctypes, sys
import numpy as np
sys.path.insert(0, %r)
import dlperf
from dlperf import _lib
for sym in ("cblas_sgemm", "XGBoosterCreate", "MHD_start_daemon", "dlp__err"):
    assert not hasattr(_lib.lib, sym), sym
a = np.arange(12, dtype=np.float32).reshape(3, 4)
assert np.allclose(a @ a.T, np.dot(a.astype(np.float64), a.T.astype(np.float64)))
gm = dlperf.GraphModel.load(%r)           # the GNN multiplies through the shim
x = gm.predict([%r], batch=8)[0]["latency_ms"]
r = dlperf.predict(%r, device="h100-sxm", batch=32)
assert r["latency_ms"] > 0 and x > 0
b = np.random.rand(64, 64).astype(np.float32)
assert np.allclose(b @ np.eye(64, dtype=np.float32), b)
print("ok")
""" % (os.path.join(ROOT, "python"), LEARNED, RESNET, RESNET)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-2000:]


SHARED = os.environ.get("DLP_SHARED", os.path.join(ROOT, "..", "shared"))


@pytest.mark.skipif(not os.path.exists(os.path.join(SHARED, "data", "HELP")), reason="../shared/data/HELP missing")
def test_graph_model_gnnlm_device(tmp_path):
    # a gnnlm model reads the device: by name or in words, the same values
    # as `predict-graph --device-text`; None is the model's own device
    data, model = str(tmp_path / "h.dlpd"), str(tmp_path / "g.dlpm")
    cli("dataset", "build", "--from", "help-nb201", "--device", "titanxp_32,pixel3", "--limit", "12",
        "--layout", "dippm", "--shared", SHARED, "--out", data)
    cli("train", "--data", data, "--arch", "gnnlm", "--hidden", "8", "--layers", "1", "--epochs", "1",
        "--threads", "1", "--progress", "none", "--out", model)
    with dlperf.GraphModel.load(model) as gm:
        assert gm.device in ("titanxp_32", "pixel3")   # the training set's most common (a tie here)
        for dev in ("pixel3", "Raspberry Pi 4, 4x Cortex-A72 1.5 GHz, fp32"):
            out = gm.predict([RESNET, RESNET], batch=1, device=dev)
            ref = json.loads(cli("predict-graph", "--model", model, RESNET, "--batch", "1", "--device-text", dev,
                                 "--json"))
            assert ref["device"] == dev and out[0] == out[1]
            assert out[0]["latency_ms"] == pytest.approx(ref["predictions"]["latency_ms"], rel=1e-5)
        assert gm.predict([RESNET], batch=1) == gm.predict([RESNET], batch=1, device=gm.device)
    with dlperf.GraphModel.load(LEARNED) as gm:
        assert gm.device == ""
