#!/usr/bin/python3
"""make_hf_tiny.py -- a tiny LLaMA-family model in Hugging Face layout, written
by our own code, for tests/test_lm_hf.c (dlp__lm_load_hf, docs/gnnlm.md).

Writes tests/golden/hf_tiny/:
  bf16/         config.json (model_type llama, untied head), tokenizer.json
                (merges as "a b" strings), model.safetensors (BF16 weights,
                the norms F16)
  f32_sharded/  config.json (model_type mistral, tied head, sliding window
                32), tokenizer.json (merges as [a, b] pairs),
                model-00001-of-00002.safetensors, model-00002-of-00002.safetensors,
                model.safetensors.index.json (F32, the same weights, no lm_head)
  ref.json      the sample text, its Hugging Face token ids, the model input
                and the reference logits of both variants (float64), and of
                the bf16 variant with LLaMA-3.1 RoPE scaling (rope_scaling_llama3)

No safetensors / transformers / tokenizers package: the safetensors format
(8-byte little-endian header length, JSON header of dtype / shape /
data_offsets, raw little-endian bytes) and tokenizer.json are written by
hand.  The tokenizer is a byte-level BPE (GPT-2 byte-to-unicode mapping)
learned here by a plain BPE trainer on a small English text; the byte
tokens get shuffled ids so that the loader must permute rows.  The
reference forward is an independent float64 torch implementation of the
LLaMA forward (RMSNorm, RoPE rotate-half, GQA, SwiGLU), run on the weights
after their BF16 rounding, which is exactly what both files hold.

Run: /usr/bin/python3 tools/golden/make_hf_tiny.py   (deterministic)
"""
import json
import math
import os
import random
import re
import struct

import torch

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "golden",
                   "hf_tiny")

DIM, LAYERS, HEADS, KV_HEADS, FFN = 16, 2, 4, 2, 40
EPS, THETA = 1e-5, 100.0
N_MERGES = 260
PAD_ROWS = 3          # vocab_size beyond the tokenizer, as real checkpoints pad

TRAIN_TEXT = """\
The performance of a deep learning model depends on the model, the device and the
software that runs it. A predictor reads the graph of the model and the description of
the device, then it predicts the latency, the throughput and the memory of the model on
the device. The graph of a model is a list of layers: convolution, matrix multiplication,
attention, normalization and pooling. The device has a peak rate, a memory bandwidth and
a cache. The predictor learns from measured runs of many models on many devices, and it
predicts the runs of new models on new devices. The language model reads the text of the
device and the token of the graph, and it answers with the latency of the model.
The quick brown fox jumps over the lazy dog, then the lazy dog sleeps under the tree.
Models that run on the device learn the latency; the device runs the models it learns.
A transformer stacks attention blocks; every block normalizes its input, projects queries,
keys and values, rotates the queries and keys by their position, and mixes the values with
a softmax over the scores. A feed forward block follows with a gated activation. Training
minimizes the cross entropy of the next token; inference generates one token at a time.
Tokenizers split the text into words and merge frequent pairs of symbols into tokens, and
the merges are applied in the order they were learned. Compilers fuse kernels, schedule
memory transfers and choose tile sizes; profilers measure kernels, transfers and idle time.
Benchmarks report throughput in samples per second and latency in milliseconds per batch.
Convolutional networks process images; recurrent networks process sequences; graph neural
networks process graphs of nodes and edges with messages passed between neighbours.
"""

SAMPLE_TEXT = ("The predictor reads the graph of the model, then it predicts the latency on the "
               "device.\nA lazy fox learns zebras! Quickly: models run  twice.")


def bytes_to_unicode():
    """GPT-2's reversible byte -> printable character table."""
    keep = (list(range(ord("!"), ord("~") + 1)) + list(range(ord("\xa1"), ord("\xac") + 1)) +
            list(range(ord("\xae"), ord("\xff") + 1)))
    table, extra = {}, 0
    for b in range(256):
        if b in keep:
            table[b] = chr(b)
        else:
            table[b] = chr(256 + extra)
            extra += 1
    return table


B2U = bytes_to_unicode()

# GPT-2's pre-tokenizer with ASCII classes (the texts here are ASCII)
PRETOK = re.compile(r"'s|'t|'re|'ve|'m|'ll|'d| ?[A-Za-z]+| ?[0-9]+| ?[^\sA-Za-z0-9]+|\s+(?!\S)|\s+")


def words(text):
    return ["".join(B2U[b] for b in w.encode()) for w in PRETOK.findall(text)]


