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


def test_predict_cudnn_same_bytes_as_cli():
    # a grouped-conv training step: cuDNN 8's grouped wgrad differs from 9's,
    # so a field the binding dropped would show as a different step time
    m = os.path.join(ROOT, "data", "models", "torchvision", "regnet_y_1_6gf.onnx")
    args = dict(device="rtx3090", batch=8, dims={"height": 224, "width": 224}, mode="train", dtype="fp16")
    py8 = dlperf.predict(m, cudnn=8, raw=True, **args)
    assert py8 == cli("predict", m, "--device", "rtx3090", "--batch", "8", "--dim", "height=224", "--dim",
                      "width=224", "--mode", "train", "--dtype", "fp16", "--cudnn", "8", "--json")
    assert json.loads(py8)["step_ms"] > dlperf.predict(m, cudnn=9, **args)["step_ms"]
    with pytest.raises(ValueError, match="cudnn must be an int >= 8 up to 9"):
        dlperf.predict(m, cudnn=7, **args)


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
    # the offline client mode (one batch, no API server): the same bytes as --offline, and with a rate refused
    assert dlperf.llm("meta-llama/Llama-3.1-8B-Instruct", device="h100-sxm", concurrency=16, prompt=512, gen=64,
                      engine="vllm-v0", offline=True, raw=True) == cli(
        "llm", "--model", "meta-llama/Llama-3.1-8B-Instruct", "--device", "h100-sxm", "--concurrency", "16",
        "--prompt", "512", "--gen", "64", "--engine", "vllm-v0", "--offline", "--json")
    with pytest.raises(dlperf.Error, match="offline"):
        dlperf.llm("meta-llama/Llama-3.1-8B-Instruct", device="h100-sxm", rate=2, offline=True)


# `dlperf llm`'s flags that are not request fields: output format, the catalogue listing
# (dlperf.llm's answer is always JSON; the catalogue is GET /api/models) and help; --carbon only
# appears in the help as 'dlperf devices --carbon'
_NOT_FIELDS = {"json", "list", "help", "carbon"}


def _llm_flags():
    """Every --flag `dlperf llm --help` names, as a Python keyword (--kv-dtype -> kv_dtype)."""
    import re
    text = subprocess.run([CLI, "llm", "--help"], cwd=ROOT, capture_output=True, text=True).stdout
    flags = {f[2:].replace("-", "_") for f in re.findall(r"--[a-z][a-z-]*", text)} - _NOT_FIELDS
    assert len(flags) >= 28, sorted(flags)    # guard: the help text was read
    return flags


def test_llm_every_cli_flag_is_a_kwarg_in_the_docstring():
    # issue 22, scope 8: dlperf.llm takes every `dlperf llm` flag (--config FILE as config=),
    # each named in the docstring, and nothing else but raw=
    import inspect
    import re
    params = set(inspect.signature(dlperf.llm).parameters)
    flags = _llm_flags()
    assert flags - params == set(), "flags without a kwarg: %s" % sorted(flags - params)
    assert params - flags == {"raw"}, "kwargs without a flag: %s" % sorted(params - flags - {"raw"})
    doc = inspect.getdoc(dlperf.llm)
    missing = [p for p in params if not re.search(r"\b%s\b" % p, doc)]
    assert missing == [], "kwargs the docstring does not name: %s" % missing


