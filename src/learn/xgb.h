/*
 * xgb.h — internals of src/learn/xgb.c shared with the LLM predictor and
 * the tests: the length of a .dlpm image (the shipped-model bundle is .dlpm
 * files back to back) and prediction through libxgboost itself (the
 * reference the flattened trees are checked against).  Not public API.
 */
#ifndef DLP_MODELS_XGB_H
#define DLP_MODELS_XGB_H

#include <stddef.h>

#include "dlperf.h"

/* Length of the .dlpm file starting at p (at most `left` bytes), 0 if none. */
size_t dlp__xgb_file_len(const void *p, size_t left);

/* Predict with XGBoost's own in-place prediction (slow; for tests). */
dlp_status dlp__xgb_predict_xgboost(dlp_xgb *m, const float *x, int64_t n, double *out, dlp_error *err);

#endif
