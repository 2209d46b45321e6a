#!/usr/bin/python3
"""Golden output shapes for single-op shape-rule edge cases, from onnx's own
shape inference (Debian python3-onnx 1.12, max opset 17).

    /usr/bin/python3 tools/golden/ops_cases.py [--out tests/golden/op_cases.json]

Each case is a one-node model built with onnx.helper; inputs whose values
matter (shape, axes, split, starts/ends, repeats, pads, sizes, Range args,
...) are initializers carrying their values.  The model is run through
onnx.shape_inference.infer_shapes(strict_mode=True, data_prop=True) and the
case is recorded only if every output came back with a fully static shape.
Cases that onnx could not resolve are printed (and not recorded).
"""
import argparse
import json
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto as TP, helper, numpy_helper, shape_inference

F32, F16, I64, I32, BOOL, U8 = TP.FLOAT, TP.FLOAT16, TP.INT64, TP.INT32, TP.BOOL, TP.UINT8
INT64_MAX = 2**63 - 1
INT64_MIN = -2**63

CASES = []


def In(name, dtype, shape, value=None):
    return {"name": name, "dtype": dtype, "shape": list(shape), "value": value}


def Omit():
    return {"name": "", "omitted": True}


def case(name, op, opset, inputs, attrs=None, n_out=1, domain=""):
    CASES.append(dict(name=name, op=op, opset=opset, inputs=inputs,
                      attrs=attrs or {}, n_out=n_out, domain=domain))


def X(shape, name="X", dtype=F32):
    return In(name, dtype, shape)


def C(name, vals, dtype=I64, shape=None):
    vals = list(vals) if isinstance(vals, (list, tuple)) else [vals]
    return In(name, dtype, [len(vals)] if shape is None else shape, vals)


def S(name, val, dtype=I64):
    """Scalar constant."""
    return In(name, dtype, [], [val])


# ---------------------------------------------------------------- Conv
W = lambda shape: X(shape, "W")
case("conv2d_pads1", "Conv", 13, [X([1, 3, 32, 32]), W([8, 3, 3, 3])], {"pads": [1, 1, 1, 1]})
case("conv2d_nopad", "Conv", 13, [X([1, 3, 32, 32]), W([8, 3, 3, 3])])
case("conv2d_bias", "Conv", 13, [X([2, 3, 32, 32]), W([8, 3, 5, 5]), X([8], "B")], {"pads": [2, 2, 2, 2]})
case("conv2d_kernel_shape_attr", "Conv", 13, [X([1, 3, 32, 32]), W([8, 3, 3, 3])], {"kernel_shape": [3, 3]})
case("conv2d_stride2_pad1_even", "Conv", 13, [X([1, 3, 32, 32]), W([8, 3, 3, 3])], {"strides": [2, 2], "pads": [1, 1, 1, 1]})
case("conv2d_stride2_pad1_odd", "Conv", 13, [X([1, 3, 33, 33]), W([8, 3, 3, 3])], {"strides": [2, 2], "pads": [1, 1, 1, 1]})
case("conv2d_stride_rect", "Conv", 13, [X([1, 3, 31, 40]), W([8, 3, 3, 5])], {"strides": [3, 2]})
case("conv2d_asym_pads", "Conv", 13, [X([1, 3, 20, 20]), W([4, 3, 3, 3])], {"pads": [0, 1, 2, 3]})
case("conv2d_same_upper_s1", "Conv", 13, [X([1, 3, 20, 21]), W([4, 3, 4, 4])], {"auto_pad": "SAME_UPPER"})
case("conv2d_same_upper_s2_odd", "Conv", 13, [X([1, 3, 33, 33]), W([4, 3, 3, 3])], {"auto_pad": "SAME_UPPER", "strides": [2, 2]})
case("conv2d_same_lower_s2_odd", "Conv", 13, [X([1, 3, 33, 33]), W([4, 3, 3, 3])], {"auto_pad": "SAME_LOWER", "strides": [2, 2]})
case("conv2d_same_upper_s3", "Conv", 13, [X([1, 3, 10, 11]), W([4, 3, 2, 2])], {"auto_pad": "SAME_UPPER", "strides": [3, 3]})
case("conv2d_same_upper_dil2", "Conv", 13, [X([1, 3, 15, 15]), W([4, 3, 3, 3])], {"auto_pad": "SAME_UPPER", "dilations": [2, 2]})
case("conv2d_valid_s2", "Conv", 13, [X([1, 3, 33, 33]), W([4, 3, 3, 3])], {"auto_pad": "VALID", "strides": [2, 2]})
case("conv2d_valid_k_eq_in", "Conv", 13, [X([1, 3, 7, 7]), W([4, 3, 7, 7])], {"auto_pad": "VALID"})
case("conv2d_dil2", "Conv", 13, [X([1, 3, 32, 32]), W([8, 3, 3, 3])], {"dilations": [2, 2]})
case("conv2d_dil_rect_pad", "Conv", 13, [X([1, 3, 32, 30]), W([8, 3, 3, 3])], {"dilations": [3, 1], "pads": [2, 0, 2, 0], "strides": [1, 2]})
case("conv2d_groups4", "Conv", 13, [X([1, 8, 16, 16]), W([16, 2, 3, 3])], {"group": 4, "pads": [1, 1, 1, 1]})
case("conv2d_depthwise", "Conv", 13, [X([2, 8, 16, 16]), W([8, 1, 3, 3])], {"group": 8, "strides": [2, 2], "pads": [1, 1, 1, 1]})
case("conv2d_depthwise_mult2", "Conv", 13, [X([1, 8, 16, 16]), W([16, 1, 5, 5])], {"group": 8, "pads": [2, 2, 2, 2]})
case("conv2d_1x1", "Conv", 13, [X([4, 64, 7, 7]), W([128, 64, 1, 1])])
case("conv2d_patchify", "Conv", 13, [X([1, 3, 224, 224]), W([768, 3, 16, 16])], {"strides": [16, 16]})
case("conv1d_s3", "Conv", 13, [X([2, 4, 50]), W([6, 4, 5])], {"strides": [3]})
case("conv1d_same_upper", "Conv", 13, [X([2, 4, 50]), W([6, 4, 4])], {"auto_pad": "SAME_UPPER", "strides": [4]})
case("conv1d_dil_pad", "Conv", 13, [X([1, 2, 100]), W([3, 2, 3])], {"dilations": [4], "pads": [4, 4]})
case("conv3d_pads_strides", "Conv", 13, [X([1, 2, 8, 16, 16]), W([4, 2, 3, 3, 3])], {"pads": [1, 1, 1, 1, 1, 1], "strides": [1, 2, 2]})
case("conv3d_valid", "Conv", 13, [X([1, 2, 8, 16, 16]), W([4, 2, 3, 3, 3])], {"auto_pad": "VALID"})
case("conv3d_groups", "Conv", 13, [X([1, 4, 5, 6, 7]), W([8, 2, 1, 3, 3])], {"group": 2, "pads": [0, 1, 1, 0, 1, 1]})
case("conv2d_opset11", "Conv", 11, [X([1, 3, 32, 32]), W([8, 3, 3, 3])], {"strides": [2, 2]})