def test_llm_worker_kv_memory_maxfit_video_same_as_cli():
    # the fields the page lacked before (issue 22, scope 8) through Python: the same bytes as the CLI
    L = ("--model", "meta-llama/Llama-3.1-8B-Instruct", "--device", "h100-sxm", "--dtype", "bf16")
    for phase in ("prefill", "decode"):
        py = dlperf.llm("meta-llama/Llama-3.1-8B-Instruct", device="h100-sxm", dtype="bf16", concurrency=16,
                        prompt=1024, gen=256, phase=phase, kv_dtype="fp8", mem_fraction=0.8, raw=True)
        assert py == cli("llm", *L, "--concurrency", "16", "--prompt", "1024", "--gen", "256", "--phase", phase,
                         "--kv-dtype", "fp8", "--mem-fraction", "0.8", "--json")
        r = json.loads(py)
        assert r["kv_dtype"] == "fp8" and r["serving"]["phase"] == phase and r["serving"]["mem_fraction"] == 0.8
    py = dlperf.llm("Qwen/Qwen3-VL-8B-Instruct", device="h100-sxm", dtype="bf16", max_fit=True, images=1,
                    image_size="640x480", video_frames=8, prompt=256, gen=256, raw=True)
    assert py == cli("llm", "--model", "Qwen/Qwen3-VL-8B-Instruct", "--device", "h100-sxm", "--dtype", "bf16",
                     "--max-fit", "--images", "1", "--image-size", "640x480", "--video-frames", "8", "--prompt", "256",
                     "--gen", "256", "--json")
    # by hand: Qwen3-VL's 32-px tokens, 640 x 480 -> 20 x 15 = 300 per frame pair; 8 frames at
    # temporal patch 2 -> 4 x 300 = 1,200
    assert json.loads(py)["image_tokens"] == 1200
    py = dlperf.llm("Qwen/Qwen3-VL-8B-Instruct", device="h100-sxm", dtype="bf16", concurrency=8, image_tokens=300,
                    prompt=256, gen=64, raw=True)
    assert py == cli("llm", "--model", "Qwen/Qwen3-VL-8B-Instruct", "--device", "h100-sxm", "--dtype", "bf16",
                     "--concurrency", "8", "--image-tokens", "300", "--prompt", "256", "--gen", "64", "--json")
    an = dlperf.llm("meta-llama/Llama-3.1-8B-Instruct", device="h100-sxm", dtype="bf16", batch=8, seq=512, gen=128,
                    analytic=True, raw=True)
    assert an == cli("llm", *L, "--batch", "8", "--seq", "512", "--gen", "128", "--analytic", "--json")
    assert json.loads(an)["method"] == "analytic"


def test_llm_refusals_as_the_cli():
    # what the CLI refuses, the API (and so Python) refuses: serving options without a client
    # model (the engine included), images with the raw count, a bad image size
    m = "meta-llama/Llama-3.1-8B-Instruct"
    for kw in (dict(engine="sglang"), dict(phase="prefill"), dict(max_seqs=8), dict(mem_fraction=0.5)):
        with pytest.raises(dlperf.Error, match="serving fields"):
            dlperf.llm(m, device="h100-sxm", **kw)
        r = subprocess.run([CLI, "llm", "--model", m, "--device", "h100-sxm",
                            "--" + next(iter(kw)).replace("_", "-"), str(next(iter(kw.values())))],
                           cwd=ROOT, capture_output=True, text=True)
        assert r.returncode != 0 and "serving option" in r.stderr, (kw, r.stderr)
    with pytest.raises(dlperf.Error, match="raw count"):
        dlperf.llm("Qwen/Qwen3-VL-8B-Instruct", device="h100-sxm", images=1, image_tokens=64)
    with pytest.raises(dlperf.Error, match="WIDTHxHEIGHT"):
        dlperf.llm("Qwen/Qwen3-VL-8B-Instruct", device="h100-sxm", images=1, image_size="big")
    with pytest.raises(ValueError, match="images must be a positive int"):
        dlperf.llm("Qwen/Qwen3-VL-8B-Instruct", device="h100-sxm", images=0)
    # an unknown model's hint names the listing (over the API GET /api/models; from Python the
    # CLI's command, not a "list=" keyword that does not exist)
    with pytest.raises(dlperf.Error) as ei:
        dlperf.llm("acme/no-such-model", device="h100-sxm")
    assert "'dlperf llm --list' lists all" in str(ei.value) and "list=" not in str(ei.value)


def test_llm_mtp_same_as_cli():
    # MTP speculative decoding: the same bytes as the CLI, and the fields reach
    # the model (TPOT with 0.8 accepted drafts is under the plain TPOT)
    args = dict(device="h100-sxm", concurrency=8, prompt=1024, gen=256)
    py = dlperf.llm("meta-llama/Llama-3.1-8B-Instruct", mtp=1, mtp_accepted=0.8, raw=True, **args)
    assert py == cli("llm", "--model", "meta-llama/Llama-3.1-8B-Instruct", "--device", "h100-sxm", "--concurrency",
                     "8", "--prompt", "1024", "--gen", "256", "--mtp", "1", "--mtp-accepted", "0.8", "--json")
    plain = dlperf.llm("meta-llama/Llama-3.1-8B-Instruct", **args)
    assert json.loads(py)["serving"]["tpot_ms"] < plain["serving"]["tpot_ms"]
    with pytest.raises(dlperf.Error, match="come together"):
        dlperf.llm("meta-llama/Llama-3.1-8B-Instruct", mtp=2, **args)


