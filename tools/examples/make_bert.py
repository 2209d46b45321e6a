#!/usr/bin/python3
"""make_bert.py — examples/bert.onnx, the model of the README's BERT examples.

A BERT-base encoder (12 layers, hidden 768, 12 heads, intermediate 3072,
vocab 30522, 512 positions; no pooler) built from a config with random
weights (nothing downloaded), exported by tools/profile/onnxexport.py like
every graph of our corpus: opset 13, input "input_ids" (batch_size,
sequence_length) int64, and weight-free — each large initializer keeps its
name, dtype and dims but its bytes are left out (external data that is never
written), which is all dlperf reads.  110M parameters in < 1 MB.

    /usr/bin/python3 tools/examples/make_bert.py [OUT.onnx]   (default examples/bert.onnx)

Needs Debian's python3-torch and python3-onnx; transformers' BertModel is
used when importable, else the same block structure from llmodels.py (the
graph differs in detail, not in size or cost).
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "profile"))

import llmodels  # noqa: E402
import onnxexport  # noqa: E402


def main():
    import torch
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "..", "examples", "bert.onnx")
    torch.manual_seed(0)
    spec = llmodels.stock_spec("bert-base")
    data = onnxexport.export_model(llmodels.build(spec), spec)
    tmp = out + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, out)
    print("wrote %s: %s (%s), %d bytes" % (out, spec["stock"], spec["impl"], len(data)))


if __name__ == "__main__":
    main()