# ---------------------------------------------------------------- ConvTranspose
case("convT_s2_p1", "ConvTranspose", 13, [X([1, 8, 16, 16]), W([8, 4, 3, 3])], {"strides": [2, 2], "pads": [1, 1, 1, 1]})
case("convT_s2_p1_outpad1", "ConvTranspose", 13, [X([1, 8, 16, 16]), W([8, 4, 3, 3])], {"strides": [2, 2], "pads": [1, 1, 1, 1], "output_padding": [1, 1]})
case("convT_k4_s2_p1", "ConvTranspose", 13, [X([2, 8, 7, 7]), W([8, 3, 4, 4])], {"strides": [2, 2], "pads": [1, 1, 1, 1]})
case("convT_nopad", "ConvTranspose", 13, [X([1, 8, 5, 6]), W([8, 4, 3, 3])])
case("convT_bias", "ConvTranspose", 13, [X([1, 8, 5, 5]), W([8, 4, 3, 3]), X([4], "B")], {"strides": [3, 3]})
case("convT_output_shape", "ConvTranspose", 13, [X([1, 8, 16, 16]), W([8, 4, 3, 3])], {"strides": [2, 2], "output_shape": [32, 32]})
case("convT_output_shape_odd", "ConvTranspose", 13, [X([1, 8, 16, 16]), W([8, 4, 3, 3])], {"strides": [2, 2], "output_shape": [33, 31]})
case("convT_same_upper", "ConvTranspose", 13, [X([1, 8, 16, 16]), W([8, 4, 3, 3])], {"strides": [2, 2], "auto_pad": "SAME_UPPER"})
case("convT_same_lower", "ConvTranspose", 13, [X([1, 8, 16, 15]), W([8, 4, 3, 3])], {"strides": [2, 2], "auto_pad": "SAME_LOWER"})
case("convT_valid", "ConvTranspose", 13, [X([1, 8, 16, 16]), W([8, 4, 3, 3])], {"strides": [2, 2], "auto_pad": "VALID"})
case("convT_groups2", "ConvTranspose", 13, [X([1, 8, 10, 10]), W([8, 2, 3, 3])], {"group": 2, "strides": [2, 2], "pads": [1, 1, 1, 1], "output_padding": [1, 1]})
case("convT_dil2", "ConvTranspose", 13, [X([1, 4, 10, 10]), W([4, 4, 3, 3])], {"dilations": [2, 2]})
case("convT_asym_pads", "ConvTranspose", 13, [X([1, 4, 10, 10]), W([4, 2, 3, 3])], {"strides": [2, 2], "pads": [0, 1, 2, 0]})
case("convT_1d", "ConvTranspose", 13, [X([2, 4, 20]), W([4, 6, 5])], {"strides": [4], "pads": [2, 2], "output_padding": [3]})
case("convT_3d", "ConvTranspose", 13, [X([1, 4, 4, 8, 8]), W([4, 2, 2, 2, 2])], {"strides": [2, 2, 2]})