def test_llm_expert_slots_same_as_cli():
    # redundant experts (EPLB slots): the same bytes as the CLI; one more expert a rank
    # (136 slots for 128 on EP 8) is 3 x 2048 x 768 x 48 layers x 2 B = 432.0 MiB more per GPU
    args = dict(device="h200", gpus=8, ep=8, attention_dp=8, dtype="bf16", phase="decode", concurrency=64)
    py = dlperf.llm("Qwen/Qwen3-30B-A3B-Instruct-2507", expert_slots=136, raw=True, **args)
    assert py == cli("llm", "--model", "Qwen/Qwen3-30B-A3B-Instruct-2507", "--device", "h200", "--gpus", "8", "--ep",
                     "8", "--attention-dp", "8", "--dtype", "bf16", "--phase", "decode", "--concurrency", "64",
                     "--expert-slots", "136", "--json")
    plain = dlperf.llm("Qwen/Qwen3-30B-A3B-Instruct-2507", **args)
    assert abs(json.loads(py)["weights_mb"] - plain["weights_mb"] - 432.0) < 0.01
    with pytest.raises(dlperf.Error, match="not a multiple of ep 8"):
        dlperf.llm("Qwen/Qwen3-30B-A3B-Instruct-2507", expert_slots=140, **args)

def test_llm_recv_interval_same_as_cli():
    # SGLang's --scheduler-recv-interval: the same bytes as the CLI; the steady TTFT grows by
    # (30 - 1) / 2 = 14.5 decode steps (SchedulerRecvSkipper's rule), the mean by (1 - 0.17) of that
    # (SGLang's first-wave weight, docs/llm.md), TPOT does not move
    args = dict(device="h100-sxm", engine="sglang", concurrency=32)
    py = dlperf.llm("meta-llama/Llama-3.1-8B-Instruct", recv_interval=30, raw=True, **args)
    assert py == cli("llm", "--model", "meta-llama/Llama-3.1-8B-Instruct", "--device", "h100-sxm", "--engine",
                     "sglang", "--concurrency", "32", "--recv-interval", "30", "--json")
    a, b = dlperf.llm("meta-llama/Llama-3.1-8B-Instruct", **args)["serving"], json.loads(py)["serving"]
    assert abs(b["ttft_ms"] - a["ttft_ms"] - 0.83 * 14.5 * a["decode_step_ms"]) < 1e-4 * b["ttft_ms"]
    assert b["tpot_ms"] == a["tpot_ms"]
    with pytest.raises(dlperf.Error, match="engine sglang"):
        dlperf.llm("meta-llama/Llama-3.1-8B-Instruct", recv_interval=30, device="h100-sxm", concurrency=32)


def test_llm_adp_balance_same_as_cli():
    # TensorRT-LLM's attention-DP balance: the same bytes as the CLI; at timeout 1 the prompts go in at
    # every iteration, so a prompt waits the rest of the step in flight, half a decode step (steady
    # TTFT), the mean 0.86 of that (TensorRT-LLM's first-wave weight 0.14, docs/llm.md); TPOT does not move
    m = "deepseek-ai/DeepSeek-R1"
    args = dict(device="h200", engine="trtllm", gpus=8, ep=8, attention_dp=8, dtype="fp8", concurrency=128)
    py = dlperf.llm(m, adp_balance_iters=1, raw=True, **args)
    assert py == cli("llm", "--model", m, "--device", "h200", "--engine", "trtllm", "--gpus", "8", "--ep", "8",
                     "--attention-dp", "8", "--dtype", "fp8", "--concurrency", "128", "--adp-balance-iters", "1", "--json")
    a, b = dlperf.llm(m, **args)["serving"], json.loads(py)["serving"]
    assert abs(b["ttft_ms"] - a["ttft_ms"] - 0.86 * 0.5 * a["decode_step_ms"]) < 1e-4 * b["ttft_ms"]
    assert b["tpot_ms"] == a["tpot_ms"]
    with pytest.raises(dlperf.Error, match="engine trtllm"):
        dlperf.llm(m, adp_balance_iters=60, device="h200", gpus=8, ep=8, attention_dp=8, dtype="fp8",
                   engine="sglang", concurrency=128)


