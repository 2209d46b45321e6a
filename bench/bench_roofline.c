/*
 * bench_roofline.c — how good is the roofline kernel-time model, pure and
 * calibrated, on kernels it has never seen the GPU of?
 *
 * Reads NeuSight's measured kernel tables (fp32 PyTorch 2.1, CUDA 12.1;
 * ../shared/data/NeuSight/scripts/asplos/data/dataset): linear (Gemm), bmm
 * (MatMul), conv, elementwise, layernorm and softmax on up to six NVIDIA GPUs.
 * For each kernel it computes FLOPs and DRAM bytes with the same rules as the
 * graph costs, and times it three ways, leave-one-GPU-out:
 *   roofline      max(F/peak, B/bw) + 5 us launch (what `predict --pure` does)
 *   +floor        max(F/peak, B/bw) + a fitted per-class floor (isolated timing)
 *   calibrated    fitted floor + roofline x efficiency curve (calib.c)
 * and prints the MAPE of each per class and held-out GPU, side by side.
 * The shipped curves are linear in u and v (d = 0) with a fitted floor:
 * within 1 point of MAPE of the quadratic form or a floor fixed at the
 * fastest measurement (--quadratic, --floor-min try those), and they
 * extrapolate monotonically to kernel sizes the tables do not have.
 * With --emit FILE it fits on all GPUs and writes the C table that
 * src/predict/calib_table.inc holds, with the leave-one-GPU-out quantiles of
 * measured/predicted time used as the prediction band.
 *
 * The peaks follow the measurement conditions: kernel names show FP32 SIMT
 * kernels (ampere_sgemm, scudnn) on the A100s for matmuls and convs alike,
 * i.e. TF32 was off, so every kernel is timed against the FP32 vector peak.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dlperf.h"
#include "predict/roofline.h"

enum { K_CONV, K_LINEAR, K_BMM, K_ELEM, K_LN, K_SOFTMAX, K_N };
static const char *const kname[K_N] = {"conv", "linear", "bmm", "elem", "ln", "softmax"};
static const int kclass[K_N] = {DLP_OPC_CONV, DLP_OPC_GEMM, DLP_OPC_MATMUL, DLP_OPC_ELEMENTWISE, DLP_OPC_NORM,
                                DLP_OPC_SOFTMAX};

#ifndef MAX_DEV
#define MAX_DEV 8
#endif
typedef struct {
    dlp__kernel_sample s;
    int dev;                   /* index into devs[] */
} row;

typedef struct {
    row *r;
    size_t n, cap;
} rows;

static const dlp_device *devs[MAX_DEV];
static int n_devs;

/* ---- CSV ---------------------------------------------------------------------- */

/* Split one CSV line in place (quotes, doubled quotes); returns field count. */
static int csv_split(char *line, char **f, int max) {
    int n = 0;
    char *p = line;
    while (n < max) {
        char *out = p;
        f[n++] = p;
        if (*p == '"') {
            char *q = p + 1;
            for (;;) {
                if (!*q) break;
                if (*q == '"') {
                    if (q[1] == '"') {
                        *out++ = '"';
                        q += 2;
                        continue;
                    }
                    q++;
                    break;
                }
                *out++ = *q++;
            }
            p = q;
        } else {
            while (*p && *p != ',' && *p != '\n' && *p != '\r') *out++ = *p++;
        }
        char c = *p;
        *out = 0;
        if (c == ',') p++;
        else break;
    }
    return n;
}

static int col(char **hdr, int nh, const char *name) {
    for (int i = 0; i < nh; i++)
        if (!strcmp(hdr[i], name)) return i;
    return -1;
}

static int dev_index(const dlp_devdb *db, const char *name) {
    const dlp_device *d = dlp_devdb_find(db, name);
    if (!d) return -1;
    for (int i = 0; i < n_devs; i++)
        if (devs[i] == d) return i;
    if (n_devs == MAX_DEV) return -1;
    devs[n_devs] = d;
    return n_devs++;
}

