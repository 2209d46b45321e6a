"""families.py — torchvision classification families and seeded variant samplers.

A *spec* is a JSON-serialisable dict that fully determines a network:

    {"family": "resnet", "ctor": "ResNet", "args": {...}, "resolution": 128,
     "stock": "resnet18"}            # "stock" only for torchvision's own configurations

`build(spec)` turns it into an nn.Module through torchvision's model classes
(ResNet(block, layers, groups, width_per_group), MobileNetV2(width_mult,
inverted_residual_setting), VisionTransformer(...), ...).  The sampler part of
this module is pure Python (no torch import), so the harness parent can plan
without loading torch; `build` imports torch/torchvision lazily.

Variants of a family: `variants(family, n, seed)` gives the stock
configurations first (resnet18 ... resnet152 at 224x224, or at a resolution
drawn from `resolutions` when 224 is not in it), then sampled ones; variant k
of a family only depends on (seed, family, k), never on other families or on n.
"""
import hashlib
import json
import math
import random

__all__ = ["FAMILIES", "LLM_FAMILIES", "RESOLUTIONS", "stock", "sample", "variants", "build",
           "spec_json", "spec_hash", "variant_name", "input_shape", "min_resolution"]

# Input resolutions the samplers draw from (square images).
RESOLUTIONS = (64, 96, 128, 160, 192, 224)

FAMILIES = ("alexnet", "convnext", "densenet", "efficientnet", "efficientnet_v2", "googlenet",
            "inception", "maxvit", "mnasnet", "mobilenet_v2", "mobilenet_v3", "regnet", "resnet",
            "resnext", "shufflenet_v2", "squeezenet", "swin", "vgg", "vit", "wide_resnet")
# Transformer language models of `--mode llm` (llm.py builds them).
LLM_FAMILIES = ("bert", "gpt2")

# Smallest input each family accepts (pooling/stride chains).
_MIN_RES = {"alexnet": 64, "inception": 75, "maxvit": 64, "googlenet": 32, "squeezenet": 32}
# Families whose only knob is the input size (plus a version flag): their
# sampler draws from a wider, finer set so the unlabeled corpus gets distinct graphs.
_FINE_RES = tuple(sorted(set(range(64, 321, 8)) | set(range(223, 256))))


def min_resolution(family):
    return _MIN_RES.get(family, 32)


def spec_json(spec):
    """Canonical JSON (sorted keys, no spaces): what is hashed and stored."""
    return json.dumps(spec, sort_keys=True, separators=(",", ":"))


def spec_hash(spec):
    return hashlib.sha256(spec_json(spec).encode()).hexdigest()


def variant_name(spec):
    """resnet18@224 for stock configurations, resnet-1a2b3c4d5e@96 for sampled ones."""
    if spec.get("family") in LLM_FAMILIES:
        base = spec.get("stock") or "%s-%s" % (spec["family"], spec_hash(spec)[:10])
        return base
    base = spec.get("stock") or "%s-%s" % (spec["family"], spec_hash(spec)[:10])
    return "%s@%d" % (base, spec["resolution"])


def input_shape(spec):
    """Input of one sample: [3, H, W] for images, ["seq"] for token models."""
    if spec["family"] in LLM_FAMILIES:
        return ["seq"]
    r = spec["resolution"]
    return [3, r, r]


# ---------------------------------------------------------------------------
# stock torchvision configurations (as the torchvision builders set them)

def _resnet_args(block, layers, groups=1, wpg=64):
    return {"block": block, "layers": list(layers), "groups": groups, "width_per_group": wpg}


_EFF_B = {  # name: (width_mult, depth_mult, dropout)
    "efficientnet_b0": (1.0, 1.0, 0.2), "efficientnet_b1": (1.0, 1.1, 0.2),
    "efficientnet_b2": (1.1, 1.2, 0.3), "efficientnet_b3": (1.2, 1.4, 0.3),
    "efficientnet_b4": (1.4, 1.8, 0.4), "efficientnet_b5": (1.6, 2.2, 0.4),
    "efficientnet_b6": (1.8, 2.6, 0.5), "efficientnet_b7": (2.0, 3.1, 0.5)}