def test_llm_fixed_lengths_same_as_cli():
    # fixed lengths under SGLang's prefill-first schedule (docs/llm.md, "The gap-analysis dumps"):
    # the same bytes as the CLI; 32 clients x 1,024 tokens = 4 prefill batches of SGLang's 8,192
    # (H100): TTFT the burst's, 2.5 batches, plus the front end; a decode-first engine: no change
    args = dict(device="h100-sxm", engine="sglang", concurrency=32, prompt=1024, gen=256)
    py = dlperf.llm("meta-llama/Llama-3.1-8B-Instruct", fixed_lengths=True, raw=True, **args)
    assert py == cli("llm", "--model", "meta-llama/Llama-3.1-8B-Instruct", "--device", "h100-sxm", "--engine",
                     "sglang", "--concurrency", "32", "--prompt", "1024", "--gen", "256", "--fixed-lengths",
                     "--json")
    s = json.loads(py)["serving"]
    assert s["lockstep"] is True
    mixed = dlperf.llm("meta-llama/Llama-3.1-8B-Instruct", fixed_lengths=True, mixed_chunk=True, **args)["serving"]
    assert "lockstep" not in mixed and mixed["ttft_ms"] < s["ttft_ms"]
    with pytest.raises(dlperf.Error, match="engine sglang"):
        dlperf.llm("meta-llama/Llama-3.1-8B-Instruct", mixed_chunk=True, device="h100-sxm", concurrency=32)


def test_llm_trtllm_gen_moe_same_as_cli():
    # TensorRT-LLM's TRTLLM MoE backend: the same bytes as the CLI; block-fp8 experts on a B200 run the
    # trtllm-gen kernel (a faster decode step); another engine: refused
    args = dict(device="b200", gpus=8, dtype="fp8", engine="trtllm", concurrency=4)
    py = dlperf.llm("deepseek-ai/DeepSeek-R1", trtllm_gen_moe=True, raw=True, **args)
    assert py == cli("llm", "--model", "deepseek-ai/DeepSeek-R1", "--device", "b200", "--gpus", "8", "--dtype", "fp8",
                     "--engine", "trtllm", "--concurrency", "4", "--trtllm-gen-moe", "--json")
    gen = json.loads(py)["serving"]
    plain = dlperf.llm("deepseek-ai/DeepSeek-R1", **args)["serving"]
    assert gen["tpot_ms"] < plain["tpot_ms"]
    with pytest.raises(dlperf.Error, match="engine trtllm"):
        dlperf.llm("deepseek-ai/DeepSeek-R1", trtllm_gen_moe=True, device="b200", gpus=8, dtype="fp8",
                   engine="sglang", concurrency=4)


def test_llm_same_prompts_same_as_cli():
    # copies of one prompt decoded greedily (docs/llm.md, "Copies of one prompt"): the same bytes as
    # the CLI, echoed; an MoE's copies hit one token's experts, so its decode step is no slower; a
    # dense model: nothing moves; not a bool: refused before any request
    args = dict(device="h100-sxm", dtype="bf16", concurrency=16, prompt=1024, gen=256)
    py = dlperf.llm("Qwen/Qwen3-30B-A3B", same_prompts=True, raw=True, **args)
    assert py == cli("llm", "--model", "Qwen/Qwen3-30B-A3B", "--device", "h100-sxm", "--dtype", "bf16",
                     "--concurrency", "16", "--prompt", "1024", "--gen", "256", "--same-prompts", "--json")
    same = json.loads(py)["serving"]
    assert same["same_prompts"] is True
    assert same["tpot_ms"] <= dlperf.llm("Qwen/Qwen3-30B-A3B", **args)["serving"]["tpot_ms"]
    d_same = dlperf.llm("meta-llama/Llama-3.1-8B-Instruct", same_prompts=True, **args)["serving"]
    d_plain = dlperf.llm("meta-llama/Llama-3.1-8B-Instruct", **args)["serving"]
    assert (d_same["ttft_ms"], d_same["tpot_ms"]) == (d_plain["ttft_ms"], d_plain["tpot_ms"])
    with pytest.raises(dlperf.InvalidType, match="same_prompts must be True or False"):
        dlperf.llm("Qwen/Qwen3-30B-A3B", same_prompts=1, **args)