/* Room for one more elem-byte record in an array of n (capacity *cap,
 * doubling from 4096); out of memory ends the bench.  bench_waves_data.h's
 * sample arrays grow the same way. */
static void *grow1(void *p, size_t n, size_t *cap, size_t elem) {
    if (n < *cap) return p;
    *cap = *cap ? 2 * *cap : 4096;
    p = realloc(p, *cap * elem);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    return p;
}

static void push(rows *R, const row *x) {
    R->r = grow1(R->r, R->n, &R->cap, sizeof *R->r);
    R->r[R->n++] = *x;
}

/* Open a CSV table and split its header (text kept in hl) into hdr; NULL
 * with *nh = -1 when it cannot be opened, 0 when it is empty. */
static FILE *open_table(const char *path, char *hl, int hl_size, char **hdr, int max, int *nh) {
    FILE *f = fopen(path, "r");
    *nh = -1;
    if (!f) return NULL;
    if (!fgets(hl, hl_size, f)) {
        fclose(f);
        *nh = 0;
        return NULL;
    }
    *nh = csv_split(hl, hdr, max);
    return f;
}

static double flops_per_elem(const char *op) {
    if (!strcmp(op, "gelu")) return 8;      /* as ops_ew.c: erf-based GELU */
    if (!strcmp(op, "tanh")) return 4;
    return 1;
}

/* Read one table of kind k; returns rows added. */
static long read_table(const dlp_devdb *db, const char *path, int k, rows *R) {
    static char line[65536], hline_[65536];
    char *hdr[64], *v[64];
    int nh;
    FILE *f = open_table(path, hline_, sizeof hline_, hdr, 64, &nh);
    if (!f) return nh;
    int cLat = col(hdr, nh, "Latency"), cDev = col(hdr, nh, "Device"), cOp = col(hdr, nh, "OPName");
    int cB = col(hdr, nh, "B"), cM = col(hdr, nh, "M"), cN = col(hdr, nh, "N"), cK = col(hdr, nh, "K");
    int cH = col(hdr, nh, "H"), cCi = col(hdr, nh, "Input_Channel"), cCo = col(hdr, nh, "Output_Channel");
    int cKs = col(hdr, nh, "Kernel_Szie"), cIs = col(hdr, nh, "Input_Size"), cS = col(hdr, nh, "Stride");
    int cP = col(hdr, nh, "Padding");
    long added = 0;
    while (fgets(line, sizeof line, f)) {
        int n = csv_split(line, v, 64);
        if (n < nh || cLat < 0 || cDev < 0) continue;
        int di = dev_index(db, v[cDev]);
        if (di < 0) continue;
        double t = atof(v[cLat]) * 1e-3;
        if (!(t > 0)) continue;
        double F, Bt;
        int opc;
        if (k == K_LINEAR || k == K_BMM) {
            double b = atof(v[cB]), m = atof(v[cM]), nn = atof(v[cN]), kk = atof(v[cK]);
            F = 2 * b * m * nn * kk;
            /* linear: (B*M, K) x (K, N) + bias; bmm: (B, M, K) x (B, K, N) */
            Bt = 4 * (b * m * kk + (k == K_LINEAR ? kk * nn + nn : b * kk * nn) + b * m * nn);
            if (k == K_LINEAR) F += b * m * nn;   /* bias add, as the Gemm cost rule */
            opc = k == K_LINEAR ? DLP_OPC_GEMM : DLP_OPC_MATMUL;
        } else if (k == K_CONV) {
            double b = atof(v[cB]), ci = atof(v[cCi]), co = atof(v[cCo]), ks = atof(v[cKs]), hs = atof(v[cIs]);
            double st = atof(v[cS]), pd = atof(v[cP]);
            double ho = floor((hs + 2 * pd - ks) / st) + 1;
            if (ho <= 0) continue;
            F = 2 * b * co * ho * ho * ci * ks * ks;
            Bt = 4 * (b * ci * hs * hs + co * ci * ks * ks + b * co * ho * ho);
            opc = DLP_OPC_CONV;
        } else {
            double b = atof(v[cB]), h = atof(v[cH]), ne = b * h;
            if (k == K_ELEM) {
                const char *op = cOp >= 0 ? v[cOp] : "add";
                int binary = !strcmp(op, "add") || !strcmp(op, "mul") || !strcmp(op, "pow") || !strcmp(op, "div");
                F = flops_per_elem(op) * ne;
                Bt = 4 * ne * (binary ? 3 : 2);
                opc = DLP_OPC_ELEMENTWISE;
            } else if (k == K_LN) {
                F = 5 * ne;                        /* as ops_nn.c LayerNormalization */
                Bt = 4 * (2 * ne + 2 * h + 2 * b);
                opc = DLP_OPC_NORM;
            } else {
                F = 4 * ne;                        /* as ops_nn.c Softmax */
                Bt = 8 * ne;
                opc = DLP_OPC_SOFTMAX;
            }
        }
        if (!(F > 0) || !(Bt > 0)) continue;
        row x;
        x.dev = di;
        x.s.flops = F;
        x.s.bytes = Bt;
        x.s.peak = dlp__node_peak(devs[di], opc, DLP_DT_FLOAT, DLP_TF32_OFF, NULL);
        x.s.bw = devs[di]->mem_bandwidth_gbs * 1e9;
        x.s.t_meas = t;
        push(R, &x);
        added++;
    }
    fclose(f);
    return added;
}

