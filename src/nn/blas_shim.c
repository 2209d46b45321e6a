/*
 * blas_shim.c — the OpenBLAS functions dlperf uses, forwarded to the
 * library loaded on first use: OpenBLAS starts its thread pool when it is
 * loaded, a cost every command paid although only training and GNN
 * prediction multiply matrices (util/lazylib.h).  If the library cannot be
 * loaded, a plain triple loop keeps results correct (slowly).
 */
#include <cblas.h>
#include <stdlib.h>

#include "util/lazylib.h"

static const char *const sonames[] = {"libopenblas.so.0", "libopenblas.so", "libblas.so.3", NULL};
/* OpenBLAS (0.3.21 in Debian 12) picks its kernels from the CPU's model
 * number; a model it does not know — a VM's "Intel(R) Xeon(R) Processor"
 * with AVX-512, as on the machine these numbers come from — gets the SSE3
 * "Prescott" kernels: a hidden-64 GraphSAGE prediction of an NB201 graph
 * took 406 us of CPU with them against 224 us with SkylakeX's.  So before
 * OpenBLAS is loaded, and only when the user has not chosen
 * (OPENBLAS_CORETYPE unset), name the kernels the CPU's flags support:
 * SkylakeX with AVX-512 F/CD/BW/DQ/VL, Haswell with AVX2 and FMA; a CPU
 * OpenBLAS knows gets the same kernels it would choose.  The one place the
 * library touches the environment (docs/DESIGN.md): OpenBLAS reads its
 * choice nowhere else.  And dlperf loads a copy of its own (dlmopen into a
 * new link namespace, lazylib.h): OpenBLAS already in the process (numpy's,
 * torch's) was set up when it was loaded, with its kernels and thread
 * count; a private copy gets the kernels chosen here, and its thread count
 * (dlp_gnn_predict_onnx, training's --threads) leaves theirs alone.  NB201
 * graphs through a SAGE-64 model in a process that had imported torch
 * (bench_python_batch.sh): 1,530 graphs/s on the shared copy, 4,270 on
 * the private one.  Where dlmopen fails (or under ASan) it is dlopen. */
static void choose_kernels(void) {
#if defined(__x86_64__) || defined(__i386__)
    if (getenv("OPENBLAS_CORETYPE")) return;
    __builtin_cpu_init();
    const char *core = NULL;
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512cd") &&
        __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
        __builtin_cpu_supports("avx512vl"))
        core = "SkylakeX";
    else if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        core = "Haswell";
    if (core) setenv("OPENBLAS_CORETYPE", core, 0);
#endif
}

static dlp__lazylib lib = DLP__LAZYLIB_INIT_PRIVATE(sonames, choose_kernels);

typedef void (*sgemm_fn)(enum CBLAS_ORDER, enum CBLAS_TRANSPOSE, enum CBLAS_TRANSPOSE, blasint, blasint, blasint,
                         float, const float *, blasint, const float *, blasint, float, float *, blasint);

/* Reference SGEMM, row- or column-major, for a machine without OpenBLAS. */
static void sgemm_ref(enum CBLAS_ORDER o, enum CBLAS_TRANSPOSE ta, enum CBLAS_TRANSPOSE tb, blasint M, blasint N,
                      blasint K, float alpha, const float *A, blasint lda, const float *B, blasint ldb, float beta,
                      float *C, blasint ldc) {
    if (o == CblasColMajor) { /* C^T = B^T A^T in row-major terms */
        sgemm_ref(CblasRowMajor, tb, ta, N, M, K, alpha, B, ldb, A, lda, beta, C, ldc);
        return;
    }
    for (blasint i = 0; i < M; i++)
        for (blasint j = 0; j < N; j++) {
            double s = 0;
            for (blasint k = 0; k < K; k++) {
                float a = ta == CblasNoTrans ? A[(size_t)i * lda + k] : A[(size_t)k * lda + i];
                float b = tb == CblasNoTrans ? B[(size_t)k * ldb + j] : B[(size_t)j * ldb + k];
                s += (double)a * b;
            }
            float *c = &C[(size_t)i * ldc + j];
            *c = (float)(alpha * s + (beta == 0 ? 0 : beta * *c));
        }
}

void cblas_sgemm(OPENBLAS_CONST enum CBLAS_ORDER Order, OPENBLAS_CONST enum CBLAS_TRANSPOSE TransA,
                 OPENBLAS_CONST enum CBLAS_TRANSPOSE TransB, OPENBLAS_CONST blasint M, OPENBLAS_CONST blasint N,
                 OPENBLAS_CONST blasint K, OPENBLAS_CONST float alpha, OPENBLAS_CONST float *A,
                 OPENBLAS_CONST blasint lda, OPENBLAS_CONST float *B, OPENBLAS_CONST blasint ldb,
                 OPENBLAS_CONST float beta, float *C, OPENBLAS_CONST blasint ldc) {
    static sgemm_fn fn;
    if (!fn) {
        void *p = dlp__lazy_sym(&lib, "cblas_sgemm");
        fn = p ? *(sgemm_fn *)&p : sgemm_ref;
    }
    fn(Order, TransA, TransB, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

int openblas_get_num_threads(void) {
    static int (*fn)(void);
    if (!fn) *(void **)&fn = dlp__lazy_sym(&lib, "openblas_get_num_threads");
    return fn ? fn() : 1;
}

void openblas_set_num_threads(int num_threads) {
    static void (*fn)(int);
    if (!fn) *(void **)&fn = dlp__lazy_sym(&lib, "openblas_set_num_threads");
    if (fn) fn(num_threads);
}
