#!/usr/bin/python3
"""llm_golden.py -- independent reference numbers for the transformer builder.

Why this exists: src/llm/transformer.c builds a graph from a Hugging Face
config.json without running anything.  Its parameter count, MatMul/Gemm MACs
and quantised weight bytes must agree with what an ONNX export of the same
network gives.  `transformers` is not installed here, so this script writes
small PyTorch modules with the same structure as HF's BERT, GPT-2 and LLaMA
(Qwen2 variant: qkv bias, tied embeddings) code paths, exports them with
torch.onnx.export (opset 14, static shapes), and records:

  params       sum(p.numel()) over the module's parameters (tied weights once)
  macs         sum of MatMul/Gemm MACs from onnx shape inference on the export
  n_matmul     number of MatMul/Gemm nodes in the export
  weight_bytes bytes of the weights per dtype, by the rules of docs/llm.md:
               fp32 4 B, fp16/bf16 2 B per parameter; int8 (bitsandbytes
               LLM.int8): every nn.Linear except the LM head stores int8
               weights (1 B) + one fp32 scale per output row, everything else
               16-bit; nf4 (bitsandbytes 4-bit NF4, double quantisation):
               every nn.Linear weight except the LM head takes
               ceil(n/2) + ceil(n/64) + 4*ceil(ceil(n/64)/256) + 4 bytes,
               everything else 16-bit.

Run with Debian's /usr/bin/python3 (torch + onnx); writes tests/golden/llm.json.
"""
import io
import json
import math
import os
import sys

import onnx
import torch
import torch.nn as nn
import torch.nn.functional as F
from onnx import shape_inference

torch.manual_seed(0)


# ---------------------------------------------------------------- BERT-like
class BertLayer(nn.Module):
    def __init__(s, c):
        super().__init__()
        H, I = c["hidden_size"], c["intermediate_size"]
        s.h = c["num_attention_heads"]
        s.d = H // s.h
        s.q, s.k, s.v, s.o = (nn.Linear(H, H) for _ in range(4))
        s.ln1 = nn.LayerNorm(H, eps=c.get("layer_norm_eps", 1e-12))
        s.fc1, s.fc2 = nn.Linear(H, I), nn.Linear(I, H)
        s.ln2 = nn.LayerNorm(H, eps=c.get("layer_norm_eps", 1e-12))

    def split(s, x):
        B, S, _ = x.shape
        return x.view(B, S, s.h, s.d).transpose(1, 2)

    def forward(s, x):
        B, S, H = x.shape
        q, k, v = s.split(s.q(x)), s.split(s.k(x)), s.split(s.v(x))
        p = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(s.d), dim=-1)
        a = (p @ v).transpose(1, 2).reshape(B, S, H)
        x = s.ln1(x + s.o(a))
        return s.ln2(x + s.fc2(F.gelu(s.fc1(x))))


class BertLike(nn.Module):
    """BertModel (with pooler) / RobertaModel: post-norm encoder."""

    def __init__(s, c, pos_offset=0, pooler=True):
        super().__init__()
        H = c["hidden_size"]
        s.off = pos_offset
        s.word = nn.Embedding(c["vocab_size"], H)
        s.pos = nn.Embedding(c["max_position_embeddings"], H)
        s.typ = nn.Embedding(c["type_vocab_size"], H)
        s.ln = nn.LayerNorm(H, eps=c.get("layer_norm_eps", 1e-12))
        s.layers = nn.ModuleList(BertLayer(c) for _ in range(c["num_hidden_layers"]))
        s.pooler = nn.Linear(H, H) if pooler else None

    def forward(s, ids):
        B, S = ids.shape
        pos = torch.arange(S) + s.off
        x = s.word(ids) + s.pos(pos) + s.typ(torch.zeros_like(ids))
        x = s.ln(x)
        for l in s.layers:
            x = l(x)
        if s.pooler is None:
            return x
        return x, torch.tanh(s.pooler(x[:, 0]))