# ---------------------------------------------------------------- pooling
case("maxpool_k3_s2_p1", "MaxPool", 13, [X([1, 64, 112, 112])], {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 1, 1, 1]})
case("maxpool_k2_s2", "MaxPool", 13, [X([1, 8, 15, 15])], {"kernel_shape": [2, 2], "strides": [2, 2]})
case("maxpool_k2_s2_ceil", "MaxPool", 13, [X([1, 8, 15, 15])], {"kernel_shape": [2, 2], "strides": [2, 2], "ceil_mode": 1})
case("maxpool_k3_s2_ceil_56", "MaxPool", 13, [X([1, 8, 56, 56])], {"kernel_shape": [3, 3], "strides": [2, 2], "ceil_mode": 1})
case("maxpool_k3_s2_floor_56", "MaxPool", 13, [X([1, 8, 56, 56])], {"kernel_shape": [3, 3], "strides": [2, 2], "ceil_mode": 0})
case("maxpool_ceil_exact", "MaxPool", 13, [X([1, 8, 9, 9])], {"kernel_shape": [3, 3], "strides": [2, 2], "ceil_mode": 1})
case("maxpool_ceil_pads", "MaxPool", 13, [X([1, 8, 10, 10])], {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 1, 1, 1], "ceil_mode": 1})
case("maxpool_s1_default", "MaxPool", 13, [X([1, 8, 10, 12])], {"kernel_shape": [3, 2]})
case("maxpool_dil2", "MaxPool", 13, [X([1, 8, 20, 20])], {"kernel_shape": [3, 3], "dilations": [2, 2]})
case("maxpool_dil2_s2_pads", "MaxPool", 13, [X([1, 8, 20, 20])], {"kernel_shape": [3, 3], "dilations": [2, 2], "strides": [2, 2], "pads": [2, 2, 2, 2]})
case("maxpool_dil2_ceil", "MaxPool", 13, [X([1, 8, 20, 20])], {"kernel_shape": [3, 3], "dilations": [2, 2], "strides": [3, 3], "ceil_mode": 1})
case("maxpool_same_upper", "MaxPool", 13, [X([1, 8, 15, 15])], {"kernel_shape": [3, 3], "strides": [2, 2], "auto_pad": "SAME_UPPER"})
case("maxpool_same_lower", "MaxPool", 13, [X([1, 8, 16, 15])], {"kernel_shape": [2, 2], "strides": [2, 2], "auto_pad": "SAME_LOWER"})
case("maxpool_valid", "MaxPool", 13, [X([1, 8, 15, 15])], {"kernel_shape": [3, 3], "strides": [2, 2], "auto_pad": "VALID"})
case("maxpool_indices", "MaxPool", 13, [X([1, 8, 15, 15])], {"kernel_shape": [3, 3], "strides": [2, 2]}, n_out=2)
case("maxpool_1d", "MaxPool", 13, [X([2, 4, 31])], {"kernel_shape": [4], "strides": [3], "pads": [1, 2]})
case("maxpool_3d", "MaxPool", 13, [X([1, 4, 9, 16, 16])], {"kernel_shape": [3, 2, 2], "strides": [2, 2, 2]})
case("maxpool_opset10_ceil", "MaxPool", 10, [X([1, 8, 15, 15])], {"kernel_shape": [2, 2], "strides": [2, 2], "ceil_mode": 1})
case("avgpool_k3_s2_p1", "AveragePool", 13, [X([1, 8, 28, 28])], {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 1, 1, 1]})
case("avgpool_k2_s2_ceil", "AveragePool", 13, [X([1, 8, 15, 15])], {"kernel_shape": [2, 2], "strides": [2, 2], "ceil_mode": 1})
case("avgpool_k3_s2_ceil_pads_countpad", "AveragePool", 13, [X([1, 8, 14, 14])], {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 1, 1, 1], "ceil_mode": 1, "count_include_pad": 1})
case("avgpool_k7_global_like", "AveragePool", 13, [X([1, 8, 7, 7])], {"kernel_shape": [7, 7]})
case("avgpool_same_upper", "AveragePool", 13, [X([1, 8, 13, 13])], {"kernel_shape": [3, 3], "strides": [2, 2], "auto_pad": "SAME_UPPER"})
case("avgpool_1d", "AveragePool", 13, [X([1, 4, 10])], {"kernel_shape": [3], "strides": [3], "ceil_mode": 1})
case("globalavgpool_2d", "GlobalAveragePool", 13, [X([2, 8, 7, 7])])
case("globalavgpool_1d", "GlobalAveragePool", 13, [X([2, 8, 9])])
case("globalavgpool_3d", "GlobalAveragePool", 13, [X([1, 8, 3, 5, 7])])
case("globalmaxpool_2d", "GlobalMaxPool", 13, [X([2, 8, 7, 5])])

# ---------------------------------------------------------------- Gemm / MatMul
case("gemm_basic", "Gemm", 13, [X([4, 3], "A"), X([3, 5], "B")])
case("gemm_bias_vec", "Gemm", 13, [X([4, 3], "A"), X([3, 5], "B"), X([5], "C")])
case("gemm_transA", "Gemm", 13, [X([3, 4], "A"), X([3, 5], "B")], {"transA": 1})
case("gemm_transB", "Gemm", 13, [X([4, 3], "A"), X([5, 3], "B"), X([1, 5], "C")], {"transB": 1})
case("gemm_transA_transB", "Gemm", 13, [X([3, 4], "A"), X([5, 3], "B"), X([4, 1], "C")], {"transA": 1, "transB": 1, "alpha": 0.5, "beta": 2.0})
case("gemm_fc", "Gemm", 11, [X([8, 512], "A"), X([1000, 512], "B"), X([1000], "C")], {"transB": 1})
case("matmul_1d_2d", "MatMul", 13, [X([3], "A"), X([3, 4], "B")])
case("matmul_2d_1d", "MatMul", 13, [X([2, 3], "A"), X([3], "B")])
case("matmul_1d_1d", "MatMul", 13, [X([5], "A"), X([5], "B")])
case("matmul_1d_3d", "MatMul", 13, [X([3], "A"), X([2, 3, 4], "B")])
case("matmul_3d_1d", "MatMul", 13, [X([2, 4, 3], "A"), X([3], "B")])
case("matmul_2d_2d", "MatMul", 13, [X([7, 3], "A"), X([3, 4], "B")])
case("matmul_3d_2d", "MatMul", 13, [X([2, 5, 3], "A"), X([3, 4], "B")])
case("matmul_2d_3d", "MatMul", 13, [X([5, 3], "A"), X([2, 3, 4], "B")])
case("matmul_4d_4d_bcast1", "MatMul", 13, [X([2, 1, 5, 3], "A"), X([1, 4, 3, 6], "B")])
case("matmul_4d_3d", "MatMul", 13, [X([2, 4, 5, 3], "A"), X([4, 3, 6], "B")])
case("matmul_attn_qk", "MatMul", 13, [X([1, 12, 197, 64], "A"), X([1, 12, 64, 197], "B")])

