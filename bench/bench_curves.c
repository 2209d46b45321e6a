/*
 * bench_curves.c — efficiency curves for half-precision (fp16/bf16) and
 * 8-bit (fp8/int8) tensor-core kernels: fit and evaluation.
 *
 * The shipped fp32 curves (src/predict/calib_table.inc) were fitted on
 * NeuSight's fp32 PyTorch kernels against the FP32 vector peak.  Half and
 * 8-bit GEMMs and fused attention run on tensor cores and have their own
 * efficiency; this program fits one curve per (precision, class) on measured
 * kernel tables and prints how well each does, leave-one-GPU-out.
 *
 * Data (docs/curves.md has the full story):
 *   aiconfigurator (NVIDIA, TensorRT-LLM "silicon" kernel DB; A100-SXM4-80GB
 *   trtllm 1.0.0, H100-SXM 80GB HBM3 trtllm 1.3.0rc10), DERIVED_csv copies:
 *     gemm_perf.csv     m, n, k, gemm_dtype, latency ms
 *         bfloat16 -> HALF; fp8 (H100) and sq (SmoothQuant int8, A100) -> FP8;
 *         int4_wo/int8_wo (weight-only: dequantise + fp16 math) and
 *         fp8_block (DeepSeek-style 1x128/128x128 block scales) are other
 *         kernels than a PyTorch model lowers to and are not used.
 *     context_attention_perf.csv   batch, isl, heads, kv heads, head dim,
 *         window, attn/kv dtype, latency ms: causal prefill attention.
 *         Rows with a sliding window (window_size != 0) or mixed attn/kv
 *         dtypes (bf16 math on an fp8 KV cache) are not used: the predictor
 *         has neither.
 *   vidur (Microsoft; Kineto kernel times, fp16, vLLM-style layers):
 *     compute/{a100,h100,a40}/<model>/mlp.csv  qkv/out/up/down projections
 *         = GEMMs of known shape (held-out check: a different harness, and
 *         the A40 is in no fit);
 *     a100/attention.csv (older profile)  flash-attention prefill chunks
 *         (held-out check of the attention curve).
 *
 * Work of a sample, exactly as the predictor defines it (docs/curves.md):
 *   GEMM  flops = 2 M N K,  bytes = (M K + K N + M N) x dtype size
 *   ATTN  flops = 4 B H Sq Sk D (halved when causal),
 *         bytes = (Q + K + V + O) x dtype size  (the S x S matrix never
 *         reaches DRAM in flash attention)
 * Peak = dlp_device_peak_flops(device, dtype, tensor_core = 1), bandwidth =
 * mem_bandwidth_gbs, both from OUR device database, so u and v are what
 * dlp__kernel_time computes at prediction time.
 *
 * Protocol: dlp__eff_fit (linear curve, fitted floor, as the fp32 curves);
 * the fitting set takes at most 6,000 kernels per GPU by an even stride so
 * that no GPU dominates.  The floor absorbs the op-level overhead of the
 * harness (quantise / RoPE / KV-cache kernels of the measured op, 2-13 us)
 * and, as for the fp32 curves, is not used by dlp_predict.
 *   roof+floor   roofline + a fitted floor (curve = 1)
 *   fp32 curve   today's behaviour: the fp32 NeuSight curve of the class
 *                (linear for GEMM, bmm for attention) + a fitted floor
 *   fit (all)    the curve fitted on every GPU (in-sample)
 *   LOGO         fitted on the other GPU(s) only
 *
 *   bench_curves AIC_DIR VIDUR_DIR NEUSIGHT_DIR [--emit FILE]
 */
#define MAX_DEV 16
#define BENCH_ROOFLINE_NO_MAIN
#include "bench_roofline.c"

#include <glob.h>

#include "predict/curves.h"

enum { KD_GEMM, KD_ATTN, KD_N };
static const char *const kd_name[KD_N] = {"gemm", "attn"};
static const char *const prec_name[DLP__PREC_COUNT_] = {"fp32", "half", "fp8"};