_EFF_B0 = [  # expand, kernel, stride, in, out, layers (torchvision's b0 table)
    [1, 3, 1, 32, 16, 1], [6, 3, 2, 16, 24, 2], [6, 5, 2, 24, 40, 2], [6, 3, 2, 40, 80, 3],
    [6, 5, 1, 80, 112, 3], [6, 5, 2, 112, 192, 4], [6, 3, 1, 192, 320, 1]]
_EFF_V2 = {  # kind (fused/mb), expand, kernel, stride, in, out, layers
    "efficientnet_v2_s": [["fused", 1, 3, 1, 24, 24, 2], ["fused", 4, 3, 2, 24, 48, 4],
                          ["fused", 4, 3, 2, 48, 64, 4], ["mb", 4, 3, 2, 64, 128, 6],
                          ["mb", 6, 3, 1, 128, 160, 9], ["mb", 6, 3, 2, 160, 256, 15]],
    "efficientnet_v2_m": [["fused", 1, 3, 1, 24, 24, 3], ["fused", 4, 3, 2, 24, 48, 5],
                          ["fused", 4, 3, 2, 48, 80, 5], ["mb", 4, 3, 2, 80, 160, 7],
                          ["mb", 6, 3, 1, 160, 176, 14], ["mb", 6, 3, 2, 176, 304, 18],
                          ["mb", 6, 3, 1, 304, 512, 5]],
    "efficientnet_v2_l": [["fused", 1, 3, 1, 32, 32, 4], ["fused", 4, 3, 2, 32, 64, 7],
                          ["fused", 4, 3, 2, 64, 96, 7], ["mb", 4, 3, 2, 96, 192, 10],
                          ["mb", 6, 3, 1, 192, 224, 19], ["mb", 6, 3, 2, 224, 384, 25],
                          ["mb", 6, 3, 1, 384, 640, 7]]}
_MBV2 = [[1, 16, 1, 1], [6, 24, 2, 2], [6, 32, 3, 2], [6, 64, 4, 2], [6, 96, 3, 1],
         [6, 160, 3, 2], [6, 320, 1, 1]]
# MobileNetV3 tables: in, kernel, expanded, out, se, activation, stride (dilation 1)
_MBV3 = {
    "large": [[16, 3, 16, 16, 0, "RE", 1], [16, 3, 64, 24, 0, "RE", 2], [24, 3, 72, 24, 0, "RE", 1],
              [24, 5, 72, 40, 1, "RE", 2], [40, 5, 120, 40, 1, "RE", 1], [40, 5, 120, 40, 1, "RE", 1],
              [40, 3, 240, 80, 0, "HS", 2], [80, 3, 200, 80, 0, "HS", 1], [80, 3, 184, 80, 0, "HS", 1],
              [80, 3, 184, 80, 0, "HS", 1], [80, 3, 480, 112, 1, "HS", 1], [112, 3, 672, 112, 1, "HS", 1],
              [112, 5, 672, 160, 1, "HS", 2], [160, 5, 960, 160, 1, "HS", 1], [160, 5, 960, 160, 1, "HS", 1]],
    "small": [[16, 3, 16, 16, 1, "RE", 2], [16, 3, 72, 24, 0, "RE", 2], [24, 3, 88, 24, 0, "RE", 1],
              [24, 5, 96, 40, 1, "HS", 2], [40, 5, 240, 40, 1, "HS", 1], [40, 5, 240, 40, 1, "HS", 1],
              [40, 5, 120, 48, 1, "HS", 1], [48, 5, 144, 48, 1, "HS", 1], [48, 5, 288, 96, 1, "HS", 2],
              [96, 5, 576, 96, 1, "HS", 1], [96, 5, 576, 96, 1, "HS", 1]]}
_MBV3_LAST = {"large": 1280, "small": 1024}
_VGG_CFG = {"A": [64, "M", 128, "M", 256, 256, "M", 512, 512, "M", 512, 512, "M"],
            "B": [64, 64, "M", 128, 128, "M", 256, 256, "M", 512, 512, "M", 512, 512, "M"],
            "D": [64, 64, "M", 128, 128, "M", 256, 256, 256, "M", 512, 512, 512, "M", 512, 512, 512, "M"],
            "E": [64, 64, "M", 128, 128, "M", 256, 256, 256, 256, "M", 512, 512, 512, 512, "M",
                  512, 512, 512, 512, "M"]}