# ---------------------------------------------------------------- broadcasting
case("add_3d_1d", "Add", 13, [X([2, 3, 4], "A"), X([4], "B")])
case("add_bcast_both", "Add", 13, [X([1, 3, 1], "A"), X([2, 1, 5], "B")])
case("add_scalar", "Add", 13, [X([], "A"), X([2, 3], "B")])
case("add_same", "Add", 14, [X([2, 3], "A"), X([2, 3], "B")])
case("mul_rank_mismatch", "Mul", 13, [X([5, 1, 4], "A"), X([3, 1], "B")])
case("mul_4d_chan", "Mul", 13, [X([8, 16, 7, 7], "A"), X([16, 1, 1], "B")])
case("sub_int64", "Sub", 13, [X([4, 1], "A", I64), X([1, 6], "B", I64)])
case("div_bcast", "Div", 13, [X([1], "A"), X([3, 4, 5], "B")])
case("pow_bcast", "Pow", 13, [X([2, 3], "A"), X([], "B")])
case("equal_bool_out", "Equal", 13, [X([3, 1], "A", I64), X([1, 4], "B", I64)])
case("where_bcast3", "Where", 16, [X([1, 4], "cond", BOOL), X([3, 1], "A"), X([], "B")])
case("where_rank_mismatch", "Where", 9, [X([2, 1, 1], "cond", BOOL), X([5, 1], "A"), X([4], "B")])

# ---------------------------------------------------------------- Concat / Split
case("concat_axis1", "Concat", 13, [X([1, 3, 4], "A"), X([1, 5, 4], "B")], {"axis": 1})
case("concat_neg_axis", "Concat", 13, [X([2, 3, 4], "A"), X([2, 3, 1], "B"), X([2, 3, 7], "C")], {"axis": -1})
case("concat_axis0_int64", "Concat", 13, [X([1], "A", I64), X([3], "B", I64)], {"axis": 0})
case("split_opset11_attr", "Split", 11, [X([2, 5, 4])], {"axis": 1, "split": [2, 3]}, n_out=2)
case("split_opset11_equal", "Split", 11, [X([2, 6, 4])], {"axis": 1}, n_out=3)
case("split_opset13_input", "Split", 13, [X([2, 5, 4]), C("split", [1, 4])], {"axis": 1}, n_out=2)
case("split_opset13_input_neg_axis", "Split", 13, [X([2, 5, 6]), C("split", [1, 2, 3])], {"axis": -1}, n_out=3)
case("split_opset13_equal", "Split", 13, [X([6, 4])], {}, n_out=2)
case("split_opset13_equal_axis_neg", "Split", 13, [X([2, 4, 9])], {"axis": -1}, n_out=3)
case("split_opset18_num_outputs", "Split", 18, [X([2, 4, 9])], {"axis": -1, "num_outputs": 3}, n_out=3)
case("split_opset18_num_outputs_uneven", "Split", 18, [X([2, 4, 10])], {"axis": -1, "num_outputs": 3}, n_out=3)

# ---------------------------------------------------------------- Squeeze / Unsqueeze
case("squeeze_opset11_attr", "Squeeze", 11, [X([1, 3, 1, 5, 1])], {"axes": [0, -1]})
case("squeeze_opset11_noaxes", "Squeeze", 11, [X([1, 3, 1, 5, 1])])
case("squeeze_opset13_input", "Squeeze", 13, [X([1, 3, 1, 5]), C("axes", [2])])
case("squeeze_opset13_input_neg", "Squeeze", 13, [X([1, 3, 1, 5, 1]), C("axes", [-1, 0])])
case("squeeze_opset13_noaxes", "Squeeze", 13, [X([1, 3, 1, 5, 1])])
case("unsqueeze_opset11_attr", "Unsqueeze", 11, [X([3, 5])], {"axes": [0, 3]})
case("unsqueeze_opset11_neg", "Unsqueeze", 11, [X([3, 5])], {"axes": [-1]})
case("unsqueeze_opset13_input", "Unsqueeze", 13, [X([3, 5]), C("axes", [0, 2])])
case("unsqueeze_opset13_neg", "Unsqueeze", 13, [X([3, 5]), C("axes", [-1, -4])])
case("unsqueeze_opset13_scalar", "Unsqueeze", 13, [X([], "X", I64), C("axes", [0])])