/* aiconfigurator rows by [prec][kind]; vidur rows by kind (HALF) */
static rows AIC[DLP__PREC_COUNT_][KD_N];
static rows VID[KD_N];

#define PER_GPU_FIT 6000

/* ---- readers --------------------------------------------------------------- */

/* dtype of an aiconfigurator dtype string: DLP_DT_*, or 0 = not used */
static int aic_dtype(const char *s) {
    if (!strcmp(s, "bfloat16")) return DLP_DT_BFLOAT16;
    if (!strcmp(s, "float16") || !strcmp(s, "fp16")) return DLP_DT_FLOAT16;
    if (!strcmp(s, "fp8")) return DLP_DT_FLOAT8E4M3FN;
    if (!strcmp(s, "sq")) return DLP_DT_INT8;      /* SmoothQuant: int8 x int8 tensor-core GEMM */
    return 0;
}

static double dt_size(int dt) { return dt == DLP_DT_BFLOAT16 || dt == DLP_DT_FLOAT16 ? 2 : 1; }

static void add_row(rows *R, int di, int dt, double F, double B, double t_s) {
    row x;
    x.dev = di;
    x.s.flops = F;
    x.s.bytes = B;
    x.s.peak = dlp_device_peak_flops(devs[di], dt, 1);
    x.s.bw = devs[di]->mem_bandwidth_gbs * 1e9;
    x.s.t_meas = t_s;
    push(R, &x);
}

typedef struct {
    FILE *f;
    char *hdr[64], *v[64];
    int nh;
} csvf;

static char hbuf[65536], lbuf[65536];

static int csv_open(csvf *c, const char *path) {
    c->f = fopen(path, "r");
    if (!c->f) return -1;
    if (!fgets(hbuf, sizeof hbuf, c->f)) {
        fclose(c->f);
        return -1;
    }
    c->nh = csv_split(hbuf, c->hdr, 64);
    return 0;
}

static int csv_next(csvf *c) {
    while (fgets(lbuf, sizeof lbuf, c->f))
        if (csv_split(lbuf, c->v, 64) >= c->nh) return 1;
    fclose(c->f);
    return 0;
}

static long skipped_gemm[8], skipped_attn_window, skipped_attn_mixed;
static const char *const skip_names[8] = {"int4_wo", "int8_wo", "fp8_block", "other"};

static long read_aic_gemm(const dlp_devdb *db, const char *path) {
    csvf c;
    if (csv_open(&c, path)) return -1;
    int cD = col(c.hdr, c.nh, "device"), cT = col(c.hdr, c.nh, "gemm_dtype"), cM = col(c.hdr, c.nh, "m");
    int cN = col(c.hdr, c.nh, "n"), cK = col(c.hdr, c.nh, "k"), cL = col(c.hdr, c.nh, "latency");
    if (cD < 0 || cT < 0 || cM < 0 || cN < 0 || cK < 0 || cL < 0) {
        fclose(c.f);
        return -1;
    }
    long n = 0;
    while (csv_next(&c)) {
        int dt = aic_dtype(c.v[cT]);
        if (!dt) {
            int s = 3;
            for (int i = 0; i < 3; i++)
                if (!strcmp(c.v[cT], skip_names[i])) s = i;
            skipped_gemm[s]++;
            continue;
        }
        int di = dev_index(db, c.v[cD]);
        double m = atof(c.v[cM]), nn = atof(c.v[cN]), k = atof(c.v[cK]), t = atof(c.v[cL]) * 1e-3;
        if (di < 0 || !(m > 0 && nn > 0 && k > 0 && t > 0)) continue;
        int prec = dlp__prec_of_dtype(dt);
        add_row(&AIC[prec][KD_GEMM], di, dt, 2 * m * nn * k, (m * k + k * nn + m * nn) * dt_size(dt), t);
        n++;
    }
    return n;
}

/* flash attention: flops 4 B H Sq Sk D (x 1/2 causal), bytes (Q + K + V + O) */
static void attn_work(double b, double h, double hkv, double d, double sq, double sk, int causal, double esz,
                      double *F, double *B) {
    *F = 4 * b * h * sq * sk * d * (causal ? 0.5 : 1);
    *B = esz * b * d * (2 * sq * h + 2 * sk * hkv);
}

