#!/usr/bin/env python3
"""fit_16_fp8_moe.py — the 16-bit and fp8 MoE kernel models of
src/llm/llm_serve.c (MOE16_*, MOEFP8_*; docs/llm.md, "16-bit and fp8 MoE
kernels"), fitted on measured kernel times, never on serving rows.

Data: aic_moe_16_fp8.csv beside this script — aiconfigurator's per-op MoE
tables (github ai-dynamo/aiconfigurator at 095f58a5, Apache-2.0 (NVIDIA),
aic-core/src/aiconfigurator_core/systems/data/{h100_sxm,h200_sxm,b200_sxm}/moe/
{vllm/0.24.0,sglang/0.5.14,trtllm/1.3.0rc20}/moe_perf.parquet, read with the
npm package hyparquet; values unchanged but for ms -> us): the rows of
moe_dtype bfloat16, fp8 (per-tensor) and fp8_block, distribution "balanced",
num_tokens <= 128, no expert parallelism, gated (SwiGLU) kernels only (the
"nongated" rows are two-matrix experts).  Each row is the whole fused-MoE
module of one layer (routing, both grouped GEMMs, activation, combine) timed
under a CUDA graph, as for fit_w4a16_moe.py.

Model, per layer (the W4A16 form of fit_w4a16_moe.py):
    t = t0 + hit x (c + slice / (eta x BW))
hit the experts the rows reach on one GPU (balanced routing: E (1 - (1 -
k/E)^T)), slice one expert's three matrices on that GPU (3 H I / moe_tp
weights) at 2 bytes (bf16) or 1 byte (fp8; the block scales are 1/16384 of
it), BW the datasheet DRAM bandwidth.  Fitted by weighted least squares on
relative error over T <= 32 (decode sizes; bigger batches are left to the
GEMM curve, which the serving model takes the max with), one fit per
format class (16-bit; fp8, per-tensor and block pooled).  Prints the refits
leaving out each GPU and each engine, and the error per kernel.
Usage: python3 tools/moe/fit_16_fp8_moe.py [--max-tokens N] [--compute] [--hits table] [--selftest]
(--hits table: the hits the balanced router really made, table_hits; h227;
--grouped: with DeepSeek-V3's group-limited router where the collector ran it, grouped_hits; h242)
(--compute adds a fourth term, the expert FLOPs at the GPU's dense peak /
eta_c, and reports whether it helps.)
"""
import csv
import math
import os
import sys
from collections import defaultdict

# --hits table (issue 22, h227): the distinct experts the tables' rows really
# hit.  aiconfigurator's "balanced" router (collector/helper.py
# balanced_logits, 095f58a5) is no random draw: token t takes experts
# (t + j ceil(E/k)) mod E (T >= ceil(E/k)), else (t ceil(E/k) / T + j
# ceil(E/k)) mod E, truncated; so T tokens hit min(E, T k) experts where the
# uniform-random count E (1 - (1 - k/E)^T) the default fit uses says fewer.
HITS = 'uniform'


def table_hits(T, E, k):
    """The distinct experts balanced_logits routes T tokens to (above)."""
    stride, seen = math.ceil(E / k), set()
    for t in range(T):
        for j in range(k):
            seen.add((t + j * stride) % E if T >= stride else int(math.fmod(t * stride / T + j * stride, E)))
    return len(seen)


# --grouped (issue 22, h242): the model shapes whose collector runs the
# balanced logits through a group-limited router.  aiconfigurator's SGLang
# 0.5.14 collector (collector/sglang/collect_moe.py, e23be5a7 and 095f58a5)
# times DeepSeek-V3's layer through SGLang's own TopK with
# use_grouped_topk (collector/cases/models/DeepseekV3ForCausalLM_cases.yaml:
# sglang_moe_num_expert_group 8, sglang_moe_topk_group 4; every other model
# there has 1 / 1), so a token keeps only the experts of its 4 best groups;
# vLLM 0.24's table shows the same halved reads at that shape (32 tokens of
# a whole layer on H200: 1,358 us against 2,438 for Kimi's 384-expert layer
# of the same matrices), TensorRT-LLM's does not (2,644 / 2,661).
GROUPED = {(7168, 2048, 256, 8): (8, 4)}
GROUPED_ENGINES = ('SGLang', 'VLLM')


