/*
 * bench_waves_data.h — NeuSight's fp32 linear and bmm kernel tables as wave
 * samples (GEMM shapes), shared by bench/bench_waves.c (fit, evaluation,
 * --emit) and bench/bench_e2e.c (the leave-one-GPU-out refit).  Include after
 * bench_roofline.c (BENCH_ROOFLINE_NO_MAIN): uses its CSV helpers, devs[] and
 * kernel_gpus[].
 */
#ifndef BENCH_WAVES_DATA_H
#define BENCH_WAVES_DATA_H

#include "predict/waves.h"

typedef struct {
    dlp__wave_sample w;
    dlp__kernel_sample k;      /* the same kernel for the curve fit */
    int dev, is_bmm;
} wrow;

typedef struct {
    wrow *r;
    size_t n, cap;
} wrows;

static void wpush(wrows *R, const wrow *x) {
    R->r = grow1(R->r, R->n, &R->cap, sizeof *R->r);
    R->r[R->n++] = *x;
}

/* One linear or bmm table; returns rows added, -1 if unreadable.  NeuSight's
 * columns name the reduction N and the output's columns K: a linear row is
 * nn.Linear(N, K) on a (B, M, N) input (out = (B M) x K, bias K), a bmm row
 * (B, M, N) x (B, N, K) (neusight's profile_bmm; the traced kernels' grids
 * confirm it: grid x = ceil(K / 128) for ampere_sgemm_128x128_nn and
 * maxwell_sgemm_128x64_nn, ceil(K / 128) for ampere_sgemm_128x64_tn).  So the
 * GEMM is M x K over a reduction of N. */
static long wread_table(const dlp_devdb *db, const char *path, int is_bmm, wrows *R) {
    static char line[65536], hl[65536];
    char *hdr[64], *v[64];
    int nh;
    FILE *f = open_table(path, hl, sizeof hl, hdr, 64, &nh);
    if (!f) return nh;
    int cLat = col(hdr, nh, "Latency"), cDev = col(hdr, nh, "Device");
    int cB = col(hdr, nh, "B"), cM = col(hdr, nh, "M"), cN = col(hdr, nh, "N"), cK = col(hdr, nh, "K");
    long added = 0;
    while (fgets(line, sizeof line, f)) {
        int n = csv_split(line, v, 64);
        if (n < nh || cLat < 0 || cDev < 0 || cB < 0 || cM < 0 || cN < 0 || cK < 0) continue;
        int di = dev_index(db, v[cDev]);
        if (di < 0) continue;
        double t = atof(v[cLat]) * 1e-3, b = atof(v[cB]), m = atof(v[cM]), nn = atof(v[cN]), kk = atof(v[cK]);
        if (!(t > 0) || !(b >= 1) || !(m >= 1) || !(nn >= 1) || !(kk >= 1)) continue;
        wrow x;
        memset(&x, 0, sizeof x);
        x.dev = di;
        x.is_bmm = is_bmm;
        x.w.d = devs[di];
        x.w.peak = dlp__node_peak(devs[di], is_bmm ? DLP_OPC_MATMUL : DLP_OPC_GEMM, DLP_DT_FLOAT, DLP_TF32_OFF, NULL);
        x.w.bw = devs[di]->mem_bandwidth_gbs * 1e9;
        x.w.s = (dlp__gemm_shape){is_bmm ? b : 1, is_bmm ? m : b * m, kk, nn, 4.0, 0};
        x.w.t_meas = t;
        x.k.flops = 2 * b * m * nn * kk + (is_bmm ? 0 : b * m * kk);
        x.k.bytes = 4 * (b * m * nn + (is_bmm ? b * nn * kk : nn * kk + kk) + b * m * kk);
        x.w.flops = x.k.flops;
        x.w.bytes = x.k.bytes;
        x.w.p_idle = dlp__device_idle_w(devs[di]);
        x.w.p_boost = fmax(devs[di]->boost_power_w, devs[di]->tdp_w);
        x.w.p_tdp = devs[di]->tdp_w > 0 ? devs[di]->tdp_w : 0;
        x.k.peak = x.w.peak;
        x.k.bw = x.w.bw;
        x.k.t_meas = t;
        wpush(R, &x);
        added++;
    }
    fclose(f);
    return added;
}