# --------------------------------------------------------------- GPT-2-like
class GPT2Block(nn.Module):
    def __init__(s, c):
        super().__init__()
        H = c["n_embd"]
        s.h, s.d = c["n_head"], H // c["n_head"]
        eps = c.get("layer_norm_epsilon", 1e-5)
        s.ln1, s.ln2 = nn.LayerNorm(H, eps=eps), nn.LayerNorm(H, eps=eps)
        s.c_attn, s.c_proj = nn.Linear(H, 3 * H), nn.Linear(H, H)
        s.c_fc, s.mlp_proj = nn.Linear(H, 4 * H), nn.Linear(4 * H, H)

    def forward(s, x):
        B, S, H = x.shape
        q, k, v = s.c_attn(s.ln1(x)).split(H, dim=2)
        q, k, v = (t.view(B, S, s.h, s.d).transpose(1, 2) for t in (q, k, v))
        p = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(s.d), dim=-1)
        x = x + s.c_proj((p @ v).transpose(1, 2).reshape(B, S, H))
        return x + s.mlp_proj(F.gelu(s.c_fc(s.ln2(x)), approximate="tanh"))


class GPT2Like(nn.Module):
    """GPT2LMHeadModel: pre-norm decoder, learned positions, tied LM head."""

    def __init__(s, c):
        super().__init__()
        H = c["n_embd"]
        s.wte = nn.Embedding(c["vocab_size"], H)
        s.wpe = nn.Embedding(c["n_positions"], H)
        s.blocks = nn.ModuleList(GPT2Block(c) for _ in range(c["n_layer"]))
        s.ln_f = nn.LayerNorm(H, eps=c.get("layer_norm_epsilon", 1e-5))

    def forward(s, ids):
        B, S = ids.shape
        x = s.wte(ids) + s.wpe(torch.arange(S))
        for b in s.blocks:
            x = b(x)
        return s.ln_f(x) @ s.wte.weight.t()


# --------------------------------------------------------------- LLaMA-like
class RMSNorm(nn.Module):
    def __init__(s, H, eps):
        super().__init__()
        s.weight, s.eps = nn.Parameter(torch.ones(H)), eps

    def forward(s, x):
        v = x.float().pow(2).mean(-1, keepdim=True)
        return s.weight * (x.float() / torch.sqrt(v + s.eps)).to(x.dtype)


def rotate_half(x):
    h = x.shape[-1] // 2
    return torch.cat((-x[..., h:], x[..., :h]), dim=-1)


class LlamaLayer(nn.Module):
    def __init__(s, c):
        super().__init__()
        H, I = c["hidden_size"], c["intermediate_size"]
        s.h = c["num_attention_heads"]
        s.kv = c.get("num_key_value_heads", s.h)
        s.d = c.get("head_dim", H // s.h)
        s.theta = c.get("rope_theta", 10000.0)
        bias = c.get("model_type") == "qwen2" or c.get("attention_bias", False)
        eps = c.get("rms_norm_eps", 1e-6)
        s.n1, s.n2 = RMSNorm(H, eps), RMSNorm(H, eps)
        s.q = nn.Linear(H, s.h * s.d, bias=bias)
        s.k = nn.Linear(H, s.kv * s.d, bias=bias)
        s.v = nn.Linear(H, s.kv * s.d, bias=bias)
        s.o = nn.Linear(s.h * s.d, H, bias=False)
        s.gate, s.up = nn.Linear(H, I, bias=False), nn.Linear(H, I, bias=False)
        s.down = nn.Linear(I, H, bias=False)

    def forward(s, x):
        B, S, H = x.shape
        g = s.h // s.kv
        y = s.n1(x)
        q = s.q(y).view(B, S, s.kv, g, s.d).permute(0, 2, 3, 1, 4)
        k = s.k(y).view(B, S, s.kv, 1, s.d).permute(0, 2, 3, 1, 4)
        v = s.v(y).view(B, S, s.kv, 1, s.d).permute(0, 2, 3, 1, 4)
        inv = 1.0 / (s.theta ** (torch.arange(0, s.d, 2).float() / s.d))
        f = torch.arange(S).float()[:, None] * inv[None, :]
        emb = torch.cat((f, f), dim=-1)
        cos, sin = emb.cos(), emb.sin()
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        p = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(s.d), dim=-1)
        a = (p @ v).permute(0, 3, 1, 2, 4).reshape(B, S, s.h * s.d)
        x = x + s.o(a)
        y = s.n2(x)
        return x + s.down(F.silu(s.gate(y)) * s.up(y))