static long read_aic_attn(const dlp_devdb *db, const char *path) {
    csvf c;
    if (csv_open(&c, path)) return -1;
    int cD = col(c.hdr, c.nh, "device"), cB = col(c.hdr, c.nh, "batch_size"), cS = col(c.hdr, c.nh, "isl");
    int cH = col(c.hdr, c.nh, "num_heads"), cKV = col(c.hdr, c.nh, "num_key_value_heads");
    int cHD = col(c.hdr, c.nh, "head_dim"), cW = col(c.hdr, c.nh, "window_size");
    int cA = col(c.hdr, c.nh, "attn_dtype"), cKD = col(c.hdr, c.nh, "kv_cache_dtype"), cL = col(c.hdr, c.nh, "latency");
    if (cD < 0 || cB < 0 || cS < 0 || cH < 0 || cKV < 0 || cHD < 0 || cW < 0 || cA < 0 || cKD < 0 || cL < 0) {
        fclose(c.f);
        return -1;
    }
    long n = 0;
    while (csv_next(&c)) {
        if (atof(c.v[cW]) != 0) {
            skipped_attn_window++;
            continue;
        }
        if (strcmp(c.v[cA], c.v[cKD])) {
            skipped_attn_mixed++;
            continue;
        }
        int dt = aic_dtype(c.v[cA]);
        int di = dev_index(db, c.v[cD]);
        if (!dt || di < 0) continue;
        double b = atof(c.v[cB]), s = atof(c.v[cS]), h = atof(c.v[cH]), kv = atof(c.v[cKV]), d = atof(c.v[cHD]);
        double t = atof(c.v[cL]) * 1e-3, F, B;
        if (!(b > 0 && s > 0 && h > 0 && kv > 0 && d > 0 && t > 0)) continue;
        attn_work(b, h, kv, d, s, s, 1, dt_size(dt), &F, &B);
        add_row(&AIC[dlp__prec_of_dtype(dt)][KD_ATTN], di, dt, F, B, t);
        n++;
    }
    return n;
}

static const char *vidur_dev(const char *path) {
    if (strstr(path, "/a100/")) return "a100-80gb";   /* vidur's A100 profiles: 80 GB SXM (DGX) */
    if (strstr(path, "/h100/")) return "h100-sxm";
    if (strstr(path, "/a40/")) return "a40";
    return NULL;
}

static long read_vidur_mlp(const dlp_devdb *db, const char *path) {
    const char *dn = vidur_dev(path);
    int di = dn ? dev_index(db, dn) : -1;
    csvf c;
    if (di < 0 || csv_open(&c, path)) return -1;
    static const char *const ops[4] = {"attn_pre_proj", "attn_post_proj", "mlp_up_proj", "mlp_down_proj"};
    int co[4];
    char nm[128];
    for (int i = 0; i < 4; i++) {
        snprintf(nm, sizeof nm, "time_stats.%s.median", ops[i]);
        co[i] = col(c.hdr, c.nh, nm);
    }
    int cH = col(c.hdr, c.nh, "n_head"), cKV = col(c.hdr, c.nh, "n_kv_head"), cE = col(c.hdr, c.nh, "n_embd");
    int cX = col(c.hdr, c.nh, "n_expanded_embd"), cG = col(c.hdr, c.nh, "use_gated_mlp");
    int cT = col(c.hdr, c.nh, "num_tokens"), cP = col(c.hdr, c.nh, "num_tensor_parallel_workers");
    if (cP < 0) cP = col(c.hdr, c.nh, "num_tensor_parallel_work");
    if (cH < 0 || cKV < 0 || cE < 0 || cX < 0 || cG < 0 || cT < 0 || cP < 0) {
        fclose(c.f);
        return -1;
    }
    long n = 0;
    while (csv_next(&c)) {
        double h = atof(c.v[cH]), kv = atof(c.v[cKV]), e = atof(c.v[cE]), x = atof(c.v[cX]);
        double m = atof(c.v[cT]), tp = atof(c.v[cP]), hd = e / h;
        int gated = !strcmp(c.v[cG], "True");
        if (!(m > 0 && tp > 0 && h > 0)) continue;
        /* (K, N) of each projection on one tensor-parallel worker */
        double kn[4][2] = {{e, (h + 2 * kv) * hd / tp}, {e / tp, e}, {e, (gated ? 2 : 1) * x / tp}, {x / tp, e}};
        for (int i = 0; i < 4; i++) {
            if (co[i] < 0 || !*c.v[co[i]]) continue;
            double t = atof(c.v[co[i]]) * 1e-3, k = kn[i][0], nn = kn[i][1];
            if (!(t > 0)) continue;
            add_row(&VID[KD_GEMM], di, DLP_DT_FLOAT16, 2 * m * nn * k, 2 * (m * k + k * nn + m * nn), t);
            n++;
        }
    }
    return n;
}

