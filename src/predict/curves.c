/*
 * curves.c — PLACEHOLDER until the per-precision fits land: every precision
 * uses NeuSight's fp32 curves by op class (what dlp_predict did before the
 * lowering).  Replaced by the fitted tables (bench/bench_curves.sh).
 */
#include "predict/curves.h"

#include "models/roofline.h"

int dlp__prec_of_dtype(int dtype) {
    if (dtype == DLP_DT_FLOAT) return DLP__PREC_FP32;
    if (dtype == DLP_DT_FLOAT16 || dtype == DLP_DT_BFLOAT16) return DLP__PREC_HALF;
    return DLP__PREC_FP8;
}

const dlp__kcurve *dlp__kcurve_get(int prec, int kc) {
    static dlp__kcurve tab[DLP_KC_COUNT_];
    static int init;
    (void)prec;
    if (!init) {
        const dlp_efficiency *e = dlp_efficiency_builtin();
        static const int opc[DLP_KC_COUNT_] = {DLP_OPC_CONV,        DLP_OPC_ELEMENTWISE, DLP_OPC_GEMM,
                                               DLP_OPC_MATMUL,      DLP_OPC_MATMUL,      DLP_OPC_ELEMENTWISE,
                                               DLP_OPC_NORM,        DLP_OPC_SOFTMAX,     DLP_OPC_REDUCE,
                                               DLP_OPC_POOL,        DLP_OPC_DATA,        DLP_OPC_OTHER};
        for (int k = 0; k < DLP_KC_COUNT_; k++) {
            tab[k].c = e->cls[opc[k]];
            tab[k].source = "neusight-fp32-v1";
        }
        init = 1;
    }
    if (kc < 0 || kc >= DLP_KC_COUNT_) kc = DLP_KC_OTHER;
    return &tab[kc];
}