/* ---- evaluation ------------------------------------------------------------------ */

static double roof(const dlp__kernel_sample *s) { return dlp__roof_time(s->flops, s->bytes, s->peak, s->bw); }

/* Floor-only fit: 1-D golden-section search of the MAPE of roof + floor. */
static double fit_floor(const row *r, size_t n, int held, size_t max) {
    size_t step = 1, cnt = 0;
    for (size_t i = 0; i < n; i++) cnt += r[i].dev != held;
    if (max && cnt > max) step = cnt / max;
    double lo = 0, hi = 1e-3;
    for (int it = 0; it < 60; it++) {
        double m1 = lo + (hi - lo) * 0.381966, m2 = hi - (hi - lo) * 0.381966, e1 = 0, e2 = 0;
        size_t k = 0;
        for (size_t i = 0; i < n; i++) {
            if (r[i].dev == held || (k++ % step)) continue;
            double t = r[i].s.t_meas, rt = roof(&r[i].s);
            e1 += fabs(rt + m1 - t) / t;
            e2 += fabs(rt + m2 - t) / t;
        }
        if (e1 < e2) hi = m2;
        else lo = m1;
    }
    return (lo + hi) / 2;
}

/* The isolated-timing floor as the data show it: just under the fastest
 * kernel measured (a kernel that small is almost all overhead). */
static double min_floor(const dlp__kernel_sample *s, size_t n) {
    double m = INFINITY;
    for (size_t i = 0; i < n; i++)
        if (s[i].t_meas < m) m = s[i].t_meas;
    return isfinite(m) ? 0.95 * m : 0;
}