# ---------------------------------------------------------------- Reshape / Flatten / Transpose
case("reshape_zero_minus1", "Reshape", 13, [X([2, 3, 4]), C("shape", [0, -1])])
case("reshape_minus1_mid", "Reshape", 13, [X([2, 3, 4]), C("shape", [2, -1, 4])])
case("reshape_zero_zero_minus1", "Reshape", 13, [X([2, 3, 4, 5]), C("shape", [0, 0, -1])])
case("reshape_flatten_all", "Reshape", 13, [X([2, 3, 4]), C("shape", [-1])])
case("reshape_add_dims", "Reshape", 13, [X([6, 4]), C("shape", [2, 3, 2, 2])])
case("reshape_zero_copy_opset14", "Reshape", 14, [X([2, 3, 4]), C("shape", [4, 0, -1])], {"allowzero": 0})
case("reshape_allowzero1", "Reshape", 14, [X([0, 3, 4]), C("shape", [3, 0, 4])], {"allowzero": 1})
case("reshape_allowzero1_empty_src", "Reshape", 14, [X([2, 0, 4]), C("shape", [0, 4])], {"allowzero": 1})
case("flatten_default", "Flatten", 13, [X([2, 3, 4, 5])])
case("flatten_axis0", "Flatten", 13, [X([2, 3, 4, 5])], {"axis": 0})
case("flatten_axis_neg1", "Flatten", 13, [X([2, 3, 4, 5])], {"axis": -1})
case("flatten_axis_neg3", "Flatten", 13, [X([2, 3, 4, 5])], {"axis": -3})
case("flatten_axis_rank", "Flatten", 13, [X([2, 3, 4, 5])], {"axis": 4})
case("transpose_default", "Transpose", 13, [X([2, 3, 4, 5])])
case("transpose_perm", "Transpose", 13, [X([2, 3, 4, 5])], {"perm": [0, 2, 3, 1]})
case("transpose_2d", "Transpose", 13, [X([7, 3])], {"perm": [1, 0]})

# ---------------------------------------------------------------- Slice
case("slice_basic_axes", "Slice", 13, [X([4, 10, 6]), C("starts", [1]), C("ends", [-1]), C("axes", [1])])
case("slice_neg_starts", "Slice", 13, [X([4, 10, 6]), C("starts", [-3]), C("ends", [INT64_MAX]), C("axes", [1])])
case("slice_axes_omitted", "Slice", 13, [X([4, 10, 6]), C("starts", [1, 2]), C("ends", [3, 9])])
case("slice_axes_omitted_all", "Slice", 13, [X([4, 10, 6]), C("starts", [0, 0, 0]), C("ends", [2, 5, 3])])
case("slice_steps2", "Slice", 13, [X([4, 10, 6]), C("starts", [1]), C("ends", [10]), C("axes", [1]), C("steps", [2])])
case("slice_steps3_odd", "Slice", 13, [X([4, 10, 6]), C("starts", [0]), C("ends", [10]), C("axes", [1]), C("steps", [3])])
case("slice_reverse_full", "Slice", 13, [X([4, 10, 6]), C("starts", [-1]), C("ends", [INT64_MIN]), C("axes", [1]), C("steps", [-1])])
case("slice_reverse_neg_intmax", "Slice", 13, [X([4, 10, 6]), C("starts", [-1]), C("ends", [-INT64_MAX]), C("axes", [1]), C("steps", [-1])])
case("slice_neg_step2", "Slice", 13, [X([4, 10, 6]), C("starts", [8]), C("ends", [1]), C("axes", [1]), C("steps", [-2])])
case("slice_intmax_start_neg_step", "Slice", 13, [X([4, 10, 6]), C("starts", [INT64_MAX]), C("ends", [-INT64_MAX]), C("axes", [1]), C("steps", [-3])])
case("slice_neg_axes", "Slice", 13, [X([4, 10, 6]), C("starts", [1]), C("ends", [4]), C("axes", [-1])])
case("slice_out_of_range_clamp", "Slice", 13, [X([4, 10, 6]), C("starts", [-100, 2]), C("ends", [100, 1000]), C("axes", [0, 2])])
case("slice_empty_start_ge_end", "Slice", 13, [X([4, 10, 6]), C("starts", [5]), C("ends", [2]), C("axes", [1])])
case("slice_int32_params", "Slice", 13, [X([4, 10, 6]), C("starts", [0], I32), C("ends", [-2], I32), C("axes", [2], I32)])
case("slice_opset10", "Slice", 10, [X([4, 10, 6]), C("starts", [1]), C("ends", [-1]), C("axes", [2])])
case("slice_opset1_attrs", "Slice", 1, [X([4, 10, 6])], {"starts": [1, -4], "ends": [3, 1000], "axes": [0, 1]})

# ---------------------------------------------------------------- Gather family
case("gather_axis0", "Gather", 13, [X([5, 4, 3]), C("idx", [0, 2, 4, 1, 0, 3], shape=[2, 3])])
case("gather_axis1", "Gather", 13, [X([5, 4, 3]), C("idx", [0, 3])], {"axis": 1})
case("gather_scalar_idx", "Gather", 13, [X([5, 4, 3]), S("idx", 2)], {"axis": 1})
case("gather_scalar_idx_axis0", "Gather", 13, [X([5, 4, 3]), S("idx", -1)])
case("gather_neg_axis", "Gather", 13, [X([5, 4, 3]), C("idx", [0, 1, 2, 0])], {"axis": -1})
case("gather_shape_vec", "Gather", 13, [X([4], "X", I64), S("idx", 0)])
case("gather_elements_axis1", "GatherElements", 13, [X([3, 4]), X([3, 2], "idx", I64)], {"axis": 1})
case("gather_elements_neg_axis", "GatherElements", 13, [X([3, 4, 5]), X([3, 4, 2], "idx", I64)], {"axis": -1})