def grouped_hits(T, E, k, ng, tg):
    """The distinct experts T tokens of balanced_logits reach through a
    group-limited top-k (ng groups of E / ng, the tg best kept): a group
    scores the sum of its two best experts (SGLang's biased_grouped_topk;
    here the count of the token's chosen experts in it, at most 2), ties go
    to the lower index; within the kept groups the token's own experts come
    first and the rest of its k are the lowest-index others (all tied)."""
    stride, gs, seen = math.ceil(E / k), E // ng, set()
    for t in range(T):
        mine = {(t + j * stride) % E if T >= stride else int(math.fmod(t * stride / T + j * stride, E))
                for j in range(k)}
        score = [min(2, sum(1 for e in mine if e // gs == g)) for g in range(ng)]
        keep = sorted(range(ng), key=lambda g: (-score[g], g))[:tg]
        cand = sorted(e for g in keep for e in range(g * gs, (g + 1) * gs))
        pick = [e for e in cand if e in mine][:k]
        pick += [e for e in cand if e not in mine][:k - len(pick)]
        seen.update(pick)
    return len(seen)


def hits_of(T, H, I, E, k, engine):
    """The hits a table row reached under HITS (and GROUPED when on)."""
    if HITS != 'table':
        return E * (1.0 - (1.0 - min(1.0, k / E)) ** T)
    g = GROUPED.get((H, I, E, k)) if USE_GROUPED and engine in GROUPED_ENGINES else None
    return grouped_hits(T, E, k, *g) if g else table_hits(T, E, k)


USE_GROUPED = False

BW = {'h100': 3.35e12, 'h200': 4.8e12, 'b200': 8.0e12}   # data/devices.json mem_bandwidth_gbs
PEAK = {('h100', 16): 989.4e12, ('h200', 16): 989.4e12, ('b200', 16): 2250e12,   # dense tensor peaks,
        ('h100', 8): 1978.9e12, ('h200', 8): 1978.9e12, ('b200', 8): 4500e12}    # data/devices.json
# 16: bfloat16; 8: fp8_block (e4m3, a scale per 128 x 128 block: dlperf's
# fp8 format, DLP_QT_FP8, and the DeepSeek / Qwen3 / MiniMax FP8 releases);
# 9: per-tensor fp8 (modelopt), reported beside, not compiled in
CLASS = {'bfloat16': 16, 'fp8_block': 8, 'fp8': 9}
NAME = {16: '16-bit', 8: 'fp8 block', 9: 'fp8 per-tensor'}


def load(path, max_tokens, cls):
    rows = []
    with open(path) as f:
        for r in csv.DictReader(f):
            T, H, I, k, E, tp, ep = (int(r[x]) for x in ('tokens', 'hidden', 'inter', 'topk', 'experts', 'moe_tp',
                                                          'moe_ep'))
            if T > max_tokens or r['gpu'] not in BW or ep != 1 or CLASS.get(r['dtype']) != cls:
                continue
            hit = hits_of(T, H, I, E, k, r['framework'])
            slice_b = 3.0 * H * I / tp * (2.0 if cls == 16 else 1.0)
            flops = 2.0 * T * k * 3.0 * H * I / tp
            rows.append({'gpu': r['gpu'], 'engine': r['framework'], 'kernel': r['kernel'], 'dtype': r['dtype'],
                         'shape': (H, I, E, k), 'tp': tp, 'T': T, 'hit': hit, 'x': hit * slice_b / BW[r['gpu']] * 1e6,
                         'f': flops / PEAK[(r['gpu'], min(cls, 16 if cls == 16 else 8))] * 1e6, 'y': float(r['latency_us'])})
    return rows


def selftest():
    """table_hits against counts worked by hand from balanced_logits: E 128,
    k 8 (stride 16): 2 tokens take 0, 16, ..., 112 and 8, 24, ..., 120 (16
    experts), 16 tokens (t + 16 j) mod 128, every expert once (128); E 32,
    k 4 (stride 8), 4 tokens: 2t + 8j, {0, 2, 4, 6} + {0, 8, 16, 24} (16);
    one token of E 256, k 8: 8."""
    cases = (((2, 128, 8), 16), ((16, 128, 8), 128), ((4, 32, 4), 16), ((1, 256, 8), 8), ((64, 128, 8), 128))
    bad = [(a, want, table_hits(*a)) for a, want in cases if table_hits(*a) != want]
    # grouped_hits by hand, E 256, k 8, 8 groups of 32, 4 kept: one token
    # owns one expert a group (stride 32), all groups tie, groups 0-3 kept:
    # 0, 32, 64, 96 and the fillers 1, 2, 3, 4 (8); 2 tokens own 0 + 32 j
    # and 16 + 32 j: 0, 16, 32, 48, ..., 112 and fillers 1, 2, 3, 4 (12);
    # 32 tokens own every offset of groups 0-3 (128).
    gcases = (((1, 256, 8, 8, 4), 8), ((2, 256, 8, 8, 4), 12), ((32, 256, 8, 8, 4), 128), ((4, 256, 8, 1, 1), 32))
    bad += [(a, want, grouped_hits(*a)) for a, want in gcases if grouped_hits(*a) != want]
    print("selftest:", "ok" if not bad else f"FAILED {bad}")
    if bad:
        sys.exit(1)


def feats(q, npar):
    return (1.0, q['hit'], q['x'], q['f'])[:npar]


def lsq(rows, npar):
    """Parameters minimising sum((model - y) / y)^2 (normal equations)."""
    A = [[0.0] * npar for _ in range(npar)]
    b = [0.0] * npar
    for q in rows:
        v = feats(q, npar)
        w = 1.0 / q['y'] ** 2
        for i in range(npar):
            b[i] += w * v[i] * q['y']
            for j in range(npar):
                A[i][j] += w * v[i] * v[j]
    M = [A[i] + [b[i]] for i in range(npar)]
    for i in range(npar):
        p = max(range(i, npar), key=lambda r: abs(M[r][i]))
        M[i], M[p] = M[p], M[i]
        if M[i][i] == 0:
            return None
        for r in range(npar):
            if r != i:
                f = M[r][i] / M[i][i]
                M[r] = [M[r][c] - f * M[i][c] for c in range(npar + 1)]
    return [M[i][npar] / M[i][i] for i in range(npar)]


def pred(p, q):
    return sum(a * v for a, v in zip(p, feats(q, len(p))))


def mape(rows, p):
    return 100.0 * sum(abs(pred(p, q) - q['y']) / q['y'] for q in rows) / len(rows)


def show(p):
    s = f"t0 {p[0]:.1f} us, per expert {p[1]:.3f} us, eta {1 / p[2]:.3f}"
    return s + (f", eta_c {1 / p[3]:.3f}" if len(p) > 3 and p[3] != 0 else "")


def report(cls, rows, npar):
    p = lsq(rows, npar)
    name = NAME[cls]
    print(f"{name}: {len(rows)} rows: {show(p)}, MAPE {mape(rows, p):.1f} %")
    for key in ('gpu', 'engine'):
        for g in sorted({q[key] for q in rows}):
            tr = [q for q in rows if q[key] != g]
            te = [q for q in rows if q[key] == g]
            pg = lsq(tr, npar)
            if pg:
                print(f"  leave out {key} {g}: {show(pg)}; held-out MAPE {mape(te, pg):.1f} % ({len(te)} rows), "
                      f"in-sample {mape(te, p):.1f} %")
    by = defaultdict(list)
    for q in rows:
        by[(q['gpu'], q['engine'], q['dtype'], q['kernel'])].append(q)
    print("  per kernel: rows, MAPE, median predicted / measured")
    for k, v in sorted(by.items()):
        r = sorted(pred(p, q) / q['y'] for q in v)[len(v) // 2]
        print(f"    {k[0]} {k[1]} {k[2]} {k[3][:56]}: {len(v)}, {mape(v, p):.1f} %, {r:.2f}")
    return p


def main():
    max_tokens, npar = 32, 3
    args = sys.argv[1:]
    while args:
        a = args.pop(0)
        if a == '--max-tokens' and args:
            max_tokens = int(args.pop(0))
        elif a == '--compute':
            npar = 4
        elif a == '--selftest':
            selftest()
            return
        elif a == '--grouped':
            global USE_GROUPED
            USE_GROUPED = True
        elif a == '--hits' and args:
            global HITS
            HITS = args.pop(0)
        else:
            sys.exit(f"fit_16_fp8_moe.py: unknown argument {a!r} (--max-tokens N, --compute, --hits table, --grouped)")
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'aic_moe_16_fp8.csv')
    for cls in (16, 8, 9):
        rows = load(path, max_tokens, cls)
        if len(rows) < 10:
            sys.exit(f"fit_16_fp8_moe.py: {path}: only {len(rows)} rows of class {cls}")
        report(cls, rows, npar)
    by_engine(path, max_tokens, npar)
    by_generation(path, max_tokens, npar)
    sglang_by_generation(path, max_tokens, npar)


def by_engine(path, max_tokens, npar):
    """One fit per engine and class (each engine runs its own MoE kernel:
    vLLM and SGLang triton, TensorRT-LLM cutlass / deepgemm), with its
    leave-one-GPU-out refits; the pooled fit's error on the same rows beside."""
    print("per engine (the constants llm_serve.c compiles in: MOE_FIT)")
    for cls in (16, 8):
        rows = load(path, max_tokens, cls)
        pooled = lsq(rows, npar)
        for eng in sorted({q['engine'] for q in rows}):
            er = [q for q in rows if q['engine'] == eng]
            p = lsq(er, npar)
            held = []
            for g in sorted({q['gpu'] for q in er}):
                pg = lsq([q for q in er if q['gpu'] != g], npar)
                te = [q for q in er if q['gpu'] == g]
                held.append(f"{g} {mape(te, pg):.1f} %")
            print(f"  {NAME[cls]} {eng}: {len(er)} rows: {show(p)}, MAPE {mape(er, p):.1f} % "
                  f"(pooled fit {mape(er, pooled):.1f} %); held-out GPU: {', '.join(held)}")


def by_generation(path, max_tokens, npar):
    """TensorRT-LLM's block-fp8 MoE per GPU generation (issue 22, h205): its
    table runs CUTLASS on Hopper (moe_torch_flow_cutlass: H100, H200) and
    DeepGEMM on Blackwell (deepgemm: B200), two kernels, where MOE_FITFP8's
    TensorRT-LLM row pools them.  Blackwell has one GPU in the table, so its
    held-out checks leave out each model shape (hidden, inter, experts,
    top-k) and each expert slicing (moe_tp) in turn; Hopper's leave out each
    GPU.  The pooled row's error on the same rows beside."""
    print("TensorRT-LLM fp8 block per generation (the Blackwell row llm_serve.c compiles in: MOE_FITFP8_TRT_BW)")
    rows = [q for q in load(path, max_tokens, 8) if q['engine'] == 'TRTLLM']
    pooled = lsq(rows, npar)
    for gen, gpus in (('Hopper', ('h100', 'h200')), ('Blackwell', ('b200',))):
        g = [q for q in rows if q['gpu'] in gpus]
        p = lsq(g, npar)
        kern = sorted({q['kernel'] for q in g})
        print(f"  {gen} ({', '.join(kern)}): {len(g)} rows: {show(p)}, MAPE {mape(g, p):.1f} % "
              f"(pooled fit {mape(g, pooled):.1f} %)")
        keys = ('gpu',) if len(gpus) > 1 else ('shape', 'tp')
        for key in keys:
            held = []
            for v in sorted({q[key] for q in g}):
                te = [q for q in g if q[key] == v]
                pg = lsq([q for q in g if q[key] != v], npar)
                held.append((mape(te, pg), v, len(te), mape(te, pooled)))
            lo, hi = min(held), max(held)
            mean = sum(h[0] * h[2] for h in held) / sum(h[2] for h in held)
            print(f"    leave out each {key} ({len(held)}): held-out MAPE {lo[0]:.1f}-{hi[0]:.1f} % "
                  f"(row-weighted {mean:.1f} %; pooled fit on the same rows "
                  f"{sum(h[3] * h[2] for h in held) / sum(h[2] for h in held):.1f} %)")
            for h in held:
                if key != 'shape' or h[1][0] == 7168:
                    print(f"      {key} {h[1]}: {h[2]} rows, held out {h[0]:.1f} %, pooled {h[3]:.1f} %")
        # the layer of a DEP 8 rank: whole experts (moe_tp 1)
        w = [q for q in g if q['tp'] == 1]
        r = sorted(pred(p, q) / q['y'] for q in w)[len(w) // 2]
        r0 = sorted(pred(pooled, q) / q['y'] for q in w)[len(w) // 2]
        print(f"    whole experts (moe_tp 1, {len(w)} rows): MAPE {mape(w, p):.1f} % (pooled {mape(w, pooled):.1f} %), "
              f"median predicted / measured {r:.2f} (pooled {r0:.2f})")



def sglang_by_generation(path, max_tokens, npar):
    """SGLang's block-fp8 rows per GPU generation (issue 22, h242): its
    tables time fused_moe_triton on H100 / H200 and mostly flashinfer's
    trtllm-gen kernel on B200, two kernels; each generation's refit with its
    leave-one-shape-out (row-weighted) and, on Hopper, leave-one-GPU-out
    MAPE.  The Hopper row under --hits table --grouped is
    MOE_FITFP8_SGL_GROUPED_GEN[0] in llm_serve.c."""
    print("SGLang fp8 block per generation (llm_serve.c MOE_FITFP8_SGL_GROUPED_GEN with --hits table --grouped)")
    rows = [q for q in load(path, max_tokens, 8) if q['engine'] == 'SGLang']
    for gen, gpus in (('Hopper', ('h100', 'h200')), ('Blackwell', ('b200',))):
        g = [q for q in rows if q['gpu'] in gpus]
        p = lsq(g, npar)
        held, n = 0.0, 0
        for v in sorted({q['shape'] for q in g}):
            te = [q for q in g if q['shape'] == v]
            held += mape(te, lsq([q for q in g if q['shape'] != v], npar)) * len(te)
            n += len(te)
        gp = [f"{x} {mape([q for q in g if q['gpu'] == x], lsq([q for q in g if q['gpu'] != x], npar)):.1f} %"
              for x in gpus if len(gpus) > 1]
        print(f"  {gen}: {len(g)} rows: {show(p)}, MAPE {mape(g, p):.1f} %; each shape held out {held / n:.1f} %"
              + (f"; each GPU held out: {', '.join(gp)}" if gp else ""))


if __name__ == '__main__':
    main()