class LlamaLike(nn.Module):
    def __init__(s, c):
        super().__init__()
        H = c["hidden_size"]
        s.embed = nn.Embedding(c["vocab_size"], H)
        s.layers = nn.ModuleList(LlamaLayer(c) for _ in range(c["num_hidden_layers"]))
        s.norm = RMSNorm(H, c.get("rms_norm_eps", 1e-6))
        s.tied = c.get("tie_word_embeddings", False)
        s.lm_head = None if s.tied else nn.Linear(H, c["vocab_size"], bias=False)

    def forward(s, ids):
        x = s.embed(ids)
        for l in s.layers:
            x = l(x)
        x = s.norm(x)
        return x @ s.embed.weight.t() if s.tied else s.lm_head(x)


# ------------------------------------------------------------ measurements
def onnx_macs(model, B, S):
    """Export, run shape inference, sum MatMul/Gemm MACs."""
    buf = io.BytesIO()
    ids = torch.zeros(B, S, dtype=torch.int64)
    torch.onnx.export(model, (ids,), buf, opset_version=14, input_names=["input_ids"],
                      do_constant_folding=True)
    m = shape_inference.infer_shapes(onnx.load_from_string(buf.getvalue()))
    shapes = {}
    for vi in list(m.graph.value_info) + list(m.graph.input) + list(m.graph.output):
        shapes[vi.name] = [d.dim_value for d in vi.type.tensor_type.shape.dim]
    for t in m.graph.initializer:
        shapes[t.name] = list(t.dims)
    macs, n_mm = 0, 0
    for n in m.graph.node:
        if n.op_type == "MatMul":
            a, y = shapes[n.input[0]], shapes[n.output[0]]
            macs += math.prod(y) * a[-1]
            n_mm += 1
        elif n.op_type == "Gemm":
            a, y = shapes[n.input[0]], shapes[n.output[0]]
            ta = [x.i for x in n.attribute if x.name == "transA"]
            k = a[0] if ta and ta[0] else a[1]
            macs += math.prod(y) * k
            n_mm += 1
    return macs, n_mm