static long read_vidur_attn(const dlp_devdb *db, const char *path) {
    int di = dev_index(db, "a100-80gb");
    csvf c;
    if (di < 0 || csv_open(&c, path)) return -1;
    int cP = col(c.hdr, c.nh, "is_prefill"), cL = col(c.hdr, c.nh, "time_stats.attn_prefill.median");
    int cE = col(c.hdr, c.nh, "n_embd"), cH = col(c.hdr, c.nh, "n_q_head"), cKV = col(c.hdr, c.nh, "n_kv_head");
    int cTP = col(c.hdr, c.nh, "num_tensor_parallel_workers"), cB = col(c.hdr, c.nh, "batch_size");
    int cC = col(c.hdr, c.nh, "prefill_chunk_size"), cK = col(c.hdr, c.nh, "kv_cache_size");
    if (cP < 0 || cL < 0 || cE < 0 || cH < 0 || cKV < 0 || cTP < 0 || cB < 0 || cC < 0 || cK < 0) {
        fclose(c.f);
        return -1;
    }
    long n = 0;
    while (csv_next(&c)) {
        if (strcmp(c.v[cP], "True") || !*c.v[cL]) continue;
        double e = atof(c.v[cE]), h = atof(c.v[cH]), kv = atof(c.v[cKV]), tp = atof(c.v[cTP]);
        double b = atof(c.v[cB]), ch = atof(c.v[cC]), kc = atof(c.v[cK]), t = atof(c.v[cL]) * 1e-3;
        if (!(e > 0 && h > 0 && tp > 0 && b > 0 && ch > 0 && t > 0)) continue;
        double d = e / h, hq = h / tp, hk = kv / tp;
        /* a chunk of ch new tokens after kc cached ones: full attention to the
         * cache, causal within the chunk */
        double F = 4 * b * hq * d * (ch * kc + ch * ch * 0.5);
        double B = 2 * b * d * (2 * ch * hq + 2 * (kc + ch) * hk);
        add_row(&VID[KD_ATTN], di, DLP_DT_FLOAT16, F, B, t);
        n++;
    }
    return n;
}

static long read_glob(const dlp_devdb *db, const char *pattern, long (*fn)(const dlp_devdb *, const char *)) {
    glob_t g;
    long total = 0;
    if (glob(pattern, 0, NULL, &g)) return 0;
    for (size_t i = 0; i < g.gl_pathc; i++) {
        long a = fn(db, g.gl_pathv[i]);
        if (a > 0) total += a;
    }
    globfree(&g);
    return total;
}

/* ---- fitting / evaluation ---------------------------------------------------- */

/* curve + floor fitted on every GPU but `held` (-1: all), <= PER_GPU_FIT per GPU */
static int fit_rows(const rows *R, int held, dlp__eff_fit_result *fr) {
    dlp__kernel_sample *tmp = malloc(sizeof *tmp * (R->n ? R->n : 1));
    size_t nt = 0;
    for (int g = 0; g < n_devs; g++) {
        if (g == held) continue;
        size_t cnt = 0;
        for (size_t i = 0; i < R->n; i++) cnt += R->r[i].dev == g;
        if (!cnt) continue;
        size_t want = cnt < PER_GPU_FIT ? cnt : PER_GPU_FIT, k = 0, j = 0;
        for (size_t i = 0; i < R->n; i++) {
            if (R->r[i].dev != g) continue;
            /* even stride: the j-th of this GPU's rows is kept when it is the next of want */
            if (k < want && j == (size_t)((double)k * (double)cnt / (double)want)) {
                tmp[nt++] = R->r[i].s;
                k++;
            }
            j++;
        }
    }
    dlp__eff_fit_opts fo = {0, -1, 1};
    int rc = nt ? dlp__eff_fit(tmp, nt, &fo, fr) : 1;
    free(tmp);
    return rc;
}