def train_bpe(text, n_merges):
    counts = {}
    for w in words(text):
        counts[w] = counts.get(w, 0) + 1
    seqs = {w: list(w) for w in counts}
    merges = []
    for _ in range(n_merges):
        pairs = {}
        for w, s in seqs.items():
            for a, b in zip(s, s[1:]):
                pairs[(a, b)] = pairs.get((a, b), 0) + counts[w]
        if not pairs:
            break
        best = min(pairs, key=lambda p: (-pairs[p], p))
        if pairs[best] < 2:
            break
        merges.append(best)
        for w, s in seqs.items():
            o, i = [], 0
            while i < len(s):
                if i + 1 < len(s) and (s[i], s[i + 1]) == best:
                    o.append(s[i] + s[i + 1])
                    i += 2
                else:
                    o.append(s[i])
                    i += 1
            seqs[w] = o
    return merges


def encode(text, merges, vocab):
    rank = {m: i for i, m in enumerate(merges)}
    ids = []
    for w in words(text):
        s = list(w)
        while len(s) > 1:
            best = min(range(len(s) - 1), key=lambda i: (rank.get((s[i], s[i + 1]), 1 << 30), i))
            if (s[best], s[best + 1]) not in rank:
                break
            r = rank[(s[best], s[best + 1])]
            o, i = [], 0
            while i < len(s):     # every occurrence of that pair, left to right
                if i + 1 < len(s) and rank.get((s[i], s[i + 1])) == r:
                    o.append(s[i] + s[i + 1])
                    i += 2
                else:
                    o.append(s[i])
                    i += 1
            s = o
        ids += [vocab[t] for t in s]
    return ids


def tokenizer_json(vocab, merges, added, pairs_format):
    return {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": [{"id": i, "content": c, "single_word": False, "lstrip": False,
                          "rstrip": False, "normalized": False, "special": True}
                         for c, i in added],
        "normalizer": None,
        "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True,
                          "use_regex": True},
        "post_processor": None,
        "decoder": {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": True,
                    "use_regex": True},
        "model": {"type": "BPE", "dropout": None, "unk_token": None,
                  "continuing_subword_prefix": None, "end_of_word_suffix": None,
                  "fuse_unk": False, "byte_fallback": False, "ignore_merges": False,
                  "vocab": vocab,
                  "merges": [[a, b] for a, b in merges] if pairs_format
                  else [a + " " + b for a, b in merges]},
    }


def st_bytes(t, dtype):
    """Little-endian bytes of a float64 tensor in dtype (exact: checked)."""
    if dtype == "BF16":
        h = t.to(torch.bfloat16)
        raw = h.view(torch.int16).numpy().astype("<i2").tobytes()
    elif dtype == "F16":
        h = t.to(torch.float16)
        raw = h.numpy().astype("<f2").tobytes()
    else:
        h = t.to(torch.float32)
        raw = h.numpy().astype("<f4").tobytes()
    assert torch.equal(h.to(torch.float64), t), "value not exact in " + dtype
    return raw


def write_safetensors(path, tensors):
    """tensors: list of (name, float64 tensor, dtype)."""
    header, blobs, off = {"__metadata__": {"format": "pt"}}, [], 0
    for name, t, dt in tensors:
        raw = st_bytes(t, dt)
        header[name] = {"dtype": dt, "shape": list(t.shape), "data_offsets": [off, off + len(raw)]}
        blobs.append(raw)
        off += len(raw)
    h = json.dumps(header, separators=(",", ":")).encode()
    h += b" " * (-len(h) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)))
        f.write(h)
        for b in blobs:
            f.write(b)
    return off


def rmsnorm(x, w):
    return x * torch.rsqrt((x * x).mean(-1, keepdim=True) + EPS) * w


def llama3_scale(inv, sc):
    """LLaMA-3.1's frequency scaling: keep short wavelengths, divide long ones
    by the factor, blend linearly in 1/wavelength in between."""
    out = []
    for f in inv.tolist():
        w = 2 * math.pi / f
        lo_w = sc["original_max_position_embeddings"] / sc["low_freq_factor"]
        hi_w = sc["original_max_position_embeddings"] / sc["high_freq_factor"]
        if w < hi_w:
            out.append(f)
        elif w > lo_w:
            out.append(f / sc["factor"])
        else:
            t = ((sc["original_max_position_embeddings"] / w - sc["low_freq_factor"]) /
                 (sc["high_freq_factor"] - sc["low_freq_factor"]))
            out.append((1 - t) * f / sc["factor"] + t * f)
    return torch.tensor(out, dtype=torch.float64)


