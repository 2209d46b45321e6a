"""pytest tests of dlperf.plan (docs/plan.md), run by tests/t_python.sh:
the same bytes as `dlperf plan --json` (one JSON text through /api/plan),
the caller's prices, and errors as ValueError/TypeError."""
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
LLAMA = "meta-llama/Llama-3.1-8B-Instruct"


def cli(*args):
    return subprocess.run([CLI, *args], cwd=ROOT, check=True, capture_output=True, text=True).stdout


def test_plan_same_bytes_as_cli():
    py = dlperf.plan(LLAMA, prompt=1024, gen=256, ttft_ms=500, tpot_ms=40, rate=200, raw=True)
    assert py == cli("plan", "--model", LLAMA, "--prompt", "1024", "--gen", "256", "--ttft", "500", "--tpot", "40",
                     "--rate", "200", "--json")
    r = json.loads(py)
    assert r["considered"] >= 50 and len({p["device"] for p in r["plans"]}) >= 5
    assert all(p["meets_slo"] and p["ttft_ms"] <= 500 and p["tpot_ms"] <= 40 for p in r["plans"])


def test_plan_lists_prices_and_config():
    args = dict(prompt=512, gen=128, tpot_ms=30, devices=["h100-sxm", "mi300x"], dtypes=["bf16", "fp8"],
                max_gpus=2, prices={"mi300x": 2.5})
    r = dlperf.plan(LLAMA, **args)
    assert r["plans"] and {p["device"] for p in r["plans"]} == {"h100-sxm", "mi300x"}
    for p in r["plans"]:
        assert p["dtype"] in ("bf16", "fp8") and p["gpus"] <= 2
        assert p["price_source"] == ("caller" if p["device"] == "mi300x" else "database")
    # comma strings work as lists; a config dict plans like its catalogue id
    assert dlperf.plan(LLAMA, **dict(args, devices="h100-sxm,mi300x", dtypes="bf16,fp8")) == r
    cfg = {"model_type": "llama", "hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32,
           "num_key_value_heads": 8, "intermediate_size": 14336, "vocab_size": 128256,
           "max_position_embeddings": 131072, "rope_theta": 500000.0, "rms_norm_eps": 1e-5,
           "tie_word_embeddings": False, "torch_dtype": "bfloat16"}
    c = dlperf.plan(config=cfg, **args)
    assert [p["usd_per_mtok"] for p in c["plans"]] == [p["usd_per_mtok"] for p in r["plans"]]


def test_plan_errors():
    with pytest.raises(TypeError):
        dlperf.plan(LLAMA, prompt=1024)                       # gen missing
    with pytest.raises(TypeError):
        dlperf.plan(prompt=1, gen=1)                          # no model
    with pytest.raises(ValueError):
        dlperf.plan(LLAMA, prompt=1024, gen=256, devices=["h1000"])
    with pytest.raises(ValueError):
        dlperf.plan(LLAMA, prompt=1024, gen=256, dtypes=["fp7"])
    with pytest.raises(ValueError):
        dlperf.plan(LLAMA, prompt=1024, gen=256, tpot_ms=-1)
    with pytest.raises(ValueError):
        dlperf.plan(LLAMA, prompt=1024, gen=256, prices={"h100-sxm": 0})
    with pytest.raises(TypeError):
        dlperf.plan(LLAMA, prompt=1024, gen=256, prices=[("h100-sxm", 2)])


RESNET = os.path.join(ROOT, "examples", "resnet18.onnx")


def test_plan_onnx_same_bytes_as_cli():
    py = dlperf.plan(RESNET, batch=(1, 128), latency_ms=10, throughput=5000, devices=["t4", "l4", "h100-sxm"],
                     raw=True)
    assert py == cli("plan", RESNET, "--batch", "1..128", "--latency", "10", "--throughput", "5000",
                     "--devices", "t4,l4,h100-sxm", "--json")
    r = json.loads(py)
    assert r["kind"] == "infer" and r["plans"]
    assert all(p["latency_ms"] <= 10 and 1 <= p["batch"] <= 128 for p in r["plans"])
    with open(RESNET, "rb") as f:
        assert dlperf.plan(f.read(), batch=(1, 128), latency_ms=10, throughput=5000,
                           devices=["t4", "l4", "h100-sxm"])["plans"] == r["plans"]
    with pytest.raises(TypeError):
        dlperf.plan(RESNET, prompt=5)                         # an LLM argument
    with pytest.raises(TypeError):
        dlperf.plan(LLAMA, prompt=5, gen=5, latency_ms=3)     # an ONNX argument
    with pytest.raises(ValueError):
        dlperf.plan(RESNET, batch=(9, 3))


def test_plan_train_same_bytes_as_cli():
    py = dlperf.plan(RESNET, mode="train", batch=256, samples=1281167, epochs=90, max_gpus=4,
                     devices=["h100-sxm", "t4"], prices={"t4": 0.2}, raw=True)
    assert py == cli("plan", RESNET, "--mode", "train", "--batch", "256", "--samples", "1281167", "--epochs", "90",
                     "--max-gpus", "4", "--devices", "h100-sxm,t4", "--price", "t4=0.2", "--json")
    r = json.loads(py)
    assert r["kind"] == "train" and r["mode"] == "train" and r["plans"]
    cost = [p["usd_per_run"] for p in r["plans"]]
    assert cost == sorted(cost)
    for p in r["plans"]:
        assert p["meets"] and p["gpus"] in (1, 2, 4) and p["micro_batch"] * p["accum_steps"] * p["gpus"] == 256
        # 1,281,167 / 256 -> 5,005 steps per epoch, x 90
        assert abs(p["hours"] - 5005 * 90 * p["step_ms"] / 3.6e6) <= p["hours"] * 1e-5
    assert {p["usd_per_gpu_hour"] for p in r["plans"] if p["device"] == "t4"} == {0.2}
    # a deadline nobody meets: no plans, the closest miss named
    m = dlperf.plan(RESNET, mode="train", batch=256, samples=1281167, epochs=90, devices=["t4"], deadline_hours=0.01)
    assert m["plans"] == [] and m["missed"]["deadline"] > 0 and m["closest_miss"]["binding"] == "deadline"


def test_plan_train_errors():
    with pytest.raises(TypeError):
        dlperf.plan(RESNET, mode="train", batch=256)                  # samples missing
    with pytest.raises(TypeError):
        dlperf.plan(LLAMA, mode="train", batch=256, samples=10)       # not an ONNX model
    with pytest.raises(TypeError):
        dlperf.plan(RESNET, samples=10)                               # training argument, inference plan
    with pytest.raises(TypeError):
        dlperf.plan(RESNET, mode="train", batch=8, samples=8, latency_ms=5)
    with pytest.raises(ValueError):
        dlperf.plan(RESNET, mode="train", batch=8, samples=8, dtypes=["int8"])
    with pytest.raises(ValueError):
        dlperf.plan(RESNET, mode="fly", batch=8, samples=8)
    with pytest.raises(ValueError):
        dlperf.plan(RESNET, mode="train", batch=8, samples=8, optimizer="lion")