/* floor for a fixed curve (NULL: roofline), golden section on MAPE, all rows */
static double fit_floor_curve(const rows *R, const dlp_eff_curve *c) {
    double lo = 0, hi = 2e-4;
    for (int it = 0; it < 50; it++) {
        double m1 = lo + (hi - lo) * 0.381966, m2 = hi - (hi - lo) * 0.381966, e1 = 0, e2 = 0;
        for (size_t i = 0; i < R->n; i++) {
            const dlp__kernel_sample *s = &R->r[i].s;
            double kt = dlp__kernel_time(c, s->flops, s->bytes, s->peak, s->bw);
            e1 += fabs(kt + m1 - s->t_meas) / s->t_meas;
            e2 += fabs(kt + m2 - s->t_meas) / s->t_meas;
        }
        if (e1 < e2) hi = m2;
        else lo = m1;
    }
    return (lo + hi) / 2;
}

/* MAPE over R's rows on GPU g (-1: all) of floor + kernel_time(c); ratios
 * measured/predicted appended to q (if non-NULL) */
static double mape_on(const rows *R, int g, const dlp_eff_curve *c, double floor_s, double *q, size_t *nq,
                      size_t *cnt) {
    double e = 0;
    size_t n = 0;
    for (size_t i = 0; i < R->n; i++) {
        if (g >= 0 && R->r[i].dev != g) continue;
        double p = dlp__eff_predict(c, floor_s, &R->r[i].s), t = R->r[i].s.t_meas;
        e += fabs(p - t) / t;
        if (q) q[(*nq)++] = t / p;
        n++;
    }
    if (cnt) *cnt = n;
    return n ? e / (double)n : NAN;
}

static int gpus_of(const rows *R, int *g) {
    int n = 0;
    for (int d = 0; d < n_devs; d++)
        for (size_t i = 0; i < R->n; i++)
            if (R->r[i].dev == d) {
                g[n++] = d;
                break;
            }
    return n;
}

typedef struct {
    int have;
    dlp__eff_fit_result all;   /* shipped */
    size_t n;
    int ngpu;
    double mape_all, mape_logo;      /* mean over GPUs */
    double q10, q50, q90;            /* measured/predicted, LOGO (all-GPU fit if one GPU) */
    char gpu_detail[512];
} fit_summary;

static fit_summary FS[DLP__PREC_COUNT_][KD_N];

