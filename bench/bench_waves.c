/*
 * bench_waves.c — the tiles-and-waves GEMM model (src/predict/waves.c) against
 * the efficiency curves (src/predict/calib.c) on NeuSight's fp32 linear and
 * bmm kernel tables, leave-one-GPU-out: for each GPU, both models are fitted
 * on the other GPUs' kernels (each with its own fitted isolated-kernel floor,
 * the shipped protocol) and predict that GPU's kernels.  Prints kernel-level
 * MAPE and the median measured/predicted per GPU and class.
 *   build/bench_waves DIR [--aic AICDIR] [--emit FILE] [--max-fit N]
 * --aic adds aiconfigurator's bf16 GEMMs (A100-SXM, H100-SXM): the tensor-core
 * set, fitted and evaluated the same way (two GPUs: LOGO is a transfer).
 *   build/bench_waves --check CSV DEVICE   (a measured fp32 GEMM sweep, never fitted)
 * --emit writes the all-GPU fit as src/predict/waves_table.inc.
 */
#define BENCH_ROOFLINE_NO_MAIN
#include "bench_roofline.c"
#include "bench_waves_data.h"
#include "predict/curves.h"

static double curve_time(const dlp__eff_fit_result *f, const dlp__kernel_sample *k) {
    return f->floor_s + dlp__kernel_time(&f->curve, k->flops, k->bytes, k->peak, k->bw);
}

typedef struct {
    double ape_w, ape_c;
    double *ratio_w, *ratio_c;
    size_t n;
} acc;

static void report(const char *gpu, const char *cls, acc *a) {
    if (!a->n) return;
    printf("| %s | %s | %zu | %.1f%% | %.1f%% | %.2f | %.2f |\n", gpu, cls, a->n, 100 * a->ape_c / a->n,
           100 * a->ape_w / a->n, quantile(a->ratio_c, a->n, 0.5), quantile(a->ratio_w, a->n, 0.5));
}

static const char *const *cls_name;   /* names of classes 0 and 1 of the set */

/* Leave `held` out, fit both models, evaluate on held's rows of each class. */
static void logo_gpu(const wrows *R, int held, size_t max_fit, acc tot[2]) {
    size_t mine = 0;
    for (size_t i = 0; i < R->n; i++) mine += R->r[i].dev == held;
    if (!mine) return;              /* a GPU of the other set */
    dlp__wave_params wp;
    double wm = 0;
    if (wfit_without(R, devs[held], max_fit, &wp, &wm)) return;
    dlp__eff_fit_result cf[2];
    for (int bm = 0; bm < 2; bm++) {
        dlp__kernel_sample *tmp = malloc(sizeof *tmp * R->n);
        size_t nt = 0;
        for (size_t i = 0; i < R->n; i++)
            if (R->r[i].dev != held && R->r[i].is_bmm == bm) tmp[nt++] = R->r[i].k;
        dlp__eff_fit_opts fo = {12000, -1, 1};
        memset(&cf[bm], 0, sizeof cf[bm]);
        if (nt) dlp__eff_fit(tmp, nt, &fo, &cf[bm]);
        free(tmp);
    }
    for (int bm = 0; bm < 2; bm++) {
        acc a = {0};
        a.ratio_w = malloc(sizeof(double) * R->n);
        a.ratio_c = malloc(sizeof(double) * R->n);
        for (size_t i = 0; i < R->n; i++) {
            const wrow *r = &R->r[i];
            if (r->dev != held || r->is_bmm != bm) continue;
            double tw =
                wp.floor_s + dlp__wave_capped(&r->w, dlp__wave_gemm_time(&wp, r->w.d, r->w.peak, r->w.bw, &r->w.s, NULL));
            double tc = curve_time(&cf[bm], &r->k), t = r->w.t_meas;
            a.ape_w += fabs(tw - t) / t;
            a.ape_c += fabs(tc - t) / t;
            a.ratio_w[a.n] = t / tw;
            a.ratio_c[a.n] = t / tc;
            a.n++;
        }
        report(devs[held]->id, cls_name[bm], &a);
        tot[bm].ape_w += a.n ? a.ape_w / a.n : 0;
        tot[bm].ape_c += a.n ? a.ape_c / a.n : 0;
        tot[bm].n += a.n ? 1 : 0;
        free(a.ratio_w);
        free(a.ratio_c);
    }
    printf("|   (fit without it: e_max %.3f, ai0 %.2f, k0 %.1f, l2 %.1f B/clk/SM, lane_g %.2f, floor %.1f us, in-sample "
           "%.1f%%) | | | | | | |\n",
           wp.e_max, wp.ai0, wp.k0, wp.l2_bpc, wp.lane_g, wp.floor_s * 1e6, 100 * wm);
}

