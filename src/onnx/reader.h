/*
 * reader.h — what the ONNX reader (onnx.c) offers besides loading a file
 * (dlp_graph_load in dlperf.h).
 */
#ifndef DLP_ONNX_READER_H
#define DLP_ONNX_READER_H

#include "graph/graph.h"

/* Decode a TensorProto's small data (integers up to DLP_MAX_VALUE_NUMEL
 * elements, floats up to 16) into t->ival/fval/nval, from t->msg, as the
 * reader does for every TENSOR attribute at load; nval stays -1 when the
 * data is too big, external or unreadable.  For TENSOR attributes made
 * without the reader (tests/test_op_cases.c).  DLP_ENOMEM is the only
 * failure. */
dlp_status dlp__onnx_decode_tensor(dlp_graph *g, dlp__tproto *t);

#endif
