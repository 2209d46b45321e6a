#!/usr/bin/python3
"""lm_golden.py -- independent reference numbers for the small language model
of src/lm (docs/gnnlm.md).

A LLaMA-style decoder written here from torch operations (float64, autograd),
not from dlperf code: token embedding, RMSNorm, rotate-half RoPE, grouped-query
causal attention, SwiGLU MLP, final RMSNorm, head tied to the embedding, with
LoRA (y = x W^T + alpha/r (x A^T) B^T) on wq wk wv wo w1 w3 w2, soft-prompt
vectors prepended to each row, and a graph vector put through a Linear
projection at every <gslot> position (token id 261).  Loss: mean next-token
cross-entropy over the text positions whose next token is neither <pad> (256)
nor <gslot>; the last position has no target.

Weights are not random: tensor `name` holds off + scale * sin(0.713 i + phase)
(element i in row-major order, computed in double, rounded to float32), with
(off, scale, phase) per name written to the JSON, so the C test rebuilds the
same model without sharing an RNG.  The graph vectors follow the same rule.

Writes tests/golden/lm.json: config, tokens, weight rules, logits (B*T*V),
loss, and d loss / d (graph vectors, several adapter tensors, the token
embedding when the base is trainable).

Run with Debian's /usr/bin/python3 (torch 1.13).  ~1 s.
"""
import json
import math
import os

import torch

torch.set_default_dtype(torch.float64)

CFG = dict(vocab=300, dim=16, n_layers=2, n_heads=4, n_kv_heads=2, ffn=24, max_seq=16,
           rope_theta=10000.0, norm_eps=1e-5, lora_rank=2, lora_alpha=4.0, n_soft=2,
           graph_dim=5)
PAD, GSLOT = 256, 261
TOKENS = [[257, 72, 259, 261, 260, 101, 108, 290],
          [257, 259, 261, 260, 33, 299, 5, 256]]


def names():
    c = CFG
    out = [("tok_embeddings.weight", (c["vocab"], c["dim"]))]
    hd = c["dim"] // c["n_heads"]
    kvd = c["n_kv_heads"] * hd
    r = c["lora_rank"]
    for l in range(c["n_layers"]):
        p = "layers.%d." % l
        out.append((p + "attention_norm.weight", (c["dim"],)))
        for nm, i, o in (("attention.wq", c["dim"], c["dim"]), ("attention.wk", c["dim"], kvd),
                         ("attention.wv", c["dim"], kvd), ("attention.wo", c["dim"], c["dim"])):
            out += [(p + nm + ".weight", (o, i)), (p + nm + ".lora_A", (r, i)),
                    (p + nm + ".lora_B", (o, r))]
        out.append((p + "ffn_norm.weight", (c["dim"],)))
        for nm, i, o in (("feed_forward.w1", c["dim"], c["ffn"]),
                         ("feed_forward.w3", c["dim"], c["ffn"]),
                         ("feed_forward.w2", c["ffn"], c["dim"])):
            out += [(p + nm + ".weight", (o, i)), (p + nm + ".lora_A", (r, i)),
                    (p + nm + ".lora_B", (o, r))]
    out.append(("norm.weight", (c["dim"],)))
    out.append(("soft_prompt", (c["n_soft"], c["dim"])))
    out.append(("graph_proj.weight", (c["dim"], c["graph_dim"])))
    out.append(("graph_proj.bias", (c["dim"],)))
    return out


def rule_for(k, name):
    if name.endswith("norm.weight"):
        return (1.0, 0.2, 0.3 + 0.5 * k)
    if name.endswith("bias"):
        return (0.0, 0.1, 0.9 + 0.5 * k)
    return (0.0, 0.4, 0.1 + 0.37 * k)


def make(rule, shape):
    off, scale, phase = rule
    n = 1
    for s in shape:
        n *= s
    v = [float(torch.tensor(off + scale * math.sin(0.713 * i + phase), dtype=torch.float32))
         for i in range(n)]
    return torch.tensor(v).reshape(shape).requires_grad_(True)


def rmsnorm(x, w):
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + CFG["norm_eps"]) * w