def test_llm_max_prefill_tokens_same_as_cli():
    # SGLang's --max-prefill-tokens on a prefill worker (docs/llm.md, h186): the same bytes as the
    # CLI, echoed; under 2,048 tokens a second 1,024-token prompt cannot join (1,024 + 1,024 is not
    # < 2,048), so a prompt is priced alone: the prefill worker's prefill_ms of an engine that
    # prices every prompt alone (vLLM's); SGLang's default 16,384 batches 8 (its 8,192-token chunk)
    # and is cheaper per prompt; another engine: refused; not an int: refused before any request
    args = dict(device="h100-sxm", dtype="bf16", phase="prefill", concurrency=16, prompt=1024)
    py = dlperf.llm("meta-llama/Llama-3.1-8B-Instruct", engine="sglang", max_prefill_tokens=2048, raw=True, **args)
    assert py == cli("llm", "--model", "meta-llama/Llama-3.1-8B-Instruct", "--device", "h100-sxm", "--dtype", "bf16",
                     "--engine", "sglang", "--phase", "prefill", "--concurrency", "16", "--prompt", "1024",
                     "--max-prefill-tokens", "2048", "--json")
    small = json.loads(py)["serving"]
    assert small["max_prefill_tokens"] == 2048
    alone = dlperf.llm("meta-llama/Llama-3.1-8B-Instruct", **args)["serving"]
    default = dlperf.llm("meta-llama/Llama-3.1-8B-Instruct", engine="sglang", **args)["serving"]
    assert small["prefill_ms"] == alone["prefill_ms"] and default["prefill_ms"] < small["prefill_ms"]
    with pytest.raises(dlperf.Error, match="engine sglang"):
        dlperf.llm("meta-llama/Llama-3.1-8B-Instruct", max_prefill_tokens=2048, **args)
    with pytest.raises(dlperf.InvalidType, match="max_prefill_tokens must be a positive int"):
        dlperf.llm("meta-llama/Llama-3.1-8B-Instruct", engine="sglang", max_prefill_tokens=2048.0, **args)


def test_llm_eager_same_as_cli():
    # no CUDA graphs: the same bytes as the CLI; Llama-3.1-8B's 32 layers x 0.210 ms (the documented
    # per-layer host time) = 6.72 ms more a decode step; not a serving call: refused
    args = dict(device="h100-sxm", phase="decode", concurrency=16)
    py = dlperf.llm("meta-llama/Llama-3.1-8B-Instruct", eager=True, raw=True, **args)
    assert py == cli("llm", "--model", "meta-llama/Llama-3.1-8B-Instruct", "--device", "h100-sxm", "--phase",
                     "decode", "--concurrency", "16", "--eager", "--json")
    plain = dlperf.llm("meta-llama/Llama-3.1-8B-Instruct", **args)
    assert abs(json.loads(py)["serving"]["tpot_ms"] - plain["serving"]["tpot_ms"] - 6.72) < 1e-3  # the JSON keeps 6 digits
    assert json.loads(py)["serving"]["eager"] is True and "eager" not in plain["serving"]
    with pytest.raises(dlperf.Error, match="serving field"):
        dlperf.llm("meta-llama/Llama-3.1-8B-Instruct", device="h100-sxm", eager=True)


def test_llm_rate_engine_same_as_cli():
    # issue 22: Poisson clients and the engine, the same bytes as the CLI; past the capacity the
    # library's overload message, naming the capacity
    assert dlperf.llm("meta-llama/Llama-3.1-8B-Instruct", device="h100-sxm", rate=2.5, prompt=1024, gen=256,
                      engine="vllm-v0", raw=True) == cli(
        "llm", "--model", "meta-llama/Llama-3.1-8B-Instruct", "--device", "h100-sxm", "--rate", "2.5", "--prompt",
        "1024", "--gen", "256", "--engine", "vllm-v0", "--json")
    with pytest.raises(dlperf.Error, match="overloaded: capacity"):
        dlperf.llm("meta-llama/Llama-3.1-8B-Instruct", device="h100-sxm", rate=5000)
    with pytest.raises(dlperf.Error, match="two client models"):
        dlperf.llm("meta-llama/Llama-3.1-8B-Instruct", device="h100-sxm", rate=2, concurrency=8)
    with pytest.raises(dlperf.Error, match="engine"):
        dlperf.llm("meta-llama/Llama-3.1-8B-Instruct", device="h100-sxm", rate=2, engine="tgi")
    with pytest.raises(dlperf.Error, match="rate"):
        dlperf.llm("meta-llama/Llama-3.1-8B-Instruct", device="h100-sxm", rate=0)