static void evaluate(int prec, int kd, const dlp_eff_curve *fp32c, const char *fp32name) {
    const rows *R = &AIC[prec][kd];
    fit_summary *S = &FS[prec][kd];
    if (!R->n) return;
    S->have = 1;
    S->n = R->n;
    if (fit_rows(R, -1, &S->all)) {
        S->have = 0;
        return;
    }
    int g[MAX_DEV];
    int ng = gpus_of(R, g);
    S->ngpu = ng;
    double fl_roof = fit_floor_curve(R, NULL), fl_fp32 = fit_floor_curve(R, fp32c);
    double *q = malloc(sizeof(double) * R->n);
    size_t nq = 0;
    double sa = 0, sl = 0, sr = 0, sf = 0;
    int nl = 0;
    printf("%-4s %-4s %-16s %7s %11s %11s %10s %10s\n", prec_name[prec], kd_name[kd], "GPU", "kernels", "roof+floor",
           fp32name, "fit(all)", "LOGO");
    size_t off = 0;
    for (int i = 0; i < ng; i++) {
        size_t cnt;
        double er = mape_on(R, g[i], NULL, fl_roof, NULL, NULL, &cnt);
        double ef = mape_on(R, g[i], fp32c, fl_fp32, NULL, NULL, NULL);
        double ea = mape_on(R, g[i], &S->all.curve, S->all.floor_s, ng < 2 ? q : NULL, &nq, NULL);
        double el = NAN;
        if (ng >= 2) {
            dlp__eff_fit_result lo;
            if (!fit_rows(R, g[i], &lo)) {
                el = mape_on(R, g[i], &lo.curve, lo.floor_s, q, &nq, NULL);
                sl += el, nl++;
            }
        }
        sa += ea, sr += er, sf += ef;
        char lb[16];
        if (isnan(el)) snprintf(lb, sizeof lb, "n/a");
        else snprintf(lb, sizeof lb, "%.1f%%", 100 * el);
        printf("%-4s %-4s %-16s %7zu %10.1f%% %10.1f%% %9.1f%% %10s\n", prec_name[prec], kd_name[kd], devs[g[i]]->id,
               cnt, 100 * er, 100 * ef, 100 * ea, lb);
        off += (size_t)snprintf(S->gpu_detail + off, sizeof S->gpu_detail - off, "%s%s %zu: %.1f%% / %s", i ? "; " : "",
                                devs[g[i]]->id, cnt, 100 * ea, lb);
        if (off >= sizeof S->gpu_detail) off = sizeof S->gpu_detail - 1;
    }
    S->mape_all = sa / ng;
    S->mape_logo = nl ? sl / nl : NAN;
    printf("%-4s %-4s %-16s %7zu %10.1f%% %10.1f%% %9.1f%% %9.1f%%\n", prec_name[prec], kd_name[kd], "mean of GPUs",
           R->n, 100 * sr / ng, 100 * sf / ng, 100 * S->mape_all, 100 * S->mape_logo);
    S->q10 = quantile(q, nq, 0.10), S->q50 = quantile(q, nq, 0.5), S->q90 = quantile(q, nq, 0.90);
    printf("     curve a=%.4f b=%.4f c=%.4f  floor %.1f us (fp32-curve floor %.1f, roof floor %.1f); "
           "measured/predicted %s p10/p50/p90 %.2f / %.2f / %.2f\n\n",
           S->all.curve.a, S->all.curve.b, S->all.curve.c, S->all.floor_s * 1e6, fl_fp32 * 1e6, fl_roof * 1e6,
           ng >= 2 ? "LOGO" : "(in-sample: one GPU)", S->q10, S->q50, S->q90);
    free(q);
}

/* vidur: Kineto kernel durations, no harness overhead: predicted = kernel time */
static void eval_vidur(int kd, const dlp_eff_curve *fp32c, const char *fp32name) {
    const rows *R = &VID[kd];
    if (!R->n || !FS[DLP__PREC_HALF][kd].have) return;
    const dlp_eff_curve *hc = &FS[DLP__PREC_HALF][kd].all.curve;
    int g[MAX_DEV];
    int ng = gpus_of(R, g);
    printf("%-4s %-16s %7s %10s %11s %12s   half curve: measured/predicted p10/p50/p90\n", kd_name[kd], "GPU", "kernels",
           "roofline", fp32name, "half curve");
    for (int i = 0; i < ng; i++) {
        size_t cnt, nq = 0;
        double *q = malloc(sizeof(double) * R->n);
        double er = mape_on(R, g[i], NULL, 0, NULL, NULL, &cnt);
        double ef = mape_on(R, g[i], fp32c, 0, NULL, NULL, NULL);
        double eh = mape_on(R, g[i], hc, 0, q, &nq, NULL);
        double q10 = quantile(q, nq, 0.1), q50 = quantile(q, nq, 0.5), q90 = quantile(q, nq, 0.9);
        printf("%-4s %-16s %7zu %9.1f%% %10.1f%% %11.1f%%   %.2f / %.2f / %.2f\n", kd_name[kd], devs[g[i]]->id, cnt,
               100 * er, 100 * ef, 100 * eh, q10, q50, q90);
        free(q);
    }
    printf("\n");
}