/* One generated table entry (fp32, half) into f. */
static void emit_one(FILE *f, const char *var, const char *what, const dlp__wave_params *p, double mape, size_t n) {
    fprintf(f, "/* %s: %zu kernels, every GPU; in-sample MAPE %.1f%% with the fitted floor. */\n", what, n,
            100 * mape);
    fprintf(f, "static const dlp__wave_params %s = {%.6g, %.6g, %.6g, %.6g, %.6g, %.6g};\n", var, p->e_max, p->ai0,
            p->k0, p->l2_bpc, p->lane_g, p->floor_s);
}

/* --check CSV DEVICE: fp32 GEMMs measured on one GPU (columns dtype, M, N,
 * K, ms; e.g. our own H100 sweep, data/measured/h100/gemm.csv), never fitted:
 * the shipped wave model and the shipped fp32 linear curve, each after the
 * power cap as dlp_predict applies it.  Rows under min_ms are host-launch
 * bound in that harness and are listed but not counted. */
static int check_csv(const dlp_devdb *db, const char *path, const char *dev_id, double min_ms) {
    const dlp_device *d = dlp_devdb_find(db, dev_id);
    FILE *f = fopen(path, "r");
    if (!d || !f) {
        fprintf(stderr, "bench_waves: --check needs a readable CSV and a known device (%s, %s)\n", path, dev_id);
        if (f) fclose(f);
        return 1;
    }
    static char line[4096], hl[4096];
    char *hdr[32], *v[32];
    if (!fgets(hl, sizeof hl, f)) {
        fclose(f);
        return 1;
    }
    int nh = csv_split(hl, hdr, 32);
    int cK0 = col(hdr, nh, "kind"), cDt = col(hdr, nh, "dtype"), cM = col(hdr, nh, "M"), cN = col(hdr, nh, "N");
    int cK = col(hdr, nh, "K"), cMs = col(hdr, nh, "ms");
    if (cDt < 0 || cM < 0 || cN < 0 || cK < 0 || cMs < 0) {
        fprintf(stderr, "bench_waves: %s: needs columns dtype, M, N, K, ms\n", path);
        fclose(f);
        return 1;
    }
    const dlp__wave_params *wp = dlp__wave_params_builtin(DLP__PREC_FP32);
    const dlp_eff_curve *cv = &dlp__kcurve_get(DLP__PREC_FP32, DLP_KC_GEMM)->c;
    printf("\n== check: fp32 GEMMs on %s (%s), never fitted ==\n\n", d->id, path);
    printf("| kind | M | N | K | measured ms | waves ms | tile | waves | curve ms |\n|---|---:|---:|---:|---:|---:|---|---:|---:|\n");
    double ew = 0, ec = 0;
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        int nf = csv_split(line, v, 32);
        if (nf < nh || strcmp(v[cDt], "fp32")) continue;
        dlp__wave_sample q;
        memset(&q, 0, sizeof q);
        q.d = d;
        q.peak = dlp__node_peak(d, DLP_OPC_GEMM, DLP_DT_FLOAT, DLP_TF32_OFF, NULL);
        q.bw = d->mem_bandwidth_gbs * 1e9;
        q.s = (dlp__gemm_shape){1, atof(v[cM]), atof(v[cN]), atof(v[cK]), 4, 0};
        q.flops = 2 * q.s.m * q.s.n * q.s.k;
        q.bytes = 4 * (q.s.m * q.s.k + q.s.k * q.s.n + q.s.m * q.s.n);
        q.p_idle = dlp__device_idle_w(d);
        q.p_boost = fmax(d->boost_power_w, d->tdp_w);
        q.p_tdp = d->tdp_w;
        double t = atof(v[cMs]) * 1e-3;
        dlp__wave_info w;
        double tw = dlp__wave_capped(&q, dlp__wave_gemm_time(wp, d, q.peak, q.bw, &q.s, &w));
        /* the curve as setup_kernel applies it to an fp32 linear layer (v >= 0) */
        double roof = dlp__roof_time(q.flops, q.bytes, q.peak, q.bw), u, vv;
        dlp__eff_features(roof, q.flops, q.bytes, q.peak, q.bw, &u, &vv);
        double tc = dlp__wave_capped(&q, roof * dlp__eff_ratio_uv(cv, u, vv < 0 ? 0 : vv));
        printf("| %s | %.0f | %.0f | %.0f | %.3f | %.3f | %dx%d/%d | %.2f | %.3f |\n", cK0 >= 0 ? v[cK0] : "",
               q.s.m, q.s.n, q.s.k, 1e3 * t, 1e3 * tw, w.tm, w.tn, w.split, w.waves, 1e3 * tc);
        if (1e3 * t < min_ms) continue;
        ew += fabs(tw - t) / t;
        ec += fabs(tc - t) / t;
        n++;
    }
    fclose(f);
    if (n) printf("\nrows >= %.2f ms: %d; MAPE waves %.1f%%, curve %.1f%%\n", min_ms, n, 100 * ew / n, 100 * ec / n);
    return 0;
}