def rope(x, theta, scaling=None):
    """x (T, heads, hd), rotate-half: pairs i and i + hd/2."""
    T, _, hd = x.shape
    inv = 1.0 / theta ** (torch.arange(0, hd, 2, dtype=torch.float64) / hd)
    if scaling:
        inv = llama3_scale(inv, scaling)
    ang = torch.arange(T, dtype=torch.float64)[:, None] * inv[None, :]
    cos = torch.cat([ang.cos(), ang.cos()], -1)[:, None, :]
    sin = torch.cat([ang.sin(), ang.sin()], -1)[:, None, :]
    x1, x2 = x[..., : hd // 2], x[..., hd // 2:]
    return x * cos + torch.cat([-x2, x1], -1) * sin


def forward(W, ids, tied, scaling=None):
    hd = DIM // HEADS
    x = W["model.embed_tokens.weight"][ids]
    T = len(ids)
    mask = torch.triu(torch.full((T, T), float("-inf"), dtype=torch.float64), 1)
    for l in range(LAYERS):
        p = "model.layers.%d." % l
        h = rmsnorm(x, W[p + "input_layernorm.weight"])
        q = (h @ W[p + "self_attn.q_proj.weight"].T).view(T, HEADS, hd)
        k = (h @ W[p + "self_attn.k_proj.weight"].T).view(T, KV_HEADS, hd)
        v = (h @ W[p + "self_attn.v_proj.weight"].T).view(T, KV_HEADS, hd)
        q, k = rope(q, THETA, scaling), rope(k, THETA, scaling)
        outs = []
        for hh in range(HEADS):
            kv = hh // (HEADS // KV_HEADS)
            s = q[:, hh] @ k[:, kv].T / hd ** 0.5 + mask
            outs.append(torch.softmax(s, -1) @ v[:, kv])
        x = x + torch.cat(outs, -1) @ W[p + "self_attn.o_proj.weight"].T
        h = rmsnorm(x, W[p + "post_attention_layernorm.weight"])
        g = h @ W[p + "mlp.gate_proj.weight"].T
        u = h @ W[p + "mlp.up_proj.weight"].T
        x = x + (torch.nn.functional.silu(g) * u) @ W[p + "mlp.down_proj.weight"].T
    h = rmsnorm(x, W["model.norm.weight"])
    head = W["model.embed_tokens.weight"] if tied else W["lm_head.weight"]
    return h @ head.T


def main():
    random.seed(14)
    torch.manual_seed(14)
    merges = train_bpe(TRAIN_TEXT, N_MERGES)
    # vocab: the 256 byte tokens in a shuffled order, then the merges' results
    # (a repeated result keeps its first id), one token no merge reaches, and
    # the two added special tokens
    order = list(range(256))
    random.shuffle(order)
    vocab = {}
    for b in order:
        vocab[B2U[b]] = len(vocab)
    for a, b in merges:
        vocab.setdefault(a + b, len(vocab))
    vocab["\u0120qqqq"] = len(vocab)              # unreachable by the merges
    added = [("<|begin_of_text|>", len(vocab)), ("<|end_of_text|>", len(vocab) + 1)]
    bos, eos = added[0][1], added[1][1]
    V = len(vocab) + len(added) + PAD_ROWS

    # weights, rounded to BF16 once: both variants hold exactly these values
    def rnd(*shape, std=1.0, mean=0.0):
        t = torch.randn(*shape, dtype=torch.float64) * std + mean
        return t.to(torch.bfloat16).to(torch.float64)

    hd, kvd = DIM // HEADS, KV_HEADS * DIM // HEADS
    W = {"model.embed_tokens.weight": rnd(V, DIM)}
    for l in range(LAYERS):
        p = "model.layers.%d." % l
        W[p + "input_layernorm.weight"] = rnd(DIM, std=0.1, mean=1.0)
        W[p + "self_attn.q_proj.weight"] = rnd(DIM, DIM, std=0.5)
        W[p + "self_attn.k_proj.weight"] = rnd(kvd, DIM, std=0.5)
        W[p + "self_attn.v_proj.weight"] = rnd(kvd, DIM, std=0.5)
        W[p + "self_attn.o_proj.weight"] = rnd(DIM, DIM, std=0.3)
        W[p + "post_attention_layernorm.weight"] = rnd(DIM, std=0.1, mean=1.0)
        W[p + "mlp.gate_proj.weight"] = rnd(FFN, DIM, std=0.4)
        W[p + "mlp.up_proj.weight"] = rnd(FFN, DIM, std=0.4)
        W[p + "mlp.down_proj.weight"] = rnd(DIM, FFN, std=0.2)
    W["model.norm.weight"] = rnd(DIM, std=0.1, mean=1.0)
    W["lm_head.weight"] = rnd(V, DIM, std=0.3)

    sample_ids = encode(SAMPLE_TEXT, merges, vocab)
    inp = [bos] + sample_ids[:9]
    keep = 4                      # the last positions' logits go into ref.json
    logits_untied = forward(W, inp, tied=False)
    logits_tied = forward(W, inp, tied=True)
    # LLaMA-3.1 RoPE scaling on the bf16 variant (the C test edits its
    # config.json): with hd 4 and theta 100 the frequencies 1 and 0.1 have
    # wavelengths 6.3 (kept, < 128/4) and 63 (blended, between 32 and 128)
    llama3 = {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0,
              "high_freq_factor": 4.0, "original_max_position_embeddings": 128}
    logits_llama3 = forward(W, inp, tied=False, scaling=llama3)

    base = {"hidden_size": DIM, "intermediate_size": FFN, "num_hidden_layers": LAYERS,
            "num_attention_heads": HEADS, "num_key_value_heads": KV_HEADS, "rms_norm_eps": EPS,
            "rope_theta": THETA, "vocab_size": V, "max_position_embeddings": 64,
            "hidden_act": "silu", "bos_token_id": bos, "eos_token_id": eos,
            "rope_scaling": None, "attention_bias": False}

    # variant 1: llama, untied, BF16 (norms F16), one file
    d = os.path.join(OUT, "bf16")
    os.makedirs(d, exist_ok=True)
    cfg = dict(base, architectures=["LlamaForCausalLM"], model_type="llama",
               tie_word_embeddings=False, torch_dtype="bfloat16")
    with open(os.path.join(d, "config.json"), "w") as f:
        json.dump(cfg, f, indent=2)
    with open(os.path.join(d, "tokenizer.json"), "w") as f:
        json.dump(tokenizer_json(vocab, merges, added, False), f, ensure_ascii=False)
    write_safetensors(os.path.join(d, "model.safetensors"),
                      [(n, t, "F16" if n.endswith("norm.weight") else "BF16")
                       for n, t in W.items()])

    # variant 2: mistral, tied (no lm_head), F32 in two shards with an index
    d = os.path.join(OUT, "f32_sharded")
    os.makedirs(d, exist_ok=True)
    cfg = dict(base, architectures=["MistralForCausalLM"], model_type="mistral",
               tie_word_embeddings=True, sliding_window=32, torch_dtype="float32")
    with open(os.path.join(d, "config.json"), "w") as f:
        json.dump(cfg, f, indent=2)
    with open(os.path.join(d, "tokenizer.json"), "w") as f:
        json.dump(tokenizer_json(vocab, merges, added, True), f, ensure_ascii=False)
    names = [n for n in W if n != "lm_head.weight"]
    shards = [names[: len(names) // 2], names[len(names) // 2:]]
    wmap, total = {}, 0
    for i, part in enumerate(shards):
        fn = "model-%05d-of-%05d.safetensors" % (i + 1, len(shards))
        total += write_safetensors(os.path.join(d, fn), [(n, W[n], "F32") for n in part])
        for n in part:
            wmap[n] = fn
    with open(os.path.join(d, "model.safetensors.index.json"), "w") as f:
        json.dump({"metadata": {"total_size": total}, "weight_map": wmap}, f, indent=2)

    ref = {"note": "tools/golden/make_hf_tiny.py; ids are Hugging Face ids of the tokenizer.json",
           "n_merges": len(merges), "hf_vocab": len(vocab), "vocab_size": V,
           "bos": bos, "eos": eos,
           "sample_text": SAMPLE_TEXT, "sample_ids": sample_ids, "input_ids": inp,
           "logit_rows": list(range(len(inp) - keep, len(inp))),
           "logits_untied": [float("%.7g" % v) for v in logits_untied[-keep:].flatten().tolist()],
           "logits_tied": [float("%.7g" % v) for v in logits_tied[-keep:].flatten().tolist()],
           "rope_scaling_llama3": llama3,
           "logits_llama3": [float("%.7g" % v) for v in logits_llama3[-keep:].flatten().tolist()]}
    with open(os.path.join(OUT, "ref.json"), "w") as f:
        json.dump(ref, f, separators=(",", ":"))
    print("merges %d, vocab %d (+%d added, +%d padding) = %d, sample %d tokens, input %d" %
          (len(merges), len(vocab), len(added), PAD_ROWS, V, len(sample_ids), len(inp)))


if __name__ == "__main__":
    main()