_REGNET = {  # depth, w_0, w_a, w_m, group_width, se_ratio
    "regnet_y_400mf": (16, 48, 27.89, 2.09, 8, 0.25), "regnet_y_800mf": (14, 56, 38.84, 2.4, 16, 0.25),
    "regnet_y_1_6gf": (27, 48, 20.71, 2.65, 24, 0.25), "regnet_y_3_2gf": (21, 80, 42.63, 2.66, 24, 0.25),
    "regnet_y_8gf": (17, 192, 76.82, 2.19, 56, 0.25), "regnet_y_16gf": (18, 200, 106.23, 2.48, 112, 0.25),
    "regnet_y_32gf": (20, 232, 115.89, 2.53, 232, 0.25),
    "regnet_x_400mf": (22, 24, 24.48, 2.54, 16, None), "regnet_x_800mf": (16, 56, 35.73, 2.28, 16, None),
    "regnet_x_1_6gf": (18, 80, 34.01, 2.25, 24, None), "regnet_x_3_2gf": (25, 88, 26.31, 2.25, 48, None),
    "regnet_x_8gf": (23, 80, 49.56, 2.88, 120, None), "regnet_x_16gf": (22, 216, 55.59, 2.1, 128, None),
    "regnet_x_32gf": (23, 320, 69.86, 2.0, 168, None)}
_CONVNEXT = {"convnext_tiny": ([[96, 192, 3], [192, 384, 3], [384, 768, 9], [768, None, 3]], 0.1),
             "convnext_small": ([[96, 192, 3], [192, 384, 3], [384, 768, 27], [768, None, 3]], 0.4),
             "convnext_base": ([[128, 256, 3], [256, 512, 3], [512, 1024, 27], [1024, None, 3]], 0.5),
             "convnext_large": ([[192, 384, 3], [384, 768, 3], [768, 1536, 27], [1536, None, 3]], 0.5)}
_VIT = {"vit_b_16": (16, 12, 12, 768, 3072), "vit_b_32": (32, 12, 12, 768, 3072),
        "vit_l_16": (16, 24, 16, 1024, 4096), "vit_l_32": (32, 24, 16, 1024, 4096),
        "vit_h_14": (14, 32, 16, 1280, 5120)}
_SWIN = {  # version, embed_dim, depths, heads, window, stochastic depth
    "swin_t": (1, 96, [2, 2, 6, 2], [3, 6, 12, 24], 7, 0.2), "swin_s": (1, 96, [2, 2, 18, 2], [3, 6, 12, 24], 7, 0.3),
    "swin_b": (1, 128, [2, 2, 18, 2], [4, 8, 16, 32], 7, 0.5),
    "swin_v2_t": (2, 96, [2, 2, 6, 2], [3, 6, 12, 24], 8, 0.2),
    "swin_v2_s": (2, 96, [2, 2, 18, 2], [3, 6, 12, 24], 8, 0.3),
    "swin_v2_b": (2, 128, [2, 2, 18, 2], [4, 8, 16, 32], 8, 0.5)}