int main(int argc, char **argv) {
    const char *dir = NULL, *out = NULL, *check = NULL, *check_dev = "h100-sxm", *aic = NULL;
    size_t max_fit = 4000;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--emit") && i + 1 < argc) out = argv[++i];
        else if (!strcmp(argv[i], "--max-fit") && i + 1 < argc) max_fit = (size_t)atol(argv[++i]);
        else if (!strcmp(argv[i], "--check") && i + 2 < argc) check = argv[++i], check_dev = argv[++i];
        else if (!strcmp(argv[i], "--aic") && i + 1 < argc) aic = argv[++i];
        else dir = argv[i];
    }
    if (!dir) dir = "../shared/data/NeuSight/scripts/asplos/data/dataset";
    dlp_devdb *db;
    dlp_error err = {0};
    if (dlp_devdb_load(NULL, &db, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    if (check) {
        int rc = check_csv(db, check, check_dev, 0.2);
        dlp_devdb_free(db);
        return rc;
    }
    FILE *ef = NULL;
    if (out && !(ef = fopen(out, "w"))) {
        fprintf(stderr, "bench_waves: cannot write %s\n", out);
        return 1;
    }
    if (ef)
        fprintf(ef, "/* Generated by bench/bench_waves.sh --emit (bench/bench_waves.c): the wave model's\n"
                    " * per-tile efficiency fitted across GPUs.  Do not edit. */\n");
    static const char *const fp32_cls[2] = {"linear", "bmm"}, *const half_cls[2] = {"gemm", "-"};
    for (int set = 0; set < 2; set++) {
        wrows R = {0};
        long n = 0;
        if (set == 0) {
            n = wload(db, dir, &R);
        } else if (aic) {
            char path[4096];
            static const char *const sys[2] = {"a100_sxm/gemm/trtllm/1.0.0", "h100_sxm/gemm/trtllm/1.3.0rc10"};
            for (int q = 0; q < 2; q++) {
                snprintf(path, sizeof path, "%s/DERIVED_csv/aic-core/src/aiconfigurator_core/systems/data/%s/gemm_perf.csv",
                         aic, sys[q]);
                long a = wread_aic_gemm(db, path, &R);
                if (a > 0) n += a;
            }
        }
        if (n <= 0) {
            printf("bench_waves: no %s kernel tables; skipped\n", set ? "aiconfigurator bf16 GEMM" : "NeuSight fp32");
            free(R.r);
            continue;
        }
        cls_name = set ? half_cls : fp32_cls;
        printf("== tiles and waves vs efficiency curves: %ld %s kernels ==\n\n", n,
               set ? "bf16 tensor-core GEMM (aiconfigurator)" : "fp32 linear + bmm (NeuSight)");
        printf("| held-out GPU | class | kernels | curve LOGO | waves LOGO | median meas./curve | median meas./waves |\n");
        printf("|---|---|---:|---:|---:|---:|---:|\n");
        acc tot[2] = {{0}};
        for (int g = 0; g < n_devs; g++) logo_gpu(&R, g, max_fit, tot);
        for (int bm = 0; bm < 2; bm++)
            if (tot[bm].n)
                printf("| mean of GPUs | %s | | %.1f%% | %.1f%% | | |\n", cls_name[bm], 100 * tot[bm].ape_c / tot[bm].n,
                       100 * tot[bm].ape_w / tot[bm].n);
        dlp__wave_params all;
        double m = 0;
        if (wfit_without(&R, NULL, max_fit, &all, &m) == DLP_OK) {
            if (set) all.lane_g = 0;   /* no SIMT kernel in the set: the term is off */
            printf("\nall GPUs: e_max %.3f, ai0 %.2f, k0 %.1f, l2 %.1f B/clk/SM, lane_g %.2f, floor %.1f us, MAPE %.1f%%\n\n",
                   all.e_max, all.ai0, all.k0, all.l2_bpc, all.lane_g, all.floor_s * 1e6, 100 * m);
            /* the tensor-core set is evaluated, not shipped: fitted on the A100
             * it misses the H100 by 45 % (the curves: 22 %), docs/predict.md */
            if (ef && !set) emit_one(ef, "dlp__waves_fp32", "fp32 SIMT linear + bmm, NeuSight's kernel tables", &all, m, R.n);
        }
        free(R.r);
    }
    if (ef) fclose(ef);
    dlp_devdb_free(db);
    return 0;
}
