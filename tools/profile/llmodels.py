"""llmodels.py — transformer language models for `--mode llm` (thesis ch. 6, Algorithm 2).

Two families built from a config:
  bert  — encoder (post-norm, learned positions, token types), returns hidden states
  gpt2  — decoder (pre-norm, causal attention, learned positions), returns LM logits

With Hugging Face `transformers` importable (and --llm-impl auto|hf) the
models are transformers' BertModel / GPT2LMHeadModel built from a config
(random weights, nothing downloaded); otherwise our own small modules below,
which follow the same block structure.  The spec records which was used
("impl": "hf" or "dlperf"), so the two never mix under one hash.

The sampler and stock tables are pure Python; torch is imported by build().
"""
import math

# name: (layers, hidden, heads, intermediate, vocab, max_positions)
_STOCK = {
    "bert": {"bert-tiny": (2, 128, 2, 512, 30522, 512), "bert-mini": (4, 256, 4, 1024, 30522, 512),
             "bert-small": (4, 512, 8, 2048, 30522, 512), "bert-medium": (8, 512, 8, 2048, 30522, 512),
             "bert-base": (12, 768, 12, 3072, 30522, 512)},
    "gpt2": {"gpt2-tiny": (2, 128, 2, 512, 50257, 1024), "gpt2-mini": (4, 256, 4, 1024, 50257, 1024),
             "gpt2-small": (6, 512, 8, 2048, 50257, 1024), "gpt2": (12, 768, 12, 3072, 50257, 1024)},
}


def _impl():
    import importlib.util
    return "hf" if importlib.util.find_spec("transformers") is not None else "dlperf"


def stock(family):
    return list(_STOCK[family])


def _spec(family, layers, hidden, heads, inter, vocab, maxpos, name=None, impl=None):
    s = {"family": family, "ctor": "BertLike" if family == "bert" else "GPT2Like",
         "args": {"num_layers": layers, "hidden": hidden, "heads": heads, "intermediate": inter,
                  "vocab": vocab, "max_positions": maxpos},
         "impl": impl or _impl()}
    if name:
        s["stock"] = name
    return s


def stock_spec(name):
    for fam, t in _STOCK.items():
        if name in t:
            return _spec(fam, *t[name], name=name)
    raise KeyError(name)


def sample(family, rng):
    heads = rng.choice([2, 4, 8, 12])
    hd = rng.choice([32, 64])
    hidden = heads * hd
    vocab = 30522 if family == "bert" else 50257
    return _spec(family, rng.randint(1, 12), hidden, heads, hidden * rng.choice([2, 4]), vocab,
                 512 if family == "bert" else 1024)


def build(spec):
    a = spec["args"]
    if spec.get("impl") == "hf":
        import transformers as tf
        if spec["family"] == "bert":
            cfg = tf.BertConfig(vocab_size=a["vocab"], hidden_size=a["hidden"], num_hidden_layers=a["num_layers"],
                                num_attention_heads=a["heads"], intermediate_size=a["intermediate"],
                                max_position_embeddings=a["max_positions"])
            m = tf.BertModel(cfg, add_pooling_layer=False)
        else:
            cfg = tf.GPT2Config(vocab_size=a["vocab"], n_embd=a["hidden"], n_layer=a["num_layers"],
                                n_head=a["heads"], n_inner=a["intermediate"], n_positions=a["max_positions"])
            m = tf.GPT2LMHeadModel(cfg)
        m.config.return_dict = False
        m.config.use_cache = False
        return _FirstOutput(m)
    return _build_own(spec)


def _build_own(spec):
    import torch
    import torch.nn as nn
    a = spec["args"]
    causal = spec["family"] == "gpt2"

    class Attention(nn.Module):
        def __init__(self):
            super().__init__()
            self.h, self.d = a["heads"], a["hidden"] // a["heads"]
            self.qkv = nn.Linear(a["hidden"], 3 * a["hidden"])
            self.out = nn.Linear(a["hidden"], a["hidden"])
            if causal:
                m = torch.tril(torch.ones(a["max_positions"], a["max_positions"], dtype=torch.bool))
                self.register_buffer("mask", m.view(1, 1, a["max_positions"], a["max_positions"]),
                                     persistent=False)

        def forward(self, x):
            b, s, e = x.shape
            q, k, v = self.qkv(x).split(e, dim=2)
            q = q.view(b, s, self.h, self.d).transpose(1, 2)
            k = k.view(b, s, self.h, self.d).transpose(1, 2)
            v = v.view(b, s, self.h, self.d).transpose(1, 2)
            w = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.d)
            if causal:
                w = w.masked_fill(~self.mask[:, :, :s, :s], torch.finfo(w.dtype).min)
            w = torch.softmax(w, dim=-1)
            y = torch.matmul(w, v).transpose(1, 2).reshape(b, s, e)
            return self.out(y)

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.attn = Attention()
            self.ln1 = nn.LayerNorm(a["hidden"])
            self.ln2 = nn.LayerNorm(a["hidden"])
            self.fc1 = nn.Linear(a["hidden"], a["intermediate"])
            self.fc2 = nn.Linear(a["intermediate"], a["hidden"])
            self.act = nn.GELU()

        def forward(self, x):
            if causal:       # GPT-2: pre-norm
                x = x + self.attn(self.ln1(x))
                return x + self.fc2(self.act(self.fc1(self.ln2(x))))
            x = self.ln1(x + self.attn(x))  # BERT: post-norm
            return self.ln2(x + self.fc2(self.act(self.fc1(x))))

    class LM(nn.Module):
        def __init__(self):
            super().__init__()
            self.tok = nn.Embedding(a["vocab"], a["hidden"])
            self.pos = nn.Embedding(a["max_positions"], a["hidden"])
            self.blocks = nn.ModuleList([Block() for _ in range(a["num_layers"])])
            self.norm = nn.LayerNorm(a["hidden"])
            if causal:
                self.head = nn.Linear(a["hidden"], a["vocab"], bias=False)
                self.head.weight = self.tok.weight      # tied, as GPT-2
            else:
                self.typ = nn.Embedding(2, a["hidden"])

        def forward(self, ids):
            s = ids.shape[1]
            pos = torch.arange(s, device=ids.device).unsqueeze(0)
            x = self.tok(ids) + self.pos(pos)
            if not causal:
                x = self.norm(x + self.typ(torch.zeros_like(ids)))
            for b in self.blocks:
                x = b(x)
            if causal:
                return self.head(self.norm(x))
            return x

    return LM()


def _FirstOutput(m):
    import torch.nn as nn

    class First(nn.Module):
        def __init__(self, inner):
            super().__init__()
            self.inner = inner

        def forward(self, ids):
            out = self.inner(ids)
            return out[0] if isinstance(out, (tuple, list)) else out

    return First(m)