static int cmpd(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double quantile(double *v, size_t n, double q) {
    if (!n) return 0;
    qsort(v, n, sizeof *v, cmpd);
    double pos = q * (double)(n - 1);
    size_t i = (size_t)pos;
    double fr = pos - (double)i;
    return i + 1 < n ? v[i] * (1 - fr) + v[i + 1] * fr : v[i];
}

typedef struct {
    dlp__eff_fit_result fit;   /* on all GPUs */
    double floor_only;
} class_fit;

static const char *const kernel_gpus[] = {"Tesla P100-PCIE-16GB", "Tesla P4", "Tesla T4", "Tesla V100-PCIE-32GB",
                                          "NVIDIA A100-PCIE-40GB", "NVIDIA A100 80GB PCIe"};

/* Every kernel table under dir into R[] (the rows main() evaluates): the
 * per-GPU collections (train/collect), then the extra tables (vec.csv,
 * habitat.csv and train/{ln,softmax}.csv repeat rows of these and are not
 * read);
 * returns the number of kernels.  Shared with bench_e2e.c, which refits the
 * curves without one GPU (BENCH_ROOFLINE_NO_MAIN). */
static long load_kernel_tables(const dlp_devdb *db, const char *dir, rows R[K_N]) {
    char path[4096];
    long total = 0;
    for (int k = 0; k < K_N; k++) {
        if (k != K_ELEM)
            for (size_t gi = 0; gi < sizeof kernel_gpus / sizeof kernel_gpus[0]; gi++) {
                snprintf(path, sizeof path, "%s/train/collect/%s/p2.1.0/%s.csv", dir, kname[k], kernel_gpus[gi]);
                long a = read_table(db, path, k, &R[k]);
                if (a > 0) total += a;
            }
        if (k == K_ELEM) {
            snprintf(path, sizeof path, "%s/train/elem.csv", dir);
            long a = read_table(db, path, k, &R[k]);
            if (a > 0) total += a;
        }
        if (k != K_CONV) {
            snprintf(path, sizeof path, "%s/test/%s.csv", dir, kname[k]);
            long a = read_table(db, path, k, &R[k]);
            if (a > 0) total += a;
        }
    }
    return total;
}

/* The shipped protocol (linear curves, fitted floor, 12,000 kernels at most
 * per class) on every GPU but `held` (NULL: all), mapped onto op classes as
 * --emit maps them; no band. */
static void fit_efficiency(rows R[K_N], const dlp_device *held, dlp_efficiency *out) {
    memset(out, 0, sizeof *out);
    out->name = "neusight-fp32-logo";
    dlp__eff_fit_result fr[K_N];
    memset(fr, 0, sizeof fr);
    for (int k = 0; k < K_N; k++) {
        dlp__kernel_sample *tmp = malloc(sizeof *tmp * (R[k].n ? R[k].n : 1));
        size_t nt = 0;
        for (size_t i = 0; i < R[k].n; i++)
            if (!held || devs[R[k].r[i].dev] != held) tmp[nt++] = R[k].r[i].s;
        dlp__eff_fit_opts fo = {12000, -1, 1};
        if (nt) dlp__eff_fit(tmp, nt, &fo, &fr[k]);
        free(tmp);
    }
    for (int c = 0; c < DLP_OPC_COUNT_; c++) {
        int k = K_ELEM;
        for (int j = 0; j < K_N; j++)
            if (kclass[j] == c) k = j;
        if (c == DLP_OPC_SHAPE || c == DLP_OPC_CONTROL) continue;
        out->cls[c] = fr[k].curve;
    }
}

#ifndef BENCH_ROOFLINE_NO_MAIN
int main(int argc, char **argv) {
    const char *dir = NULL, *emit = NULL;
    size_t max_fit = 12000;
    int floor_min = 0, linear = 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--emit") && i + 1 < argc) emit = argv[++i];
        else if (!strcmp(argv[i], "--floor-min")) floor_min = 1;
        else if (!strcmp(argv[i], "--quadratic")) linear = 0;
        else if (!strcmp(argv[i], "--max-fit") && i + 1 < argc) max_fit = (size_t)atol(argv[++i]);
        else dir = argv[i];
    }
    if (!dir) dir = "../shared/data/NeuSight/scripts/asplos/data/dataset";
    dlp_devdb *db;
    dlp_error err = {0};
    if (dlp_devdb_load(NULL, &db, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    rows R[K_N] = {{0}};
    long total = load_kernel_tables(db, dir, R);
    if (total == 0) {
        fprintf(stderr, "bench_roofline: no kernel rows under %s\n", dir);
        return 1;
    }
    printf("== roofline kernel-time model vs NeuSight measurements (fp32, PyTorch 2.1), leave-one-GPU-out ==\n");
    printf("%ld kernels on %d GPUs.  MAPE %%; roofline = max(F/peak, B/bw) + 5 us; +floor = roofline + fitted floor;\n"
           "calibrated = fitted floor + roofline x efficiency curve.  Fits never see the held-out GPU.\n\n",
           total, n_devs);
    printf("%-8s %-24s %7s %10s %8s %11s\n", "class", "held-out GPU", "kernels", "roofline", "+floor", "calibrated");
    size_t cap = 0;
    for (int k = 0; k < K_N; k++) cap += R[k].n;
    double *ratio_cal = malloc(sizeof(double) * cap), *ratio_pure = malloc(sizeof(double) * cap);
    dlp__kernel_sample *tmp = malloc(sizeof(dlp__kernel_sample) * cap);
    if (!ratio_cal || !ratio_pure || !tmp) return 1;
    size_t nq = 0;
    double sum_cls_pure = 0, sum_cls_floor = 0, sum_cls_cal = 0;
    int n_cls = 0;
    class_fit cf[K_N];
    memset(cf, 0, sizeof cf);
    for (int k = 0; k < K_N; k++) {
        if (!R[k].n) continue;
        double cp = 0, cfl = 0, cc = 0;
        size_t cn = 0;
        for (int g = 0; g < n_devs; g++) {
            size_t nt = 0, ne = 0;
            for (size_t i = 0; i < R[k].n; i++) {
                if (R[k].r[i].dev != g) tmp[nt++] = R[k].r[i].s;
                else ne++;
            }
            if (!ne || !nt) continue;
            dlp__eff_fit_result fr;
            dlp__eff_fit_opts fo = {max_fit, floor_min ? min_floor(tmp, nt) : -1, linear};
            if (dlp__eff_fit(tmp, nt, &fo, &fr)) continue;
            double fl = fit_floor(R[k].r, R[k].n, g, max_fit);
            double ep = 0, ef = 0, ec = 0;
            for (size_t i = 0; i < R[k].n; i++) {
                const row *x = &R[k].r[i];
                if (x->dev != g) continue;
                double t = x->s.t_meas, rt = roof(&x->s);
                double pp = rt + DLP_PREDICT_LAUNCH_US * 1e-6, pf = rt + fl;
                double pc = dlp__eff_predict(&fr.curve, fr.floor_s, &x->s);
                ep += fabs(pp - t) / t;
                ef += fabs(pf - t) / t;
                ec += fabs(pc - t) / t;
                ratio_cal[nq] = t / pc;
                ratio_pure[nq] = t / pp;
                nq++;
            }
            printf("%-8s %-24s %7zu %9.1f%% %7.1f%% %10.1f%%\n", kname[k], devs[g]->name, ne, 100 * ep / ne,
                   100 * ef / ne, 100 * ec / ne);
            cp += ep, cfl += ef, cc += ec, cn += ne;
        }
        if (cn) {
            printf("%-8s %-24s %7zu %9.1f%% %7.1f%% %10.1f%%\n\n", kname[k], "all (pooled)", cn, 100 * cp / cn,
                   100 * cfl / cn, 100 * cc / cn);
            sum_cls_pure += cp / cn, sum_cls_floor += cfl / cn, sum_cls_cal += cc / cn;
            n_cls++;
        }
        /* the shipped fit: all GPUs */
        for (size_t i = 0; i < R[k].n; i++) tmp[i] = R[k].r[i].s;
        dlp__eff_fit_opts fo = {max_fit, floor_min ? min_floor(tmp, R[k].n) : -1, linear};
        dlp__eff_fit(tmp, R[k].n, &fo, &cf[k].fit);
        cf[k].floor_only = fit_floor(R[k].r, R[k].n, -1, max_fit);
    }
    if (n_cls)
        printf("%-8s %-24s %7s %9.1f%% %7.1f%% %10.1f%%\n", "mean", "of the class MAPEs", "", 100 * sum_cls_pure / n_cls,
               100 * sum_cls_floor / n_cls, 100 * sum_cls_cal / n_cls);
    double pq10 = 0, pq90 = 0, cq10 = 0, cq90 = 0, cq50 = 0, pq50 = 0;
    if (nq) {
        double *c2 = malloc(sizeof(double) * nq);
        memcpy(c2, ratio_cal, sizeof(double) * nq);
        cq10 = quantile(c2, nq, 0.10), cq50 = quantile(c2, nq, 0.5), cq90 = quantile(c2, nq, 0.90);
        memcpy(c2, ratio_pure, sizeof(double) * nq);
        pq10 = quantile(c2, nq, 0.10), pq50 = quantile(c2, nq, 0.5), pq90 = quantile(c2, nq, 0.90);
        free(c2);
    }
    printf("\nmeasured/predicted kernel time, held-out (p10 / p50 / p90): roofline %.2f / %.2f / %.2f, "
           "calibrated %.2f / %.2f / %.2f\n",
           pq10, pq50, pq90, cq10, cq50, cq90);
    printf("\nfit on all GPUs (shipped curves): ln ratio = a + b u + c v + d u^2 (u = log10 t_roof/us, v = log10 AI/ridge)\n");
    printf("%-8s %9s %9s %9s %9s %9s %10s %8s\n", "class", "a", "b", "c", "d", "floor_us", "fit MAPE", "floor-only");
    for (int k = 0; k < K_N; k++)
        if (R[k].n)
            printf("%-8s %9.4f %9.4f %9.4f %9.4f %9.2f %9.1f%% %7.2fus\n", kname[k], cf[k].fit.curve.a, cf[k].fit.curve.b,
                   cf[k].fit.curve.c, cf[k].fit.curve.d, cf[k].fit.floor_s * 1e6, 100 * cf[k].fit.mape,
                   cf[k].floor_only * 1e6);
    if (emit) {
        FILE *f = fopen(emit, "w");
        if (!f) {
            fprintf(stderr, "cannot write %s\n", emit);
            return 1;
        }
        fprintf(f, "/* calib_table.inc — GENERATED by bench/bench_roofline.sh --emit; do not edit.\n"
                   " * Efficiency curves fitted (dlp__eff_fit, MAPE) on NeuSight's fp32 kernel tables, %ld\n"
                   " * kernels on %d GPUs:",
                total, n_devs);
        for (int g = 0; g < n_devs; g++) fprintf(f, "%s %s", g ? "," : "", devs[g]->id);
        fprintf(f, ".\n * Band: p10/p90 of measured/predicted kernel time over every held-out kernel\n"
                   " * (leave-one-GPU-out).  Fitted floors (isolated-timing overhead, not used by\n"
                   " * dlp_predict), us:");
        for (int k = 0; k < K_N; k++) fprintf(f, " %s %.1f", kname[k], cf[k].fit.floor_s * 1e6);
        fprintf(f, " */\n");
        /* class -> table kind */
        int src[DLP_OPC_COUNT_];
        for (int c = 0; c < DLP_OPC_COUNT_; c++) src[c] = -1;
        for (int k = 0; k < K_N; k++) src[kclass[k]] = k;
        src[DLP_OPC_ACTIVATION] = src[DLP_OPC_POOL] = src[DLP_OPC_REDUCE] = src[DLP_OPC_DATA] = src[DLP_OPC_OTHER] =
            K_ELEM;
        fprintf(f, "static const dlp_efficiency dlp__eff_neusight = {\n    \"neusight-fp32-v1\",\n    {\n");
        for (int c = 0; c < DLP_OPC_COUNT_; c++) {
            if (src[c] < 0 || !R[src[c]].n) {
                fprintf(f, "        {0, 0, 0, 0}, /* %s: no kernel */\n", dlp_op_class_name(c));
                continue;
            }
            const dlp_eff_curve *cv = &cf[src[c]].fit.curve;
            fprintf(f, "        {%.6f, %.6f, %.6f, %.6f}, /* %s <- %s */\n", cv->a, cv->b, cv->c, cv->d,
                    dlp_op_class_name(c), kname[src[c]]);
        }
        fprintf(f, "    },\n    %.4f, %.4f};\n", cq10, cq90);
        fprintf(f, "static const dlp_efficiency dlp__eff_pure = {\"roofline\", {{0, 0, 0, 0}}, %.4f, %.4f};\n", pq10,
                pq90);
        fclose(f);
        printf("\nwrote %s\n", emit);
    }
    for (int k = 0; k < K_N; k++) free(R[k].r);
    free(ratio_cal), free(ratio_pure), free(tmp);
    dlp_devdb_free(db);
    return 0;
}
#endif
