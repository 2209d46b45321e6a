"""dlperf.llm(model=...) finds a folder or a Hugging Face id in the local hub
cache as `dlperf llm --model` does (src/llm/llm_find.c), on the caller's
side, and sends the config with the name the CLI prints (issue 22, scope 5;
docs/serve.md, field 'config_name'): the same bytes as the CLI on the same
inputs and environment, the same messages when nothing is found."""
import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "python"))
import dlperf  # noqa: E402

CLI = os.path.join(ROOT, os.environ.get("BUILD", "build"), "dlperf")

# a small Llama (the shape of tests/t_llm.sh's fixture).  Parameters by hand:
# embeddings 32000*1024 = 32,768,000; per layer q and o 1024*1024 = 1,048,576
# each, k and v 1024*(4 KV heads * 64) = 262,144 each, MLP 3*1024*4096 =
# 12,582,912, two norms 2*1024 = 2,048: 15,206,400; 8 layers = 121,651,200;
# final norm 1,024; an untied lm_head 32,768,000.  Total 187,188,224.
TINY = {"model_type": "llama", "hidden_size": 1024, "intermediate_size": 4096, "num_hidden_layers": 8,
        "num_attention_heads": 16, "num_key_value_heads": 4, "vocab_size": 32000,
        "max_position_embeddings": 8192, "torch_dtype": "bfloat16"}
TINY_PARAMS = 187188224


def cli(args, env=None):
    """(returncode, stdout, stderr) of the CLI with this environment."""
    r = subprocess.run([CLI, *args], cwd=ROOT, capture_output=True, text=True, env=env)
    return r.returncode, r.stdout, r.stderr


def write(path, cfg):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(cfg, f)


@pytest.fixture
def bare_env(tmp_path, monkeypatch):
    """No hub cache of the user's leaks in: every cache folder under tmp_path."""
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "nohub"))
    monkeypatch.setenv("HF_HOME", str(tmp_path / "nohome"))
    monkeypatch.setenv("HOME", str(tmp_path))
    return tmp_path


def test_llm_folder_same_bytes_as_cli(bare_env):
    folder = bare_env / "myft"
    write(str(folder / "config.json"), dict(TINY, torch_dtype="float16"))
    py = dlperf.llm(str(folder), device="h100-sxm", raw=True)
    rc, out, err = cli(["llm", "--model", str(folder), "--device", "h100-sxm", "--json"], dict(os.environ))
    assert rc == 0, err
    assert py == out
    d = json.loads(py)
    # the CLI names a folder by its name (and knows no Hugging Face id); float16 -> fp16
    assert d["model"] == "myft" and d["hf_id"] == "" and d["dtype"] == "fp16" and d["params"] == TINY_PARAMS, d
    # serving too, and a pathlib folder
    py = dlperf.llm(folder, device="h100-sxm", concurrency=4, gen=32, raw=True)
    assert py == cli(["llm", "--model", str(folder), "--device", "h100-sxm", "--concurrency", "4", "--gen", "32",
                      "--json"], dict(os.environ))[1]
    # config= a path is named as --config FILE names it (the folder), no longer "config"
    py = dlperf.llm(config=str(folder / "config.json"), device="h100-sxm", raw=True)
    assert py == cli(["llm", "--config", str(folder / "config.json"), "--device", "h100-sxm", "--json"])[1]
    assert json.loads(py)["model"] == "myft"


def test_llm_hub_cache_same_bytes_as_cli(bare_env, monkeypatch):
    hub = bare_env / "hub"
    repo = hub / "models--acme--tiny-llm"
    write(str(repo / "snapshots" / "abc123" / "config.json"), TINY)
    # a snapshot that sorts first, with twice the layers: refs/main must win over it
    write(str(repo / "snapshots" / "000old" / "config.json"), dict(TINY, num_hidden_layers=16))
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text("abc123\n")
    monkeypatch.setenv("HF_HUB_CACHE", str(hub))
    py = dlperf.llm("acme/tiny-llm", device="h100-sxm", raw=True)
    rc, out, err = cli(["llm", "--model", "acme/tiny-llm", "--device", "h100-sxm", "--json"], dict(os.environ))
    assert rc == 0, err
    assert py == out
    d = json.loads(py)
    # named as the user named it, which is its Hugging Face id; torch_dtype bfloat16 -> bf16
    assert d["model"] == d["hf_id"] == "acme/tiny-llm" and d["dtype"] == "bf16" and d["params"] == TINY_PARAMS, d
    # $HF_HOME/hub when $HF_HUB_CACHE is empty; no refs/main: the first snapshot (r1 before r2)
    home = bare_env / "home"
    write(str(home / "hub" / "models--acme--other" / "snapshots" / "r1" / "config.json"), TINY)
    write(str(home / "hub" / "models--acme--other" / "snapshots" / "r2" / "config.json"),
          dict(TINY, num_hidden_layers=16))
    monkeypatch.setenv("HF_HUB_CACHE", "")
    monkeypatch.setenv("HF_HOME", str(home))
    py = dlperf.llm("acme/other", device="h100-sxm", concurrency=4, raw=True)
    assert py == cli(["llm", "--model", "acme/other", "--device", "h100-sxm", "--concurrency", "4", "--json"],
                     dict(os.environ))[1]
    assert json.loads(py)["params"] == TINY_PARAMS
    # ~/.cache/huggingface/hub last
    monkeypatch.setenv("HF_HOME", "")
    write(str(bare_env / ".cache" / "huggingface" / "hub" / "models--acme--third" / "snapshots" / "x" /
              "config.json"), TINY)
    py = dlperf.llm("acme/third", device="h100-sxm", raw=True)
    assert py == cli(["llm", "--model", "acme/third", "--device", "h100-sxm", "--json"], dict(os.environ))[1]