/* NeuSight fp32: how much worse is the linear curve on conv kernels than the
 * conv curve?  (bears on the choice of the half GEMM curve for half conv) */
static void conv_vs_gemm(const dlp_devdb *db, const char *ndir) {
    rows C = {0};
    char path[4096];
    for (size_t gi = 0; gi < sizeof kernel_gpus / sizeof kernel_gpus[0]; gi++) {
        snprintf(path, sizeof path, "%s/train/collect/conv/p2.1.0/%s.csv", ndir, kernel_gpus[gi]);
        read_table(db, path, K_CONV, &C);
    }
    if (!C.n) return;
    const dlp_efficiency *e = dlp_efficiency_builtin();
    double fc = fit_floor_curve(&C, &e->cls[DLP_OPC_CONV]), fg = fit_floor_curve(&C, &e->cls[DLP_OPC_GEMM]);
    double fr = fit_floor_curve(&C, NULL);
    printf("== NeuSight fp32 conv kernels (%zu): MAPE with the conv curve %.1f%%, with the linear (GEMM) curve %.1f%%, "
           "roofline %.1f%% (each + its fitted floor)\n\n",
           C.n, 100 * mape_on(&C, -1, &e->cls[DLP_OPC_CONV], fc, NULL, NULL, NULL),
           100 * mape_on(&C, -1, &e->cls[DLP_OPC_GEMM], fg, NULL, NULL, NULL), 100 * mape_on(&C, -1, NULL, fr, NULL, NULL, NULL));
    free(C.r);
}

/* ---- emit ---------------------------------------------------------------------- */

static const char *src_id(int prec, int kd) {
    if (prec == DLP__PREC_HALF) return kd == KD_GEMM ? "aic-trtllm-bf16:gemm" : "aic-trtllm-bf16:context-attn";
    return kd == KD_GEMM ? "aic-trtllm-fp8+int8:gemm" : "aic-trtllm-fp8:context-attn";
}

static int emit(const char *path) {
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    fprintf(f, "/* curves_table.inc — GENERATED by bench/bench_curves.sh --emit; do not edit.\n"
               " * Efficiency curves of tensor-core kernels fitted (dlp__eff_fit, linear, MAPE, <= %d\n"
               " * kernels per GPU) on aiconfigurator's TensorRT-LLM kernel tables (A100-SXM4-80GB\n"
               " * trtllm 1.0.0, H100-SXM trtllm 1.3.0rc10); docs/curves.md.  Per curve: kernels,\n"
               " * MAPE of the all-GPU fit (mean over GPUs), leave-one-GPU-out MAPE, fitted floor\n"
               " * (harness op overhead, not used by dlp_predict), measured/predicted p10/p90. */\n",
            PER_GPU_FIT);
    static const char *const var[DLP__PREC_COUNT_][KD_N] = {
        {NULL, NULL}, {"dlp__kc_half_gemm", "dlp__kc_half_attn"}, {"dlp__kc_fp8_gemm", "dlp__kc_fp8_attn"}};
    for (int p = DLP__PREC_HALF; p < DLP__PREC_COUNT_; p++)
        for (int k = 0; k < KD_N; k++) {
            const fit_summary *S = &FS[p][k];
            if (!S->have) {
                fclose(f);
                fprintf(stderr, "bench_curves: no %s %s data; not emitting\n", prec_name[p], kd_name[k]);
                return -1;
            }
            char lg[32];
            if (isnan(S->mape_logo)) snprintf(lg, sizeof lg, "n/a (1 GPU)");
            else snprintf(lg, sizeof lg, "%.1f%%", 100 * S->mape_logo);
            fprintf(f, "/* %s %s: %zu kernels on %d GPU(s); fit %.1f%%, LOGO %s; floor %.1f us; band %.2f-%.2f */\n",
                    prec_name[p], kd_name[k], S->n, S->ngpu, 100 * S->mape_all, lg, S->all.floor_s * 1e6, S->q10,
                    S->q90);
            fprintf(f, "static const dlp__kcurve %s = {{%.6f, %.6f, %.6f, %.6f}, \"%s\"};\n", var[p][k],
                    S->all.curve.a, S->all.curve.b, S->all.curve.c, S->all.curve.d, src_id(p, k));
        }
    fclose(f);
    return 0;
}

