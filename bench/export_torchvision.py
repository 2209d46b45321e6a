#!/usr/bin/env python3
"""Weight-free ONNX exports of the torchvision architectures that timm's RTX 3090
benchmarks also time (bench/timm_map.csv), into data/models/torchvision/.

As ../shared/models/torchvision (../shared/docs/DATA.md): torch.onnx.export,
opset 13, symbolic batch `batch_size`; the weights go to an external-data file
that is then deleted, so every initializer keeps name, dtype and dims but no
bytes.  CNNs whose timm rows use several image sizes also get symbolic
`height`/`width` (bind them with `--dim height=288 --dim width=288`); ViT, Swin,
VGG and Inception-v3 keep the fixed size timm runs them at.

    /usr/bin/python3 bench/export_torchvision.py [NAME...]   (default: all)
"""
import json, os, sys

import onnx
import torch
import torchvision

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "models", "torchvision")
# name: (export size, symbolic spatial dims)
MODELS = {
    "resnet18": (224, 1), "resnet34": (224, 1), "resnet50": (224, 1), "resnet101": (224, 1), "resnet152": (224, 1),
    "resnext50_32x4d": (224, 1), "resnext101_32x8d": (224, 1), "resnext101_64x4d": (224, 1),
    "wide_resnet50_2": (224, 1), "wide_resnet101_2": (224, 1),
    "inception_v3": (299, 0),
    "vit_b_32": (224, 0), "vit_l_16": (224, 0), "vit_l_32": (224, 0),
    "swin_s": (224, 0), "swin_b": (224, 0),
    "convnext_tiny": (224, 1), "convnext_small": (224, 1), "convnext_base": (224, 1), "convnext_large": (224, 1),
    "mobilenet_v3_large": (224, 0),
    "efficientnet_b0": (224, 1), "efficientnet_b1": (240, 1), "efficientnet_b2": (288, 1), "efficientnet_b3": (300, 1),
    "densenet121": (224, 1), "densenet161": (224, 0), "densenet169": (224, 0), "densenet201": (224, 0),
    "vgg11": (224, 0), "vgg13": (224, 0), "vgg19": (224, 0), "vgg11_bn": (224, 0), "vgg13_bn": (224, 0),
    "vgg16_bn": (224, 0), "vgg19_bn": (224, 0),
    "regnet_y_800mf": (224, 0), "regnet_y_1_6gf": (224, 0), "regnet_y_3_2gf": (224, 1), "regnet_y_8gf": (224, 1),
    "regnet_y_16gf": (224, 1), "regnet_y_32gf": (224, 1),
    "regnet_x_400mf": (224, 0), "regnet_x_800mf": (224, 0), "regnet_x_1_6gf": (224, 0), "regnet_x_3_2gf": (224, 0),
    "regnet_x_8gf": (224, 0), "regnet_x_16gf": (224, 0), "regnet_x_32gf": (224, 0),
}


def export(name, size, dyn):
    torch.manual_seed(0)
    kw = {"aux_logits": False, "init_weights": False} if name == "inception_v3" else {}
    m = getattr(torchvision.models, name)(weights=None, **kw).eval()
    params = sum(p.numel() for p in m.parameters())
    path = os.path.join(OUT, name + ".onnx")
    axes = {0: "batch_size"}
    if dyn:
        axes.update({2: "height", 3: "width"})
    # no torch.no_grad(): under it nn.MultiheadAttention takes its fused fast path, which has no ONNX export
    torch.onnx.export(m, torch.randn(1, 3, size, size), path, opset_version=13, input_names=["input"],
                      output_names=["output"], dynamic_axes={"input": axes, "output": {0: "batch_size"}})
    mp = onnx.load(path)
    if len(mp.graph.node) > 3000:
        # Swin, ViT-L: thousands of nodes whose long scoped names are a third of the file; short unique names
        for i, nd in enumerate(mp.graph.node):
            nd.name = "n%d" % i
    data = name + ".onnx.data"
    onnx.save_model(mp, path, save_as_external_data=True, all_tensors_to_one_file=True, location=data,
                    size_threshold=1024)
    os.remove(os.path.join(OUT, data))
    return {"name": name, "file": name + ".onnx", "params": params, "input": [1, 3, size, size],
            "nodes": len(mp.graph.node), "weights_inline": False,
            "symbolic": ["batch_size", "height", "width"] if dyn else ["batch_size"]}


def main():
    torch.set_num_threads(2)
    os.makedirs(OUT, exist_ok=True)
    names = sys.argv[1:] or list(MODELS)
    man_path = os.path.join(OUT, os.environ.get("MANIFEST", "manifest.jsonl"))
    man = {}
    if os.path.exists(man_path):
        for line in open(man_path):
            if line.strip():
                e = json.loads(line)
                man[e["name"]] = e
    for n in names:
        man[n] = export(n, *MODELS[n])
        print(n, man[n]["nodes"], "nodes", os.path.getsize(os.path.join(OUT, n + ".onnx")), "bytes", flush=True)
        with open(man_path, "w") as f:
            for k in MODELS:
                if k in man:
                    f.write(json.dumps(man[k]) + "\n")


if __name__ == "__main__":
    main()
