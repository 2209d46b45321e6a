"""Time python3-onnx's onnx.load + shape_inference.infer_shapes in process
(median of repeats), the reference dlperf's inspect is compared with."""
import os
import sys
import time

import onnx

for path in sys.argv[1:]:
    ts = []
    reps = 5 if os.path.getsize(path) < 2_000_000 else 3
    for _ in range(reps):
        t0 = time.perf_counter()
        m = onnx.load(path, load_external_data=False)
        onnx.shape_inference.infer_shapes(m)
        ts.append((time.perf_counter() - t0) * 1e3)
    ts.sort()
    own = "own/" if "data/models/" in path else ""  # the same name can be in both folders
    print(own + os.path.basename(path), "%.3f" % ts[len(ts) // 2])
