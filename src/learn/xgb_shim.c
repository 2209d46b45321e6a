/*
 * xgb_shim.c — the XGBoost C API functions dlperf uses, forwarded to
 * libxgboost loaded on first use (util/lazylib.h says why).  When the library
 * cannot be loaded every call fails with -1 and XGBGetLastError says why.
 */
#include <stdio.h>
#include <xgboost/c_api.h>

#include "util/lazylib.h"

static const char *const sonames[] = {"libxgboost.so.0", "libxgboost.so", NULL};
static dlp__lazylib lib = DLP__LAZYLIB_INIT(sonames);
static _Thread_local char shim_err[300];

static void *sym(const char *name) {
    void *p = dlp__lazy_sym(&lib, name);
    if (!p) snprintf(shim_err, sizeof shim_err, "xgboost unavailable: %s", lib.err);
    return p;
}

#define FWD(ret, name, params, args, fail)                 \
    ret name params {                                      \
        static ret(*fn) params;                            \
        if (!fn) *(void **)&fn = sym(#name);               \
        if (!fn) return fail;                              \
        return fn args;                                    \
    }

const char *XGBGetLastError(void); /* the header declares it without a prototype */
const char *XGBGetLastError(void) {
    static const char *(*fn)(void);
    if (shim_err[0]) return shim_err;
    if (!fn) *(void **)&fn = sym("XGBGetLastError");
    return fn ? fn() : shim_err;
}

void XGBoostVersion(int *major, int *minor, int *patch) {
    static void (*fn)(int *, int *, int *);
    if (!fn) *(void **)&fn = sym("XGBoostVersion");
    if (fn) fn(major, minor, patch);
    else *major = *minor = *patch = 0;
}

FWD(int, XGBoosterCreate, (const DMatrixHandle dmats[], bst_ulong len, BoosterHandle *out), (dmats, len, out), -1)
FWD(int, XGBoosterFree, (BoosterHandle h), (h), -1)
FWD(int, XGBoosterLoadModelFromBuffer, (BoosterHandle h, const void *buf, bst_ulong len), (h, buf, len), -1)
FWD(int, XGBoosterPredictFromDense,
    (BoosterHandle h, char const *values, char const *config, DMatrixHandle m, bst_ulong const **out_shape,
     bst_ulong *out_dim, const float **out_result),
    (h, values, config, m, out_shape, out_dim, out_result), -1)
FWD(int, XGBoosterSaveModelToBuffer, (BoosterHandle h, char const *config, bst_ulong *out_len, char const **out_dptr),
    (h, config, out_len, out_dptr), -1)
FWD(int, XGBoosterSetParam, (BoosterHandle h, const char *name, const char *value), (h, name, value), -1)
FWD(int, XGBoosterUpdateOneIter, (BoosterHandle h, int iter, DMatrixHandle dtrain), (h, iter, dtrain), -1)
FWD(int, XGDMatrixCreateFromMat, (const float *data, bst_ulong nrow, bst_ulong ncol, float missing, DMatrixHandle *out),
    (data, nrow, ncol, missing, out), -1)
FWD(int, XGDMatrixFree, (DMatrixHandle h), (h), -1)
FWD(int, XGDMatrixSetFloatInfo, (DMatrixHandle h, const char *field, const float *array, bst_ulong len),
    (h, field, array, len), -1)