def test_errors_carry_the_library_message():
    with pytest.raises(dlperf.Error, match="unknown device 'nope'"):
        dlperf.predict(RESNET, device="nope", batch=1)
    with pytest.raises(dlperf.Error, match="mode must be one of infer or train; got 'fly'"):
        dlperf.predict(RESNET, device="t4", batch=1, mode="fly")
    with pytest.raises(dlperf.Error, match="no_such.onnx: no such file"):
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


def test_torch_batch_dims():
    # issue 25: the batch is the axes the caller names, by default dim 0 of
    # the first input only; shapes are checked before the export
    torch = pytest.importorskip("torch")

    class Two(torch.nn.Module):          # the second input is not batched
        def __init__(self):
            super().__init__()
            self.lin = torch.nn.Linear(16, 16)

        def forward(self, a, b):
            return self.lin(a) + b

    a, b = torch.randn(4, 16), torch.randn(1, 16)
    assert dlperf.inspect(Two(), (a, b), batch=8)["batch"] == 8
    # both batched: named so, both bind to batch=
    assert dlperf.inspect(Two(), (a, torch.randn(4, 16)), batch=8, batch_dims={0: 0, 1: 0})["batch"] == 8
    assert dlperf.inspect(Two(), (a, torch.randn(4, 16)), batch=8, batch_dims=[0, 0])["batch"] == 8

    class SeqFirst(torch.nn.Module):     # (seq, batch, features), as nn.LSTM by default
        def __init__(self):
            super().__init__()
            self.lin = torch.nn.Linear(32, 8)

        def forward(self, x):
            return self.lin(x).sum(0)

    x = torch.randn(10, 4, 32)
    assert dlperf.inspect(SeqFirst(), x, batch_dims={0: 1})["batch"] == 4
    assert dlperf.inspect(SeqFirst(), x, batch_dims={0: 1}, batch=64)["batch"] == 64
    with pytest.raises(dlperf.InvalidValue, match=r"batch_dims\[0\] is axis 3, but example_inputs\[0\] has shape"):
        dlperf.inspect(Two(), (a, b), batch_dims={0: 3})
    with pytest.raises(dlperf.InvalidValue, match="batch axes of example_inputs disagree"):
        dlperf.inspect(Two(), (a, torch.randn(3, 16)), batch_dims={0: 0, 1: 0})
    with pytest.raises(dlperf.InvalidValue, match="batch_dims names input 2"):
        dlperf.inspect(Two(), (a, b), batch_dims={2: 0})
    with pytest.raises(dlperf.InvalidType, match="batch_dims must be"):
        dlperf.inspect(Two(), (a, b), batch_dims="0")
    with pytest.raises(dlperf.InvalidType, match=r"example_inputs\[1\] must be a torch.Tensor"):
        dlperf.inspect(Two(), (a, [1, 2]))
    with pytest.raises(dlperf.InvalidValue, match=r"Two\(example_inputs\) failed"):
        dlperf.inspect(Two(), (torch.randn(4, 7), b))
    with pytest.raises(dlperf.InvalidType, match="batch_dims is for a torch.nn.Module"):
        dlperf.predict(RESNET, device="t4", batch=1, batch_dims={0: 0})


def test_graph_model_batch_matches_cli():
    gm = dlperf.GraphModel.load(LEARNED)
    out = gm.predict([RESNET, RESNET], batch=8)
    ref = json.loads(cli("predict-graph", "--model", LEARNED, RESNET, "--batch", "8", "--json"))["predictions"]
    assert len(out) == 2 and out[0] == out[1]
    assert out[0]["latency_ms"] == pytest.approx(ref["latency_ms"], rel=1e-5)
    gm.close()
    with pytest.raises(dlperf.Error):
        dlperf.GraphModel.load(RESNET)