# ---------------------------------------------------------------- reductions
case("reducemean_opset13_attr_keep", "ReduceMean", 13, [X([2, 3, 4, 5])], {"axes": [2, 3], "keepdims": 1})
case("reducemean_opset13_attr_nokeep", "ReduceMean", 13, [X([2, 3, 4, 5])], {"axes": [-1], "keepdims": 0})
case("reducemean_opset13_noaxes", "ReduceMean", 13, [X([2, 3, 4])])
case("reducemean_opset13_noaxes_nokeep", "ReduceMean", 13, [X([2, 3, 4])], {"keepdims": 0})
case("reducemean_opset18_input", "ReduceMean", 18, [X([2, 3, 4, 5]), C("axes", [1, -1])], {"keepdims": 1})
case("reducemean_opset18_input_nokeep", "ReduceMean", 18, [X([2, 3, 4, 5]), C("axes", [1])], {"keepdims": 0})
case("reducesum_opset13_input_keep", "ReduceSum", 13, [X([2, 3, 4, 5]), C("axes", [1, 2])])
case("reducesum_opset13_input_nokeep", "ReduceSum", 13, [X([2, 3, 4, 5]), C("axes", [-1, 0])], {"keepdims": 0})
case("reducesum_opset13_noaxes", "ReduceSum", 13, [X([2, 3, 4])])
case("reducesum_opset13_noaxes_nokeep", "ReduceSum", 13, [X([2, 3, 4])], {"keepdims": 0})
case("reducesum_opset13_noop_empty", "ReduceSum", 13, [X([2, 3, 4])], {"noop_with_empty_axes": 1})
case("reducesum_opset13_empty_axes_input_noop", "ReduceSum", 13, [X([2, 3, 4]), C("axes", [], shape=[0])], {"noop_with_empty_axes": 1})
case("reducesum_opset11_attr", "ReduceSum", 11, [X([2, 3, 4])], {"axes": [1], "keepdims": 0})
case("reducemax_opset13", "ReduceMax", 13, [X([2, 3, 4])], {"axes": [0, 2], "keepdims": 0})

# ---------------------------------------------------------------- Expand / Tile / Pad
case("expand_bcast", "Expand", 13, [X([3, 1]), C("shape", [2, 1, 4])])
case("expand_smaller_shape", "Expand", 13, [X([3, 4]), C("shape", [1])])
case("expand_ones", "Expand", 13, [X([1, 1, 5]), C("shape", [2, 3, 1])])
case("tile_basic", "Tile", 13, [X([2, 3, 4]), C("repeats", [2, 1, 3])])
case("tile_2d", "Tile", 13, [X([5, 1]), C("repeats", [1, 7])])
case("pad_opset13", "Pad", 13, [X([1, 3, 4, 5]), C("pads", [0, 0, 1, 1, 0, 0, 2, 2])])
case("pad_opset11_const_value", "Pad", 11, [X([1, 3, 4, 5]), C("pads", [0, 0, 1, 2, 0, 0, 3, 4]), In("cval", F32, [], [0.5])], {"mode": "constant"})
case("pad_negative", "Pad", 13, [X([1, 3, 8, 8]), C("pads", [0, 0, -1, -2, 0, 0, -1, 0])])
case("pad_reflect", "Pad", 13, [X([2, 6]), C("pads", [0, 2, 0, 3])], {"mode": "reflect"})
case("pad_opset2_attr", "Pad", 2, [X([1, 3, 4, 5])], {"pads": [0, 0, 1, 1, 0, 0, 1, 1]})

# ---------------------------------------------------------------- Resize / Upsample
case("resize_scales_nearest", "Resize", 13, [X([1, 3, 10, 12]), Omit(), C("scales", [1.0, 1.0, 2.0, 2.0], F32)], {"mode": "nearest"})
case("resize_scales_frac", "Resize", 13, [X([1, 3, 7, 9]), Omit(), C("scales", [1.0, 1.0, 1.5, 0.5], F32)], {"mode": "linear"})
case("resize_sizes", "Resize", 13, [X([1, 3, 10, 12]), Omit(), Omit(), C("sizes", [1, 3, 50, 60])], {"mode": "linear"})
case("resize_sizes_empty_scales", "Resize", 13, [X([1, 3, 10, 12]), C("roi", [], F32, shape=[0]), C("scales", [], F32, shape=[0]), C("sizes", [2, 3, 5, 6])])
case("resize_opset11_scales", "Resize", 11, [X([1, 3, 10, 12]), C("roi", [], F32, shape=[0]), C("scales", [1.0, 1.0, 3.0, 0.25], F32)])
case("upsample_opset9", "Upsample", 9, [X([1, 3, 10, 12]), C("scales", [1.0, 1.0, 2.0, 3.0], F32)], {"mode": "nearest"})
case("upsample_opset7_attr", "Upsample", 7, [X([1, 3, 10, 12])], {"scales": [1.0, 1.0, 2.0, 2.0]})