def test_llm_catalogue_id_still_by_name(bare_env, monkeypatch):
    # a folder in the working directory named as a catalogue id does not shadow it (the CLI's order)
    monkeypatch.chdir(bare_env)
    write(str(bare_env / "bert-base-uncased" / "config.json"), TINY)
    py = json.loads(dlperf.llm("bert-base-uncased", device="a100-40gb", batch=8, raw=True))
    assert py["model"] == "bert-base-uncased" and py["model_type"] == "bert"


def test_llm_missing_folder_unknown_id_as_the_cli(bare_env):
    env = dict(os.environ)
    empty = bare_env / "empty"
    empty.mkdir()
    bad = bare_env / "bad"
    write(str(bad / "config.json"), {"model_type": "llama"})
    for model in (str(empty), "acme/missing", "no-such-model-at-all", str(bad)):
        rc, _, err = cli(["llm", "--model", model, "--device", "h100-sxm"], env)
        assert rc != 0 and err.startswith("dlperf: "), (model, err)
        with pytest.raises(dlperf.Error) as ei:
            dlperf.llm(model, device="h100-sxm")
        # the CLI's message in the package's terms (field 'x' -> x, as every message of dlperf)
        assert str(ei.value) == dlperf._lib._pythonic(err[len("dlperf: "):].rstrip("\n")), model
    with pytest.raises(FileNotFoundError):   # a missing file given as config=, as before
        dlperf.llm(config=str(bare_env / "nowhere.json"), device="h100-sxm")


def test_llm_config_name_refused():
    # the API field: a bad name, or one without 'config', is a 400 naming the field
    # ("" is an absent field, as every empty field of the API: the answer is then "config")
    for name in ("a/b/c", "/abs", "x/", "a" * 96, "tab\there", "../x"):
        with pytest.raises(dlperf.InvalidValue, match="config_name"):
            dlperf._request("/api/llm", dict(config=TINY, config_name=name, device="h100-sxm"))
    with pytest.raises(dlperf.InvalidValue, match="config_name"):
        dlperf._request("/api/llm", dict(model="bert-base-uncased", config_name="x", device="h100-sxm"))
    with pytest.raises(dlperf.InvalidValue, match="config_name"):
        dlperf._request("/api/llm", dict(config=TINY, config_name=7, device="h100-sxm"))
    d = dlperf._request("/api/llm", dict(config=TINY, config_name="org/name", device="h100-sxm"))
    assert d["model"] == d["hf_id"] == "org/name"
    d = dlperf._request("/api/llm", dict(config=TINY, config_name="a" * 95, device="h100-sxm"))
    assert d["model"] == "a" * 95 and d["hf_id"] == ""


def test_plan_folder_and_hub_cache_same_bytes_as_cli(bare_env, monkeypatch):
    # dlperf.plan(model=...) finds a folder or a hub-cache id as `dlperf plan --model` does
    # (dlp_llm_model_find, as llm), names it as the CLI does, and gives the CLI's bytes
    folder = bare_env / "myft"
    write(str(folder / "config.json"), dict(TINY, torch_dtype="float16"))
    args = ["--prompt", "512", "--gen", "128", "--devices", "h100-sxm,l4", "--dtypes", "bf16,fp8", "--json"]
    py = dlperf.plan(str(folder), prompt=512, gen=128, devices=["h100-sxm", "l4"], dtypes=["bf16", "fp8"], raw=True)
    rc, out, err = cli(["plan", "--model", str(folder), *args], dict(os.environ))
    assert rc == 0, err
    assert py == out
    assert json.loads(py)["plans"], py   # the tiny model fits: plans, not an empty answer
    assert "myft" in py and '"acme/' not in py
    hub = bare_env / "hub"
    write(str(hub / "models--acme--tiny-llm" / "snapshots" / "abc123" / "config.json"), TINY)
    monkeypatch.setenv("HF_HUB_CACHE", str(hub))
    py = dlperf.plan("acme/tiny-llm", prompt=512, gen=128, devices=["h100-sxm", "l4"], dtypes=["bf16", "fp8"],
                     raw=True)
    rc, out, err = cli(["plan", "--model", "acme/tiny-llm", *args], dict(os.environ))
    assert rc == 0, err
    assert py == out and "acme/tiny-llm" in py
    # a miss: the CLI's message, in the package's terms, as llm(model=)
    rc, _, err = cli(["plan", "--model", "acme/missing", *args], dict(os.environ))
    assert rc != 0 and err.startswith("dlperf: "), err
    with pytest.raises(dlperf.Error) as ei:
        dlperf.plan("acme/missing", prompt=512, gen=128)
    assert str(ei.value) == dlperf._lib._pythonic(err[len("dlperf: "):].rstrip("\n"))