def _stock_table():
    t = {}
    for n, (b, l) in {"resnet18": ("BasicBlock", [2, 2, 2, 2]), "resnet34": ("BasicBlock", [3, 4, 6, 3]),
                      "resnet50": ("Bottleneck", [3, 4, 6, 3]), "resnet101": ("Bottleneck", [3, 4, 23, 3]),
                      "resnet152": ("Bottleneck", [3, 8, 36, 3])}.items():
        t[n] = ("resnet", "ResNet", _resnet_args(b, l))
    t["resnext50_32x4d"] = ("resnext", "ResNet", _resnet_args("Bottleneck", [3, 4, 6, 3], 32, 4))
    t["resnext101_32x8d"] = ("resnext", "ResNet", _resnet_args("Bottleneck", [3, 4, 23, 3], 32, 8))
    t["resnext101_64x4d"] = ("resnext", "ResNet", _resnet_args("Bottleneck", [3, 4, 23, 3], 64, 4))
    t["wide_resnet50_2"] = ("wide_resnet", "ResNet", _resnet_args("Bottleneck", [3, 4, 6, 3], 1, 128))
    t["wide_resnet101_2"] = ("wide_resnet", "ResNet", _resnet_args("Bottleneck", [3, 4, 23, 3], 1, 128))
    for cfg, names in {"A": "vgg11", "B": "vgg13", "D": "vgg16", "E": "vgg19"}.items():
        t[names] = ("vgg", "VGG", {"cfg": _VGG_CFG[cfg], "batch_norm": False})
        t[names + "_bn"] = ("vgg", "VGG", {"cfg": _VGG_CFG[cfg], "batch_norm": True})
    t["mobilenet_v2"] = ("mobilenet_v2", "MobileNetV2", {"width_mult": 1.0, "setting": _MBV2})
    for a in ("large", "small"):
        t["mobilenet_v3_" + a] = ("mobilenet_v3", "MobileNetV3",
                                  {"setting": _MBV3[a], "width_mult": 1.0, "last_channel": _MBV3_LAST[a]})
    for n, a in {"mnasnet0_5": 0.5, "mnasnet0_75": 0.75, "mnasnet1_0": 1.0, "mnasnet1_3": 1.3}.items():
        t[n] = ("mnasnet", "MNASNet", {"alpha": a})
    for n, (w, d, dr) in _EFF_B.items():
        t[n] = ("efficientnet", "EfficientNet", {"width_mult": w, "depth_mult": d, "dropout": dr,
                                                 "setting": _EFF_B0})
    for n, s in _EFF_V2.items():
        t[n] = ("efficientnet_v2", "EfficientNetV2", {"setting": s, "last_channel": 1280})
    for n, (g, b, f) in {"densenet121": (32, [6, 12, 24, 16], 64), "densenet161": (48, [6, 12, 36, 24], 96),
                         "densenet169": (32, [6, 12, 32, 32], 64), "densenet201": (32, [6, 12, 48, 32], 64)}.items():
        t[n] = ("densenet", "DenseNet", {"growth_rate": g, "block_config": b, "num_init_features": f})
    t["googlenet"] = ("googlenet", "GoogLeNet", {})
    t["inception_v3"] = ("inception", "Inception3", {})
    for n, (rep, ch) in {"shufflenet_v2_x0_5": ([4, 8, 4], [24, 48, 96, 192, 1024]),
                         "shufflenet_v2_x1_0": ([4, 8, 4], [24, 116, 232, 464, 1024]),
                         "shufflenet_v2_x1_5": ([4, 8, 4], [24, 176, 352, 704, 1024]),
                         "shufflenet_v2_x2_0": ([4, 8, 4], [24, 244, 488, 976, 2048])}.items():
        t[n] = ("shufflenet_v2", "ShuffleNetV2", {"stages_repeats": rep, "stages_out_channels": ch})
    t["squeezenet1_0"] = ("squeezenet", "SqueezeNet", {"version": "1_0"})
    t["squeezenet1_1"] = ("squeezenet", "SqueezeNet", {"version": "1_1"})
    for n, (d, w0, wa, wm, g, se) in _REGNET.items():
        t[n] = ("regnet", "RegNet", {"depth": d, "w_0": w0, "w_a": wa, "w_m": wm, "group_width": g,
                                     "se_ratio": se, "bottleneck_multiplier": 1.0})
    for n, (bs, sd) in _CONVNEXT.items():
        t[n] = ("convnext", "ConvNeXt", {"block_setting": bs, "stochastic_depth_prob": sd})
    for n, (p, l, h, d, m) in _VIT.items():
        t[n] = ("vit", "VisionTransformer", {"patch_size": p, "num_layers": l, "num_heads": h,
                                             "hidden_dim": d, "mlp_dim": m})
    for n, (v, e, d, h, w, sd) in _SWIN.items():
        t[n] = ("swin", "SwinTransformer", {"version": v, "patch_size": 4, "embed_dim": e, "depths": d,
                                            "num_heads": h, "window_size": w, "stochastic_depth_prob": sd})
    t["maxvit_t"] = ("maxvit", "MaxVit", {"stem_channels": 64, "block_channels": [64, 128, 256, 512],
                                          "block_layers": [2, 2, 5, 2], "head_dim": 32, "partition_size": 7})
    t["alexnet"] = ("alexnet", "AlexNet", {})
    return t


_STOCK = _stock_table()
_STOCK_RES = {"inception_v3": 299}


def stock(family):
    """Stock torchvision names of a family, in a fixed order (smallest first where it matters)."""
    return [n for n, v in _STOCK.items() if v[0] == family]