def test_graph_model_path_or_list_and_checks():
    with dlperf.GraphModel.load(LEARNED) as gm:
        one = gm.predict(RESNET, batch=8)                 # a path: one dict, not its characters
        assert isinstance(one, dict) and one == gm.predict([RESNET], batch=8)[0]
        with open(RESNET, "rb") as f:
            assert gm.predict(f.read(), batch=8) == one
        assert gm.predict((RESNET, RESNET), batch=8) == [one, one]
        for kw, exc, msg in [(dict(batch=-1), ValueError, "batch must be a positive int, got -1"),
                             (dict(batch=0), ValueError, "batch must be a positive int, got 0"),
                             (dict(batch="8"), TypeError, "batch must be a positive int, got '8'"),
                             (dict(batch=8, threads=-1), ValueError, "threads must be a non-negative int"),
                             (dict(batch=8, threads=1.5), TypeError, "threads must be a non-negative int"),
                             (dict(batch=8, device=3), TypeError, "device must be a str")]:
            with pytest.raises(exc, match=msg):
                gm.predict(RESNET, **kw)
        with pytest.raises(dlperf.InvalidType, match="models must be"):
            gm.predict(3)
        with pytest.raises(FileNotFoundError, match="nope.onnx: no such file"):
            gm.predict(["nope.onnx"], batch=1)
    with pytest.raises(dlperf.FileNotFound):
        dlperf.GraphModel.load("nope.dlpm")
    with pytest.raises(dlperf.InvalidValue, match="not a dlperf model file"):
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


# ---- issue 25: Python as Python users expect ----------------------------------

def test_error_classes_are_the_builtins():
    assert issubclass(dlperf.FileNotFound, dlperf.Error) and issubclass(dlperf.FileNotFound, FileNotFoundError)
    assert issubclass(dlperf.InvalidValue, dlperf.Error) and issubclass(dlperf.InvalidValue, ValueError)
    assert issubclass(dlperf.InvalidType, dlperf.Error) and issubclass(dlperf.InvalidType, TypeError)
    with pytest.raises(FileNotFoundError) as e:
        dlperf.predict("no_such.onnx", device="t4", batch=1)
    assert e.value.filename == "no_such.onnx" and str(e.value) == "no_such.onnx: no such file (model)"
    with pytest.raises(FileNotFoundError):
        dlperf.llm(config="no_such_config.json", device="t4")
    with pytest.raises(ValueError, match="unknown device 'nope'"):
        dlperf.predict(RESNET, device="nope", batch=1)
    with pytest.raises(ValueError, match="malformed"):
        dlperf.predict(b"not an onnx file", device="t4", batch=1)
    with pytest.raises(TypeError, match="device is required"):
        dlperf.predict(RESNET, batch=1)
    with pytest.raises(TypeError, match="memory_mb is required"):
        dlperf.mig(device="h100-sxm")
    with pytest.raises(ValueError, match="unknown device"):
        dlperf.devices("nope")


@pytest.mark.parametrize("value,exc", [("8", TypeError), (8.5, TypeError), (8.0, TypeError), (True, TypeError),
                                       (float("nan"), TypeError), (0, ValueError), (-1, ValueError)])
def test_batch_checked_in_python_terms(value, exc):
    with pytest.raises(exc) as e:
        dlperf.predict(RESNET, device="t4", batch=value)
    assert str(e.value) == "batch must be a positive int, got %r" % (value,)
    assert isinstance(e.value, dlperf.Error)