#ifndef BENCH_CURVES_NO_MAIN   /* bench/e2e_vision.c refits these curves for MLPerf's LOGO */
int main(int argc, char **argv) {
    const char *pos[3] = {"../shared/data/aiconfigurator", "../shared/data/vidur",
                          "../shared/data/NeuSight/scripts/asplos/data/dataset"};
    const char *emit_path = NULL;
    int np = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--emit") && i + 1 < argc) emit_path = argv[++i];
        else if (np < 3) pos[np++] = argv[i];
    }
    dlp_devdb *db;
    dlp_error err = {0};
    if (dlp_devdb_load(NULL, &db, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    char pat[4096];
    const char *sys = "DERIVED_csv/aic-core/src/aiconfigurator_core/systems/data";
    snprintf(pat, sizeof pat, "%s/%s/*/gemm/trtllm/*/gemm_perf.csv", pos[0], sys);
    long ng = read_glob(db, pat, read_aic_gemm);
    snprintf(pat, sizeof pat, "%s/%s/*/attention/trtllm/*/context_attention_perf.csv", pos[0], sys);
    long na = read_glob(db, pat, read_aic_attn);
    if (ng + na == 0) {
        fprintf(stderr, "bench_curves: no aiconfigurator tables under %s\n", pos[0]);
        return 1;
    }
    snprintf(pat, sizeof pat, "%s/data/profiling/compute/*/*/*/mlp.csv", pos[1]);
    long nvg = read_glob(db, pat, read_vidur_mlp);
    snprintf(pat, sizeof pat, "%s/_history_*/data/profiling/a100/attention.csv", pos[1]);
    long nva = read_glob(db, pat, read_vidur_attn);

    printf("== efficiency curves of tensor-core kernels (half, fp8/int8): aiconfigurator TRT-LLM kernel tables ==\n");
    printf("aiconfigurator: %ld GEMMs, %ld context-attention kernels used; not used: GEMM int4_wo %ld, int8_wo %ld, "
           "fp8_block %ld, other %ld; attention with a sliding window %ld, mixed attn/kv dtype %ld\n",
           ng, na, skipped_gemm[0], skipped_gemm[1], skipped_gemm[2], skipped_gemm[3], skipped_attn_window,
           skipped_attn_mixed);
    printf("vidur (held-out check, fp16 Kineto kernel times): %ld GEMMs, %ld prefill attention kernels\n\n", nvg, nva);
    printf("MAPE %% per GPU; each of roof+floor and fp32-curve gets its own fitted floor; fit(all) = curve fitted on\n"
           "every GPU (in-sample); LOGO = fitted on the other GPU only.\n\n");
    const dlp_efficiency *e32 = dlp_efficiency_builtin();
    for (int p = DLP__PREC_HALF; p < DLP__PREC_COUNT_; p++) {
        evaluate(p, KD_GEMM, &e32->cls[DLP_OPC_GEMM], "fp32 linear");
        evaluate(p, KD_ATTN, &e32->cls[DLP_OPC_MATMUL], "fp32 bmm");
    }
    printf("== vidur (fp16, never in a fit; predicted = kernel time, no floor: Kineto measures the kernel alone) ==\n");
    eval_vidur(KD_GEMM, &e32->cls[DLP_OPC_GEMM], "fp32 linear");
    eval_vidur(KD_ATTN, &e32->cls[DLP_OPC_MATMUL], "fp32 bmm");
    conv_vs_gemm(db, pos[2]);
    int rc = 0;
    if (emit_path) {
        if (emit(emit_path)) rc = 1;
        else printf("wrote %s\n", emit_path);
    }
    for (int p = 0; p < DLP__PREC_COUNT_; p++)
        for (int k = 0; k < KD_N; k++) free(AIC[p][k].r);
    for (int k = 0; k < KD_N; k++) free(VID[k].r);
    dlp_devdb_free(db);
    return rc;
}
#endif
