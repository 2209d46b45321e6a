#!/usr/bin/env bash
# A 500 MB model with inline weights: dlperf maps the file and steps over the
# weight bytes, so time and memory follow the graph, not the weights.
# Prints dlperf's wall time and peak RSS beside python3-onnx's onnx.load.
set -eu
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
/usr/bin/python3 - "$T/big.onnx" <<'PY'
import sys, numpy as np, onnx
from onnx import helper, TensorProto, numpy_helper
n = 11585  # 11585^2 float32 = 537 MB inline
w = numpy_helper.from_array(np.zeros((n, n), dtype=np.float32), "W")
g = helper.make_graph([helper.make_node("MatMul", ["X", "W"], ["Y"], name="mm")], "big",
    [helper.make_tensor_value_info("X", TensorProto.FLOAT, ["batch", n])],
    [helper.make_tensor_value_info("Y", TensorProto.FLOAT, ["batch", n])], [w])
onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), sys.argv[1])
PY
sz=$(stat -c %s "$T/big.onnx")
sync
out=$( { /usr/bin/time -f "%e %M" "$BUILD/dlperf" inspect "$T/big.onnx" --batch 8 --json >/dev/null; } 2>&1 | tail -1)
py=$( { /usr/bin/time -f "%e %M" /usr/bin/python3 -c "import onnx,sys; onnx.load(sys.argv[1])" "$T/big.onnx"; } 2>&1 | tail -1)
echo "== 500 MB inline-weights file ($sz bytes) =="
echo "$out" | awk '{printf "dlperf inspect:  %7.3f s wall, peak RSS %7.1f MiB\n", $1, $2/1024}'
echo "$py"  | awk '{printf "python onnx.load: %7.3f s wall, peak RSS %7.1f MiB\n", $1, $2/1024}'