def test_other_arguments_checked():
    cases = [
        (lambda: dlperf.predict(RESNET, device="t4", batch=1, runs=1.5), TypeError, "runs must be a positive int"),
        (lambda: dlperf.predict(RESNET, device="t4", batch=1, seq="128"), TypeError, "seq must be a positive int"),
        (lambda: dlperf.predict(RESNET, device=5, batch=1), TypeError, "device must be a str"),
        (lambda: dlperf.predict(RESNET, device="t4", batch=1, dtype="fp64"), ValueError,
         "dtype must be one of fp32, fp16, bf16, fp8, fp4 or int8; got 'fp64'"),
        (lambda: dlperf.predict(RESNET, device="t4", batch=1, runtime="jax"), ValueError, "runtime must be one of eager"),
        (lambda: dlperf.predict(RESNET, device="t4", batch=1, fuse="yes"), TypeError, "fuse must be True or False"),
        (lambda: dlperf.predict(RESNET, device="t4", batch=1, margin=float("inf")), ValueError, "margin must be"),
        (lambda: dlperf.predict(RESNET, device="t4", batch=1, dims={"x": 0}), ValueError, r"dims\['x'\] must be"),
        (lambda: dlperf.predict(RESNET, device="t4\0x", batch=1), ValueError, "must not contain a NUL"),
        (lambda: dlperf.llm("gpt2", device="h100-sxm", max_fit="yes"), TypeError, "max_fit must be True or False"),
        (lambda: dlperf.llm("gpt2", device="h100-sxm", concurrency=0), ValueError, "concurrency must be a positive"),
        (lambda: dlperf.llm("gpt2", device="h100-sxm", mem_fraction=1.5), ValueError, "mem_fraction must be"),
        (lambda: dlperf.llm("gpt2", device="h100-sxm", dtype="fp64"), ValueError, "dtype must be one of fp32"),
        (lambda: dlperf.llm(device="h100-sxm"), TypeError, "needs model="),
        (lambda: dlperf.mig(device="h100-sxm", memory_mb="7300"), TypeError, "memory_mb must be a number"),
        (lambda: dlperf.inspect(RESNET, batch=2.0), TypeError, "batch must be a positive int"),
        (lambda: dlperf.predict(3.5, device="t4", batch=1), TypeError, "model must be an ONNX path"),
    ]
    for call, exc, msg in cases:
        with pytest.raises(exc, match=msg):
            call()


def test_messages_speak_python():
    # the library's and the API's wording ("--batch", "field 'device'",
    # "/api/predict:") is turned into Python's
    for call in (lambda: dlperf.predict(RESNET, device="t4"), lambda: dlperf.inspect(RESNET),
                 lambda: dlperf.predict(RESNET, device="nope", batch=1),
                 lambda: dlperf.llm("gpt2", device="h100-sxm", concurrency=8, ep=2)):
        with pytest.raises(dlperf.Error) as e:
            call()
        m = str(e.value)
        assert "--" not in m and "/api/" not in m and "field '" not in m, m
    with pytest.raises(ValueError, match=r"give batch=, seq= or dims=\{'batch_size': N\}"):
        dlperf.inspect(RESNET)


def test_docstrings_list_every_allowed_value():
    import inspect
    from dlperf import _check
    devs = dlperf.devices()
    ids = [d["id"] for d in devs["devices"]]
    regions = [r["region"] for r in devs["carbon"]["regions"]]
    assert ids and regions and set(ids) == set(_check.DEVICES)
    doc = inspect.getdoc(dlperf.predict)
    for v in ids + regions + ["infer", "train", "fp32", "fp16", "bf16", "fp8", "fp4", "int8", "eager", "eager-1.x",
                              "compile", "tensorrt", "onnxruntime", "nchw", "nhwc", "adam", "sgd-momentum"]:
        assert v in doc, v
    ldoc = inspect.getdoc(dlperf.llm)
    for v in ids + ["fp32", "bf16", "int8", "nf4", "fp8", "int4", "mxfp4", "nvfp4", "agg", "prefill", "decode"]:
        assert v in ldoc, v
    assert all(d in inspect.getdoc(dlperf.mig) for d in ids)


def test_llm_serving_arguments_in_the_signature():
    import inspect
    params = inspect.signature(dlperf.llm).parameters
    for p in ("model", "config", "device", "batch", "seq", "dtype", "kv_dtype", "gen", "gpus", "region", "samples",
              "analytic", "image_tokens", "concurrency", "max_fit", "prompt", "ep", "attention_dp", "phase",
              "mem_fraction", "raw"):
        assert p in params, p
    assert not any(q.kind == q.VAR_KEYWORD for q in params.values())
    py = dlperf.llm("Qwen/Qwen3-30B-A3B", device="h100-sxm", gpus=2, dtype="bf16", concurrency=64, prompt=1024,
                    gen=256, ep=2, raw=True)
    assert py == cli("llm", "--model", "Qwen/Qwen3-30B-A3B", "--device", "h100-sxm", "--gpus", "2", "--dtype", "bf16",
                     "--concurrency", "64", "--prompt", "1024", "--gen", "256", "--ep", "2", "--json")