def rope(x):
    # x (B, S, nh, hd); rotate-half with theta^(-2i/hd)
    S, hd = x.shape[1], x.shape[3]
    inv = CFG["rope_theta"] ** (-torch.arange(0, hd, 2).double() / hd)
    ang = torch.arange(S).double()[:, None] * inv[None, :]
    cos = torch.cat([ang.cos(), ang.cos()], -1)[None, :, None, :]
    sin = torch.cat([ang.sin(), ang.sin()], -1)[None, :, None, :]
    x1, x2 = x[..., : hd // 2], x[..., hd // 2:]
    return x * cos + torch.cat([-x2, x1], -1) * sin


def main():
    c = CFG
    W = {}
    rules = {}
    for k, (nm, shape) in enumerate(names()):
        rules[nm] = rule_for(k, nm)
        W[nm] = make(rules[nm], shape)
    grule = (0.0, 0.8, 2.1)
    B, T = len(TOKENS), len(TOKENS[0])
    gvec = make(grule, (B, c["graph_dim"]))
    D, H, KV = c["dim"], c["n_heads"], c["n_kv_heads"]
    hd = D // H
    S = c["n_soft"] + T
    scale = c["lora_alpha"] / c["lora_rank"]

    def proj(x, p):
        return x @ W[p + ".weight"].T + scale * (x @ W[p + ".lora_A"].T) @ W[p + ".lora_B"].T

    tok = torch.tensor(TOKENS)
    emb = W["tok_embeddings.weight"][tok]                        # (B, T, D)
    gp = gvec @ W["graph_proj.weight"].T + W["graph_proj.bias"]  # (B, D)
    slot = (tok == GSLOT).double()[..., None]
    emb = emb * (1 - slot) + gp[:, None, :] * slot
    x = torch.cat([W["soft_prompt"][None].expand(B, -1, -1), emb], 1)  # (B, S, D)
    mask = torch.triu(torch.ones(S, S, dtype=torch.bool), 1)
    for l in range(c["n_layers"]):
        p = "layers.%d." % l
        h = rmsnorm(x, W[p + "attention_norm.weight"])
        q = rope(proj(h, p + "attention.wq").view(B, S, H, hd)).transpose(1, 2)
        k = rope(proj(h, p + "attention.wk").view(B, S, KV, hd)).transpose(1, 2)
        v = proj(h, p + "attention.wv").view(B, S, KV, hd).transpose(1, 2)
        k = k.repeat_interleave(H // KV, dim=1)
        v = v.repeat_interleave(H // KV, dim=1)
        sc = (q @ k.transpose(-1, -2)) / math.sqrt(hd)
        sc = sc.masked_fill(mask, float("-inf"))
        a = torch.softmax(sc, -1) @ v                              # (B, H, S, hd)
        a = a.transpose(1, 2).reshape(B, S, D)
        x = x + proj(a, p + "attention.wo")
        h = rmsnorm(x, W[p + "ffn_norm.weight"])
        f = torch.nn.functional.silu(proj(h, p + "feed_forward.w1")) * proj(h, p + "feed_forward.w3")
        x = x + proj(f, p + "feed_forward.w2")
    hid = rmsnorm(x, W["norm.weight"])[:, c["n_soft"]:]            # (B, T, D)
    logits = hid @ W["tok_embeddings.weight"].T                    # (B, T, V)
    tgt = []
    for row in TOKENS:
        r = []
        for t in range(T):
            nx = row[t + 1] if t + 1 < T else -1
            r.append(-1 if nx in (PAD, GSLOT) else nx)
        tgt.append(r)
    tg = torch.tensor(tgt).view(-1)
    loss = torch.nn.functional.cross_entropy(logits.reshape(B * T, -1), tg, ignore_index=-1)
    loss.backward()

    def flat(t):
        return [round(float(v), 12) for v in t.detach().reshape(-1)]

    grads = {nm: flat(W[nm].grad) for nm in (
        "soft_prompt", "graph_proj.weight", "graph_proj.bias", "layers.0.attention.wq.lora_A",
        "layers.0.attention.wk.lora_B", "layers.1.feed_forward.w2.lora_B",
        "layers.1.feed_forward.w1.lora_A", "tok_embeddings.weight", "layers.0.attention_norm.weight",
        "layers.1.attention.wv.weight")}
    grads["gvec"] = flat(gvec.grad)
    out = {
        "meta": {"torch": torch.__version__, "script": "tools/golden/lm_golden.py",
                 "value_rule": "off + scale * sin(0.713 i + phase), float32"},
        "config": c, "tokens": TOKENS, "targets": tgt,
        "rules": {nm: list(r) for nm, r in rules.items()}, "gvec_rule": list(grule),
        "loss": float(loss), "logits": flat(logits), "grads": grads,
    }
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "golden",
                        "lm.json")
    # one top-level key per line, each value compact
    with open(path, "w") as f:
        f.write("{\n" + ",\n".join("%s: %s" % (json.dumps(k), json.dumps(out[k], sort_keys=True,
                                                                       separators=(",", ":")))
                                    for k in sorted(out)) + "\n}\n")
    print("wrote %s: loss %.6f, %d logits" % (os.path.normpath(path), float(loss), len(out["logits"])))


if __name__ == "__main__":
    main()