# ---------------------------------------------------------------- generators / shape ops
case("range_int64", "Range", 11, [S("start", 0), S("limit", 10), S("delta", 3)])
case("range_int64_neg_delta", "Range", 11, [S("start", 10), S("limit", -2), S("delta", -4)])
case("range_float", "Range", 11, [S("start", 1.0, F32), S("limit", 2.0, F32), S("delta", 0.25, F32)])
case("range_empty", "Range", 11, [S("start", 5), S("limit", 1), S("delta", 1)])
case("constantofshape_default", "ConstantOfShape", 9, [C("shape", [2, 3, 4])])
case("constantofshape_value_int", "ConstantOfShape", 9, [C("shape", [5])], {"value": {"tensor": {"dtype": I64, "dims": [1], "values": [7]}}})
case("constantofshape_scalar_out", "ConstantOfShape", 9, [C("shape", [], shape=[0])])
case("shape_opset13", "Shape", 13, [X([2, 3, 4, 5])])
case("shape_opset15_start", "Shape", 15, [X([2, 3, 4, 5])], {"start": 1})
case("shape_opset15_end_neg", "Shape", 15, [X([2, 3, 4, 5])], {"end": -1})
case("shape_opset15_start_neg", "Shape", 15, [X([2, 3, 4, 5])], {"start": -2})
case("shape_opset15_start_end", "Shape", 15, [X([2, 3, 4, 5])], {"start": 1, "end": 3})
case("shape_opset15_clamp", "Shape", 15, [X([2, 3, 4, 5])], {"start": -10, "end": 10})
case("shape_opset15_empty", "Shape", 15, [X([2, 3, 4, 5])], {"start": 3, "end": 1})
case("size", "Size", 13, [X([2, 3, 4])])
case("cast_f16", "Cast", 13, [X([2, 3])], {"to": F16})
case("cast_i64", "Cast", 13, [X([2, 3, 1])], {"to": I64})

# ---------------------------------------------------------------- TopK / ArgMax
case("topk_k_input", "TopK", 11, [X([3, 10]), C("K", [4])], {"axis": -1}, n_out=2)
case("topk_axis0", "TopK", 11, [X([6, 5, 4]), C("K", [2])], {"axis": 0, "largest": 0}, n_out=2)
case("topk_opset1_attr", "TopK", 1, [X([3, 10])], {"k": 3}, n_out=2)
case("argmax_keep", "ArgMax", 13, [X([2, 3, 4])], {"axis": 1})
case("argmax_nokeep", "ArgMax", 13, [X([2, 3, 4])], {"axis": 1, "keepdims": 0})
case("argmax_neg_axis", "ArgMax", 13, [X([2, 3, 4])], {"axis": -1, "keepdims": 0, "select_last_index": 1})
case("argmin_default", "ArgMin", 13, [X([2, 3, 4])])

# ---------------------------------------------------------------- normalization / activation
case("layernorm_opset17", "LayerNormalization", 17, [X([2, 5, 8]), X([8], "scale"), X([8], "bias")], {"axis": -1, "epsilon": 1e-5})
case("layernorm_opset17_3out", "LayerNormalization", 17, [X([2, 5, 8]), X([8], "scale"), X([8], "bias")], {"axis": -1}, n_out=3)
case("layernorm_opset17_axis1_3out", "LayerNormalization", 17, [X([2, 5, 4, 8]), X([5, 4, 8], "scale")], {"axis": 1}, n_out=3)
case("softmax_opset13", "Softmax", 13, [X([2, 3, 4])], {"axis": -1})
case("softmax_opset11_default", "Softmax", 11, [X([2, 3, 4])])
case("logsoftmax_opset13", "LogSoftmax", 13, [X([2, 3])], {"axis": 0})
case("batchnorm_opset15", "BatchNormalization", 15, [X([2, 4, 5, 5]), X([4], "scale"), X([4], "B"), X([4], "mean"), X([4], "var")], {"epsilon": 1e-5})
case("batchnorm_opset9", "BatchNormalization", 9, [X([2, 4, 5]), X([4], "scale"), X([4], "B"), X([4], "mean"), X([4], "var")])
case("instancenorm", "InstanceNormalization", 6, [X([2, 4, 5, 5]), X([4], "scale"), X([4], "B")])
case("lrn", "LRN", 13, [X([1, 16, 7, 7])], {"size": 5, "alpha": 1e-4, "beta": 0.75, "bias": 1.0})
case("relu", "Relu", 14, [X([2, 3])])
case("gelu_like_erf", "Erf", 13, [X([2, 3, 4])])
case("clip_opset13", "Clip", 13, [X([2, 3]), S("min", 0.0, F32), S("max", 6.0, F32)])
case("hardswish", "HardSwish", 14, [X([1, 16, 8, 8])])

# ---------------------------------------------------------------- Einsum
case("einsum_bmm", "Einsum", 12, [X([2, 3, 4], "A"), X([2, 4, 5], "B")], {"equation": "bij,bjk->bik"})
case("einsum_attn", "Einsum", 12, [X([2, 4, 7, 8], "A"), X([2, 4, 9, 8], "B")], {"equation": "bhqd,bhkd->bhqk"})
case("einsum_transpose", "Einsum", 12, [X([3, 5], "A")], {"equation": "ij->ji"})
case("einsum_dot", "Einsum", 12, [X([5], "A"), X([5], "B")], {"equation": "i,i->"})
case("einsum_outer", "Einsum", 12, [X([3], "A"), X([4], "B")], {"equation": "i,j->ij"})
case("einsum_sum_axis", "Einsum", 12, [X([3, 4], "A")], {"equation": "ij->i"})
case("einsum_implicit", "Einsum", 12, [X([2, 3], "A"), X([3, 4], "B")], {"equation": "ij,jk"})
case("einsum_ellipsis", "Einsum", 12, [X([2, 6, 3, 4], "A"), X([2, 6, 4, 5], "B")], {"equation": "...ij,...jk->...ik"})

