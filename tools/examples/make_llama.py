#!/usr/bin/python3
"""make_llama.py — tests/golden/llama/llama-small.onnx, an independent export of a
Llama for the llm/predict agreement test (docs/llm.md, "llm and predict").

A Llama-3-style decoder written in plain PyTorch (GQA 16 heads / 4 KV heads,
head_dim 64, hidden 1024, 8 layers, intermediate 4096, vocab 32000, RMSNorm
eps 1e-5, rope theta 500000, tied embeddings; 143M parameters — small enough
for torch.onnx's 2 GiB protobuf limit in fp32, which Llama-3.2-1B is not),
the way Hugging Face writes it (RMSNorm
as pow/mean/add/rsqrt/mul/mul, rotate_half rotary, repeat_kv GQA, SwiGLU MLP),
random weights, exported by torch.onnx (opset 13) and stripped of weight bytes
like every graph of our corpus.  Nothing here comes from dlperf's builder.

    /usr/bin/python3 tools/examples/make_llama.py [OUT_DIR]   (default tests/golden/llama)

Writes llama-small.onnx and config.json (the same dims, for `dlperf llm --config`).
"""
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "profile"))

CFG = {"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 1024,
       "num_hidden_layers": 8, "num_attention_heads": 16, "num_key_value_heads": 4, "head_dim": 64,
       "intermediate_size": 4096, "vocab_size": 32000, "rms_norm_eps": 1e-5, "rope_theta": 500000.0,
       "max_position_embeddings": 8192, "tie_word_embeddings": True, "hidden_act": "silu",
       "torch_dtype": "bfloat16"}


def build():
    import torch
    import torch.nn as nn
    c = CFG
    H, nh, nkv, hd = c["hidden_size"], c["num_attention_heads"], c["num_key_value_heads"], c["head_dim"]

    class RMSNorm(nn.Module):
        def __init__(self):
            super().__init__()
            self.weight = nn.Parameter(torch.ones(H))

        def forward(self, x):
            v = x.pow(2).mean(-1, keepdim=True)
            return self.weight * (x * torch.rsqrt(v + c["rms_norm_eps"]))

    def rotate_half(x):
        x1, x2 = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2:]
        return torch.cat((-x2, x1), dim=-1)

    class Attn(nn.Module):
        def __init__(self):
            super().__init__()
            self.q_proj = nn.Linear(H, nh * hd, bias=False)
            self.k_proj = nn.Linear(H, nkv * hd, bias=False)
            self.v_proj = nn.Linear(H, nkv * hd, bias=False)
            self.o_proj = nn.Linear(nh * hd, H, bias=False)

        def forward(self, x, cos, sin, mask):
            b, s, _ = x.shape
            q = self.q_proj(x).view(b, s, nh, hd).transpose(1, 2)
            k = self.k_proj(x).view(b, s, nkv, hd).transpose(1, 2)
            v = self.v_proj(x).view(b, s, nkv, hd).transpose(1, 2)
            q = q * cos + rotate_half(q) * sin
            k = k * cos + rotate_half(k) * sin
            k = k[:, :, None].expand(b, nkv, nh // nkv, s, hd).reshape(b, nh, s, hd)
            v = v[:, :, None].expand(b, nkv, nh // nkv, s, hd).reshape(b, nh, s, hd)
            w = torch.matmul(q, k.transpose(2, 3)) / math.sqrt(hd) + mask
            w = torch.softmax(w, dim=-1)
            y = torch.matmul(w, v).transpose(1, 2).reshape(b, s, nh * hd)
            return self.o_proj(y)

    class MLP(nn.Module):
        def __init__(self):
            super().__init__()
            self.gate_proj = nn.Linear(H, c["intermediate_size"], bias=False)
            self.up_proj = nn.Linear(H, c["intermediate_size"], bias=False)
            self.down_proj = nn.Linear(c["intermediate_size"], H, bias=False)

        def forward(self, x):
            return self.down_proj(nn.functional.silu(self.gate_proj(x)) * self.up_proj(x))

    class Layer(nn.Module):
        def __init__(self):
            super().__init__()
            self.input_layernorm, self.post_attention_layernorm = RMSNorm(), RMSNorm()
            self.self_attn, self.mlp = Attn(), MLP()

        def forward(self, x, cos, sin, mask):
            x = x + self.self_attn(self.input_layernorm(x), cos, sin, mask)
            return x + self.mlp(self.post_attention_layernorm(x))

    class Llama(nn.Module):
        def __init__(self):
            super().__init__()
            self.embed_tokens = nn.Embedding(c["vocab_size"], H)
            self.layers = nn.ModuleList([Layer() for _ in range(c["num_hidden_layers"])])
            self.norm = RMSNorm()
            self.lm_head = nn.Linear(H, c["vocab_size"], bias=False)
            self.lm_head.weight = self.embed_tokens.weight
            inv = 1.0 / (c["rope_theta"] ** (torch.arange(0, hd, 2).float() / hd))
            self.register_buffer("inv_freq", inv, persistent=False)

        def forward(self, ids):
            s = ids.shape[1]
            x = self.embed_tokens(ids)
            t = torch.arange(s, dtype=torch.float32)
            f = torch.outer(t, self.inv_freq)
            emb = torch.cat((f, f), dim=-1)
            cos, sin = emb.cos()[None, None], emb.sin()[None, None]
            i = torch.arange(s)
            mask = torch.where(i[None, :] > i[:, None], torch.tensor(torch.finfo(torch.float32).min),
                               torch.tensor(0.0))[None, None]
            for layer in self.layers:
                x = layer(x, cos, sin, mask)
            return self.lm_head(self.norm(x))

    return Llama()


def main():
    import torch
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "..", "tests", "golden", "llama")
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(0)
    import onnxexport
    data = onnxexport.export_model(build(), {"family": "gpt2"})
    path = os.path.join(out, "llama-small.onnx")
    with open(path + ".tmp", "wb") as f:
        f.write(data)
    os.replace(path + ".tmp", path)
    with open(os.path.join(out, "config.json"), "w") as f:
        json.dump(CFG, f, indent=1)
    print("wrote %s (%d bytes) and config.json" % (path, len(data)))


if __name__ == "__main__":
    main()