def _stock_spec(name, resolution=None):
    fam, ctor, args = _STOCK[name]
    r = resolution or _STOCK_RES.get(name, 224)
    if not valid_resolution(fam, r):
        r = _STOCK_RES.get(name, 224)
    if fam == "vit":
        r = r // args["patch_size"] * args["patch_size"]
    if fam == "maxvit":
        r = r // 32 * 32
        args = dict(args, partition_size=_maxvit_partition(r // 32, args["partition_size"]))
    return {"family": fam, "ctor": ctor, "args": json.loads(json.dumps(args)), "resolution": r, "stock": name}


def _maxvit_partition(last_grid, want):
    """Largest partition size <= want that divides the last stage's grid (MaxVit needs it)."""
    for p in range(min(want, last_grid), 0, -1):
        if last_grid % p == 0:
            return p
    return 1


# ---------------------------------------------------------------------------
# samplers

def _div(v, d=8, min_value=None):
    """torchvision's _make_divisible."""
    min_value = min_value or d
    nv = max(min_value, int(v + d / 2) // d * d)
    if nv < 0.9 * v:
        nv += d
    return nv


def _alexnet_grid(r):
    """AlexNet's feature-map side before its AdaptiveAvgPool2d((6, 6))."""
    x = (r + 4 - 11) // 4 + 1
    for _ in range(3):
        x = (x - 3) // 2 + 1
    return x


def valid_resolution(family, r):
    """torch 1.13's ONNX exporter handles AdaptiveAvgPool2d only when the input side is a
    multiple of the output side: AlexNet (6x6) and VGG (7x7) export at few sizes."""
    if r < min_resolution(family):
        return False
    if family == "alexnet":
        g = _alexnet_grid(r)
        return g >= 6 and g % 6 == 0
    if family == "vgg":
        return (r // 32) >= 7 and (r // 32) % 7 == 0
    return True


def _res(rng, family, resolutions):
    opts = [r for r in resolutions if valid_resolution(family, r)]
    if not opts:  # e.g. VGG with only small resolutions asked: its smallest exportable size
        opts = [next(r for r in range(min_resolution(family), 4096) if valid_resolution(family, r))]
    return rng.choice(opts)


def _sample_args(family, rng):
    c = rng.choice
    if family == "resnet":
        block = c(["BasicBlock", "Bottleneck"])
        layers = [rng.randint(1, 3), rng.randint(1, 5), rng.randint(1, 8 if block == "BasicBlock" else 12),
                  rng.randint(1, 3)]
        # torchvision's BasicBlock only supports width_per_group 64
        return "ResNet", _resnet_args(block, layers, 1, 64 if block == "BasicBlock" else c([32, 48, 64, 80]))
    if family == "resnext":
        layers = [rng.randint(1, 3), rng.randint(1, 4), rng.randint(1, 12), rng.randint(1, 3)]
        return "ResNet", _resnet_args("Bottleneck", layers, c([8, 16, 32, 64]), c([2, 4, 8]))
    if family == "wide_resnet":
        layers = [rng.randint(1, 3), rng.randint(1, 4), rng.randint(1, 8), rng.randint(1, 3)]
        # BasicBlock only supports width_per_group 64 in torchvision: widen through Bottleneck
        return "ResNet", _resnet_args("Bottleneck", layers, 1, c([96, 128, 160, 192, 256]))
    if family == "vgg":
        cfg = []
        chans = [64, 128, 256, 512, 512]
        wm = c([0.25, 0.5, 0.75, 1.0])
        for s in range(5):  # the classifier wants 512 channels out of the last stage
            cfg += [int(chans[s] * wm) if s < 4 else 512] * rng.randint(1, 4) + ["M"]
        return "VGG", {"cfg": cfg, "batch_norm": rng.random() < 0.5}
    if family == "mobilenet_v2":
        setting = []
        for t, ch, n, s in _MBV2:
            setting.append([t if t == 1 else c([2, 3, 4, 6, 8]), ch, max(1, n + rng.randint(-1, 2)), s])
        return "MobileNetV2", {"width_mult": c([0.35, 0.5, 0.75, 1.0, 1.3, 1.4]), "setting": setting}
    if family == "mobilenet_v3":
        arch = c(["large", "small"])
        setting = []
        for row in _MBV3[arch]:
            cin, k, exp, cout, se, act, s = row
            if s == 1 and cin == cout and rng.random() < 0.25:
                continue                     # drop a repeat block
            setting.append([cin, c([3, 5]), int(exp * c([0.5, 0.75, 1.0, 1.25, 1.5])), cout,
                            int(rng.random() < 0.5), act, s])
        return "MobileNetV3", {"setting": setting, "width_mult": c([0.35, 0.5, 0.75, 1.0, 1.25]),
                               "last_channel": _MBV3_LAST[arch]}
    if family == "mnasnet":
        return "MNASNet", {"alpha": round(rng.randint(5, 30) * 0.05, 2)}
    if family == "efficientnet":
        return "EfficientNet", {"width_mult": round(rng.uniform(0.5, 2.0), 1),
                                "depth_mult": round(rng.uniform(0.5, 3.0), 1), "dropout": 0.2,
                                "setting": _EFF_B0}
    if family == "efficientnet_v2":
        base = _EFF_V2[c(sorted(_EFF_V2))]
        wm, dm = c([0.5, 0.75, 1.0, 1.25]), c([0.25, 0.5, 0.75, 1.0])
        setting = []
        prev = None
        for kind, e, k, s, cin, cout, n in base:
            cin = prev if prev is not None else _div(cin * wm)
            cout = _div(cout * wm)
            setting.append([kind, e, k, s, cin, cout, max(1, int(math.ceil(n * dm)))])
            prev = cout
        return "EfficientNetV2", {"setting": setting, "last_channel": c([640, 1280])}
    if family == "densenet":
        return "DenseNet", {"growth_rate": c([12, 16, 24, 32, 48]),
                            "block_config": [rng.randint(2, 8), rng.randint(2, 16), rng.randint(2, 32),
                                             rng.randint(2, 24)],
                            "num_init_features": c([32, 48, 64, 96])}
    if family in ("googlenet", "inception", "alexnet"):
        return {"googlenet": "GoogLeNet", "inception": "Inception3", "alexnet": "AlexNet"}[family], {}
    if family == "squeezenet":
        return "SqueezeNet", {"version": c(["1_0", "1_1"])}
    if family == "shufflenet_v2":
        base = c([24, 48, 64, 96, 116, 176, 244])
        return "ShuffleNetV2", {"stages_repeats": [rng.randint(1, 6), rng.randint(1, 10), rng.randint(1, 6)],
                                "stages_out_channels": [24, base, base * 2, base * 4, c([512, 1024, 2048])]}
    if family == "regnet":
        # the RegNet paper's design space (AnyNetX/Y constraints, narrowed to small models)
        g = c([8, 16, 24, 32, 48, 64])
        return "RegNet", {"depth": rng.randint(8, 28), "w_0": rng.randint(2, 12) * 8,
                          "w_a": round(rng.uniform(8.0, 64.0), 2), "w_m": round(rng.uniform(1.5, 3.0), 2),
                          "group_width": g, "se_ratio": c([None, 0.25]), "bottleneck_multiplier": 1.0}
    if family == "convnext":
        d = c([32, 48, 64, 96, 128])
        depths = [rng.randint(1, 3), rng.randint(1, 3), rng.randint(1, 12), rng.randint(1, 3)]
        return "ConvNeXt", {"block_setting": [[d, 2 * d, depths[0]], [2 * d, 4 * d, depths[1]],
                                              [4 * d, 8 * d, depths[2]], [8 * d, None, depths[3]]],
                            "stochastic_depth_prob": 0.1}
    if family == "vit":
        heads = c([2, 3, 4, 6, 8, 12])
        hd = c([32, 48, 64])
        return "VisionTransformer", {"patch_size": c([8, 14, 16, 32]), "num_layers": rng.randint(2, 12),
                                     "num_heads": heads, "hidden_dim": heads * hd,
                                     "mlp_dim": heads * hd * c([2, 3, 4])}
    if family == "swin":
        e = c([32, 48, 64, 96])
        h0 = c([h for h in (1, 2, 3, 4) if e % h == 0])  # every stage's width must split into its heads
        return "SwinTransformer", {"version": c([1, 2]), "patch_size": c([2, 4]), "embed_dim": e,
                                   "depths": [rng.randint(1, 2), rng.randint(1, 2), rng.randint(1, 6),
                                              rng.randint(1, 2)],
                                   "num_heads": [h0, 2 * h0, 4 * h0, 8 * h0],
                                   "window_size": c([4, 7, 8]), "stochastic_depth_prob": 0.1}
    if family == "maxvit":
        hd = c([16, 32])  # must divide every block's channels
        ch = c([32, 48, 64] if hd == 16 else [32, 64])
        return "MaxVit", {"stem_channels": ch, "block_channels": [ch, 2 * ch, 4 * ch, 8 * ch],
                          "block_layers": [rng.randint(1, 2), rng.randint(1, 2), rng.randint(1, 5),
                                           rng.randint(1, 2)],
                          "head_dim": hd, "partition_size": c([2, 4, 7])}
    raise ValueError("unknown family '%s' (known: %s)" % (family, ", ".join(FAMILIES + LLM_FAMILIES)))


def sample(family, rng, resolutions=RESOLUTIONS):
    """One random spec of a family (rng: random.Random)."""
    if family in LLM_FAMILIES:
        import llmodels  # pure Python sampler
        return llmodels.sample(family, rng)
    ctor, args = _sample_args(family, rng)
    fine = family in ("alexnet", "googlenet", "inception", "squeezenet", "vgg")
    res_set = resolutions
    if fine and tuple(resolutions) == tuple(RESOLUTIONS):
        res_set = _FINE_RES
    r = _res(rng, family, res_set)
    if family == "vit":
        r = max(args["patch_size"] * 2, r // args["patch_size"] * args["patch_size"])
    if family == "maxvit":
        r = max(64, r // 32 * 32)
        args["partition_size"] = _maxvit_partition(r // 32, args["partition_size"])
    return {"family": family, "ctor": ctor, "args": args, "resolution": r}


def _identity(spec):
    """Hash of a spec without its stock name: the same network drawn twice is one variant."""
    return spec_hash({k: v for k, v in spec.items() if k != "stock"})


def variants(family, n, seed=0, resolutions=RESOLUTIONS, stock_first=True, accept=None, max_tries=50,
             stock_max=-1):
    """n distinct specs of a family: stock configurations first (when stock_first), then
    sampled ones.  Deterministic in (family, k, seed).  `accept(spec) -> bool` filters
    (e.g. a parameter limit); a rejected draw is replaced by the next sub-draw.  Fewer
    than n come back when the family has no more distinct specs."""
    out, seen = [], set()
    if family in LLM_FAMILIES:
        import llmodels
        names = llmodels.stock(family) if stock_first else []
        pool = [llmodels.stock_spec(x) for x in names]
    else:
        names = stock(family) if stock_first else []
        r0 = 224 if 224 in resolutions else max(resolutions)
        pool = [_stock_spec(x, None if r0 == 224 else max(min_resolution(family), r0)) for x in names]
    if stock_max >= 0:
        pool = pool[:stock_max]
    for s in pool:
        if len(out) >= n:
            break
        h = _identity(s)
        if h not in seen and (accept is None or accept(s)):
            seen.add(h)
            out.append(s)
    k = 0
    misses = 0
    while len(out) < n and misses < max_tries * 4:
        got = None
        for t in range(max_tries):
            rng = random.Random("%s:%s:%d:%d" % (seed, family, k, t))
            s = sample(family, rng, resolutions)
            h = _identity(s)
            if h in seen or (accept is not None and not accept(s)):
                continue
            got = s
            seen.add(h)
            break
        k += 1
        if got is None:
            misses += 1
            continue
        out.append(got)
    return out


# ---------------------------------------------------------------------------
# building (imports torch lazily)

def build(spec, num_classes=1000):
    """The nn.Module of a spec (random init from the current torch seed)."""
    fam = spec["family"]
    if fam in LLM_FAMILIES:
        import llmodels
        return llmodels.build(spec)
    import functools
    import torch.nn as nn
    import torchvision.models as tvm
    a = spec["args"]
    ctor = spec["ctor"]
    if ctor == "ResNet":
        from torchvision.models.resnet import BasicBlock, Bottleneck
        blk = {"BasicBlock": BasicBlock, "Bottleneck": Bottleneck}[a["block"]]
        return tvm.ResNet(blk, a["layers"], num_classes=num_classes, groups=a["groups"],
                          width_per_group=a["width_per_group"])
    if ctor == "VGG":
        from torchvision.models.vgg import make_layers
        return tvm.VGG(make_layers(a["cfg"], batch_norm=a["batch_norm"]), num_classes=num_classes)
    if ctor == "MobileNetV2":
        return tvm.MobileNetV2(num_classes=num_classes, width_mult=a["width_mult"],
                               inverted_residual_setting=a["setting"])
    if ctor == "MobileNetV3":
        from torchvision.models.mobilenetv3 import InvertedResidualConfig
        wm = a["width_mult"]
        setting = [InvertedResidualConfig(cin, k, exp, cout, bool(se), act, s, 1, wm)
                   for cin, k, exp, cout, se, act, s in a["setting"]]
        last = InvertedResidualConfig.adjust_channels(a["last_channel"], wm)
        return tvm.MobileNetV3(setting, last, num_classes=num_classes)
    if ctor == "MNASNet":
        return tvm.MNASNet(a["alpha"], num_classes=num_classes)
    if ctor == "EfficientNet":
        from torchvision.models.efficientnet import MBConvConfig
        setting = [MBConvConfig(e, k, s, i, o, n, a["width_mult"], a["depth_mult"])
                   for e, k, s, i, o, n in a["setting"]]
        return tvm.EfficientNet(setting, a["dropout"], num_classes=num_classes)
    if ctor == "EfficientNetV2":
        from torchvision.models.efficientnet import FusedMBConvConfig, MBConvConfig
        setting = [(FusedMBConvConfig if kind == "fused" else MBConvConfig)(e, k, s, i, o, n)
                   for kind, e, k, s, i, o, n in a["setting"]]
        return tvm.EfficientNet(setting, 0.2, num_classes=num_classes, last_channel=a["last_channel"],
                                norm_layer=functools.partial(nn.BatchNorm2d, eps=1e-03))
    if ctor == "DenseNet":
        return tvm.DenseNet(a["growth_rate"], tuple(a["block_config"]), a["num_init_features"],
                            num_classes=num_classes)
    if ctor == "GoogLeNet":
        return tvm.GoogLeNet(num_classes=num_classes, aux_logits=False, init_weights=True)
    if ctor == "Inception3":
        return tvm.Inception3(num_classes=num_classes, aux_logits=False, init_weights=True)
    if ctor == "AlexNet":
        return tvm.AlexNet(num_classes=num_classes)
    if ctor == "SqueezeNet":
        return tvm.SqueezeNet(a["version"], num_classes=num_classes)
    if ctor == "ShuffleNetV2":
        return tvm.ShuffleNetV2(a["stages_repeats"], a["stages_out_channels"], num_classes=num_classes)
    if ctor == "RegNet":
        from torchvision.models.regnet import BlockParams
        bp = BlockParams.from_init_params(depth=a["depth"], w_0=a["w_0"], w_a=a["w_a"], w_m=a["w_m"],
                                          group_width=a["group_width"], se_ratio=a["se_ratio"],
                                          bottleneck_multiplier=a["bottleneck_multiplier"])
        return tvm.RegNet(bp, num_classes=num_classes,
                          norm_layer=functools.partial(nn.BatchNorm2d, eps=1e-05, momentum=0.1))
    if ctor == "ConvNeXt":
        from torchvision.models.convnext import CNBlockConfig
        bs = [CNBlockConfig(i, o, n) for i, o, n in a["block_setting"]]
        return tvm.ConvNeXt(bs, stochastic_depth_prob=a["stochastic_depth_prob"], num_classes=num_classes)
    if ctor == "VisionTransformer":
        return tvm.VisionTransformer(spec["resolution"], a["patch_size"], a["num_layers"], a["num_heads"],
                                     a["hidden_dim"], a["mlp_dim"], num_classes=num_classes)
    if ctor == "SwinTransformer":
        from torchvision.models import swin_transformer as sw
        kw = {}
        if a["version"] == 2:
            kw = {"block": sw.SwinTransformerBlockV2, "downsample_layer": sw.PatchMergingV2}
        w = a["window_size"]
        return tvm.SwinTransformer([a["patch_size"]] * 2, a["embed_dim"], a["depths"], a["num_heads"], [w, w],
                                   stochastic_depth_prob=a["stochastic_depth_prob"], num_classes=num_classes, **kw)
    if ctor == "MaxVit":
        r = spec["resolution"]
        return tvm.MaxVit((r, r), a["stem_channels"], a["partition_size"], a["block_channels"], a["block_layers"],
                          a["head_dim"], 0.2, num_classes=num_classes)
    raise ValueError("unknown constructor '%s' in spec" % ctor)


def count_params(module):
    return sum(p.numel() for p in module.parameters())