# ---------------------------------------------------------------- misc layout ops
case("depthtospace_dcr", "DepthToSpace", 13, [X([1, 16, 3, 4])], {"blocksize": 2})
case("depthtospace_crd", "DepthToSpace", 13, [X([2, 18, 3, 4])], {"blocksize": 3, "mode": "CRD"})
case("spacetodepth", "SpaceToDepth", 13, [X([1, 3, 8, 6])], {"blocksize": 2})
case("trilu_upper", "Trilu", 14, [X([4, 5])])
case("trilu_lower_k", "Trilu", 14, [X([2, 4, 5]), S("k", -1)], {"upper": 0})
case("cumsum_axis_scalar", "CumSum", 14, [X([3, 4]), S("axis", 1)])
case("cumsum_axis_neg", "CumSum", 14, [X([3, 4, 5]), S("axis", -1, I32)], {"exclusive": 1, "reverse": 1})
case("onehot_last", "OneHot", 11, [X([2, 3], "idx", I64), C("depth", [10]), C("values", [0.0, 1.0], F32)])
case("onehot_axis0", "OneHot", 11, [X([2, 3], "idx", I64), S("depth", 4), C("values", [0.0, 1.0], F32)], {"axis": 0})
case("onehot_axis1", "OneHot", 11, [X([2, 3], "idx", I64), S("depth", 5.0, F32), C("values", [0, 1], I64)], {"axis": 1})
case("identity", "Identity", 16, [X([2, 3, 4])])
case("dropout_opset13_mask", "Dropout", 13, [X([2, 3, 4])], n_out=2)
case("dropout_opset12_ratio_mask", "Dropout", 12, [X([2, 3, 4]), S("ratio", 0.1, F32)], n_out=2)
case("dropout_opset13_ratio_training", "Dropout", 13, [X([2, 3]), S("ratio", 0.5, F32), S("training_mode", True, BOOL)], n_out=2)


# --------------------------------------------------------------------------

NP_TYPES = {F32: np.float32, F16: np.float16, I64: np.int64, I32: np.int32,
            BOOL: np.bool_, U8: np.uint8, TP.DOUBLE: np.float64}


def make_attr_value(k, v):
    if isinstance(v, dict) and "tensor" in v:
        t = v["tensor"]
        arr = np.array(t["values"], dtype=NP_TYPES[t["dtype"]]).reshape(t["dims"])
        return numpy_helper.from_array(arr, name=k)
    return v


def build(c):
    inits, gin, names = [], [], []
    for i in c["inputs"]:
        if i.get("omitted"):
            names.append("")
            continue
        names.append(i["name"])
        if i.get("value") is not None:
            arr = np.array(i["value"], dtype=NP_TYPES[i["dtype"]]).reshape(i["shape"])
            inits.append(numpy_helper.from_array(arr, name=i["name"]))
        else:
            gin.append(helper.make_tensor_value_info(i["name"], i["dtype"], i["shape"]))
    outs = ["Y"] if c["n_out"] == 1 else ["Y%d" % k for k in range(c["n_out"])]
    attrs = {k: make_attr_value(k, v) for k, v in c["attrs"].items()}
    node = helper.make_node(c["op"], names, outs, domain=c["domain"], **attrs)
    g = helper.make_graph([node], c["name"], gin,
                          [onnx.ValueInfoProto(name=o) for o in outs], initializer=inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid(c["domain"], c["opset"])])
    return m, outs


def run_case(c):
    maxop = onnx.defs.onnx_opset_version()
    if c["opset"] > maxop:
        return None, "opset %d > onnx %s max opset %d" % (c["opset"], onnx.__version__, maxop)
    m, outs = build(c)
    try:
        inf = shape_inference.infer_shapes(m, check_type=True, strict_mode=True, data_prop=True)
    except Exception as e:  # noqa: BLE001
        return None, "onnx error: %s" % str(e).strip().splitlines()[0][:300]
    res = []
    table = {v.name: v for v in list(inf.graph.output) + list(inf.graph.value_info)}
    for o in outs:
        v = table.get(o)
        if v is None or not v.type.HasField("tensor_type"):
            return None, "no type for output %s" % o
        tt = v.type.tensor_type
        if not tt.HasField("shape"):
            return None, "rank unknown for output %s" % o
        dims = []
        for d in tt.shape.dim:
            if not d.HasField("dim_value"):
                return None, "output %s not fully static: %s" % (o, [
                    x.dim_value if x.HasField("dim_value") else "?" for x in tt.shape.dim])
            dims.append(int(d.dim_value))
        res.append({"name": o, "dtype": int(tt.elem_type), "shape": dims})
    return res, None


def jsonable_inputs(inputs):
    out = []
    for i in inputs:
        if i.get("omitted"):
            out.append({"name": "", "omitted": True})
            continue
        d = {"name": i["name"], "dtype": i["dtype"], "shape": i["shape"]}
        if i.get("value") is not None:
            d["value"] = [bool(x) if i["dtype"] == BOOL else x for x in i["value"]]
        out.append(d)
    return out


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.dirname(os.path.dirname(here))
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(repo, "tests", "golden", "op_cases.json"))
    args = ap.parse_args()
    names = [c["name"] for c in CASES]
    assert len(names) == len(set(names)), "duplicate case names"
    done, skipped = [], []
    for c in CASES:
        res, err = run_case(c)
        if err:
            skipped.append((c["name"], err))
            continue
        done.append({"name": c["name"], "op": c["op"], "opset": c["opset"],
                     "domain": c["domain"], "inputs": jsonable_inputs(c["inputs"]),
                     "attrs": c["attrs"], "outputs": res})
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        f.write("[\n")
        f.write(",\n".join(json.dumps(d, sort_keys=True, separators=(",", ":")) for d in done))
        f.write("\n]\n")
    print("recorded %d cases (onnx %s) -> %s" % (len(done), onnx.__version__, args.out))
    for n, e in skipped:
        print("UNRESOLVED %s: %s" % (n, e))
    print("%d unresolved" % len(skipped))


if __name__ == "__main__":
    main()