/* train/collect/{linear,bmm}/p2.1.0/<GPU>.csv and test/{linear,bmm}.csv, as
 * bench_roofline.c's load_kernel_tables reads them. */
static long wload(const dlp_devdb *db, const char *dir, wrows *R) {
    char path[4096];
    long total = 0;
    for (int bm = 0; bm < 2; bm++) {
        const char *k = bm ? "bmm" : "linear";
        for (size_t gi = 0; gi < sizeof kernel_gpus / sizeof kernel_gpus[0]; gi++) {
            snprintf(path, sizeof path, "%s/train/collect/%s/p2.1.0/%s.csv", dir, k, kernel_gpus[gi]);
            long a = wread_table(db, path, bm, R);
            if (a > 0) total += a;
        }
        snprintf(path, sizeof path, "%s/test/%s.csv", dir, k);
        long a = wread_table(db, path, bm, R);
        if (a > 0) total += a;
    }
    return total;
}

/* aiconfigurator's bf16 GEMMs (TensorRT-LLM, A100-SXM4-80GB and H100 SXM;
 * m, n, k, latency ms) as tensor-core wave samples (class 0); as
 * bench/bench_curves.c reads them.  Returns rows added, -1 if unreadable. */
static long wread_aic_gemm(const dlp_devdb *db, const char *path, wrows *R) {
    static char line[65536], hl[65536];
    char *hdr[64], *v[64];
    int nh;
    FILE *f = open_table(path, hl, sizeof hl, hdr, 64, &nh);
    if (!f) return nh;
    int cD = col(hdr, nh, "device"), cT = col(hdr, nh, "gemm_dtype"), cM = col(hdr, nh, "m");
    int cN = col(hdr, nh, "n"), cK = col(hdr, nh, "k"), cL = col(hdr, nh, "latency");
    long added = 0;
    while (fgets(line, sizeof line, f)) {
        int n = csv_split(line, v, 64);
        if (n < nh || cD < 0 || cT < 0 || cM < 0 || cN < 0 || cK < 0 || cL < 0) continue;
        if (strcmp(v[cT], "bfloat16")) continue;
        int di = dev_index(db, v[cD]);
        double m = atof(v[cM]), nn = atof(v[cN]), kk = atof(v[cK]), t = atof(v[cL]) * 1e-3;
        if (di < 0 || !(m >= 1 && nn >= 1 && kk >= 1 && t > 0)) continue;
        const dlp_device *d = devs[di];
        wrow x;
        memset(&x, 0, sizeof x);
        x.dev = di;
        x.w.d = d;
        x.w.peak = dlp_device_peak_flops(d, DLP_DT_BFLOAT16, 1);
        x.w.bw = d->mem_bandwidth_gbs * 1e9;
        x.w.s = (dlp__gemm_shape){1, m, nn, kk, 2.0, 1};
        x.w.t_meas = t;
        x.k.flops = x.w.flops = 2 * m * nn * kk;
        x.k.bytes = x.w.bytes = 2 * (m * kk + kk * nn + m * nn);
        x.k.peak = x.w.peak;
        x.k.bw = x.w.bw;
        x.k.t_meas = t;
        x.w.p_idle = dlp__device_idle_w(d);
        x.w.p_boost = fmax(d->boost_power_w, d->tdp_w);
        x.w.p_tdp = d->tdp_w > 0 ? d->tdp_w : 0;
        wpush(R, &x);
        added++;
    }
    fclose(f);
    return added;
}

/* Fit the fp32 wave parameters on every row whose device is not `held`
 * (NULL: all), at most max_per_gpu rows per GPU by an even stride. */
static dlp_status wfit_without(const wrows *R, const dlp_device *held, size_t max_fit, dlp__wave_params *out,
                               double *mape) {
    dlp__wave_sample *s = malloc(sizeof *s * (R->n ? R->n : 1));
    if (!s) return DLP_ENOMEM;
    size_t n = 0;
    for (size_t i = 0; i < R->n; i++)
        if (!held || R->r[i].w.d != held) s[n++] = R->r[i].w;
    dlp_status st = n ? dlp__wave_fit(s, n, max_fit, out, mape) : DLP_EINVAL;
    free(s);
    return st;
}

#endif