def nf4_bytes(n):
    blocks = -(-n // 64)
    return -(-n // 2) + blocks + 4 * -(-blocks // 256) + 4


def weight_bytes(model, lm_head):
    """Bytes per dtype by the rules in the module docstring."""
    total = sum(p.numel() for p in model.parameters())
    out = {"fp32": 4 * total, "fp16": 2 * total, "bf16": 2 * total}
    q8 = q4 = 0
    qn = 0
    for mod in model.modules():
        if isinstance(mod, nn.Linear) and mod is not lm_head:
            n = mod.weight.numel()
            qn += n
            q8 += n + 4 * mod.out_features
            q4 += nf4_bytes(n)
    out["int8"] = q8 + 2 * (total - qn)
    out["nf4"] = q4 + 2 * (total - qn)
    return out


def record(name, cfg, model, B, S, lm_head=None):
    model.eval()
    params = sum(p.numel() for p in model.parameters())
    with torch.no_grad():
        macs, n_mm = onnx_macs(model, B, S)
    r = {"name": name, "config": cfg, "batch": B, "seq": S, "params": params, "macs": macs,
         "n_matmul": n_mm, "weight_bytes": weight_bytes(model, lm_head)}
    print(f"{name}: params {params} macs {macs} matmuls {n_mm}", file=sys.stderr)
    return r


def main():
    out = []
    bert_tiny = {"model_type": "bert", "hidden_size": 64, "num_hidden_layers": 2,
                 "num_attention_heads": 4, "intermediate_size": 256, "vocab_size": 1000,
                 "max_position_embeddings": 128, "type_vocab_size": 2, "hidden_act": "gelu",
                 "layer_norm_eps": 1e-12}
    out.append(record("bert-tiny", bert_tiny, BertLike(bert_tiny), 2, 16))
    bert_base = {"model_type": "bert", "hidden_size": 768, "num_hidden_layers": 12,
                 "num_attention_heads": 12, "intermediate_size": 3072, "vocab_size": 30522,
                 "max_position_embeddings": 512, "type_vocab_size": 2, "hidden_act": "gelu",
                 "layer_norm_eps": 1e-12}
    out.append(record("bert-base-uncased", bert_base, BertLike(bert_base), 1, 128))
    roberta_tiny = {"model_type": "roberta", "hidden_size": 64, "num_hidden_layers": 2,
                    "num_attention_heads": 4, "intermediate_size": 256, "vocab_size": 1000,
                    "max_position_embeddings": 130, "type_vocab_size": 1, "hidden_act": "gelu",
                    "layer_norm_eps": 1e-5, "pad_token_id": 1}
    out.append(record("roberta-tiny", roberta_tiny, BertLike(roberta_tiny, pos_offset=2), 2, 16))
    gpt2_tiny = {"model_type": "gpt2", "n_embd": 64, "n_layer": 2, "n_head": 4,
                 "vocab_size": 1000, "n_positions": 128, "activation_function": "gelu_new",
                 "layer_norm_epsilon": 1e-5}
    out.append(record("gpt2-tiny", gpt2_tiny, GPT2Like(gpt2_tiny), 2, 16))
    gpt2 = {"model_type": "gpt2", "n_embd": 768, "n_layer": 12, "n_head": 12,
            "vocab_size": 50257, "n_positions": 1024, "activation_function": "gelu_new",
            "layer_norm_epsilon": 1e-5}
    out.append(record("gpt2", gpt2, GPT2Like(gpt2), 1, 64))
    llama_tiny = {"model_type": "llama", "hidden_size": 64, "num_hidden_layers": 2,
                  "num_attention_heads": 4, "num_key_value_heads": 2, "intermediate_size": 176,
                  "vocab_size": 1000, "max_position_embeddings": 256, "rms_norm_eps": 1e-6,
                  "hidden_act": "silu", "tie_word_embeddings": False, "rope_theta": 10000.0}
    m = LlamaLike(llama_tiny)
    out.append(record("llama-tiny-gqa", llama_tiny, m, 2, 16, lm_head=m.lm_head))
    qwen_tiny = {"model_type": "qwen2", "hidden_size": 64, "num_hidden_layers": 2,
                 "num_attention_heads": 8, "num_key_value_heads": 2, "intermediate_size": 160,
                 "vocab_size": 1000, "max_position_embeddings": 256, "rms_norm_eps": 1e-6,
                 "hidden_act": "silu", "tie_word_embeddings": True, "rope_theta": 1000000.0}
    out.append(record("qwen2-tiny-tied", qwen_tiny, LlamaLike(qwen_tiny), 2, 16))
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests",
                        "golden", "llm.json")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump({"generator": "tools/golden/llm_golden.py", "torch": torch.__version__,
                   "onnx": onnx.__version__, "opset": 14, "models": out}, f, indent=1)
        f.write("\n")
    print("wrote", os.path.normpath(path), file=sys.stderr)


if __name__ == "__main__":
    main()
