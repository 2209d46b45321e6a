/*
 * waves.c — GEMM-class kernels as waves of CTA tiles over the SMs (the model
 * is described in waves.h and docs/predict.md, "Tiles and waves"), and its
 * fit (bench/bench_waves.sh).
 */
#include "predict/waves.h"
#include "predict/power.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "predict/curves.h"
#include "predict/roofline.h"

/* ---- tile candidates ----------------------------------------------------------
 * The output tiles of the kernels the libraries ship.  SIMT (fp32 without
 * tensor cores): cuBLAS's sgemm kernels as NeuSight's traces name them
 * (maxwell/volta/ampere_sgemm_128x128, 128x64, 128x32, 32x128, 64x64, 64x32,
 * 32x32).  Tensor cores: CUTLASS/cuBLAS's 256x128, 128x256, 128x128, 128x64,
 * 64x128, 64x64. */
typedef struct {
    int tm, tn;
} tile;

static const tile simt_tiles[] = {{128, 128}, {128, 64}, {64, 128}, {128, 32}, {32, 128},
                                  {64, 64},   {64, 32},  {32, 64},  {32, 32}};
/* Pascal and older (compute capability <= 6): cuBLAS runs its maxwell_sgemm
 * kernels, and NeuSight's P100 and P4 traces show only these three shapes
 * (32x128, 64x64, 128x32; 16,000 linear kernels) */
static const tile maxwell_tiles[] = {{64, 64}, {32, 128}, {128, 32}};
static const tile tc_tiles[] = {{256, 128}, {128, 256}, {128, 128}, {128, 64}, {64, 128}, {64, 64}};
/* Strided-batched SIMT SGEMM (torch.bmm, batch > 1) runs other kernels than a
 * single GEMM: NeuSight's fp32 bmm tables (17,700 kernels a GPU, PyTorch 2.1,
 * CUDA 12.1) name one shape on Pascal (maxwell_sgemm_128x64_nn, 99.6 % of
 * the P100's and P4's) and on the A100 (ampere_sgemm_128x128_nn, 99.6 %),
 * three on the V100 (volta_sgemm_64x64, 32x128, 128x32) and the T4 (64x64,
 * 128x64, 128x32).  A name's first number runs along cuBLAS's m, which is
 * the row-major output's N (its grid x is ceil(N / 128) on Pascal), so
 * {tm, tn} here is {second, first}: attention's P.V (N = head dim 64) fills
 * half of a Pascal 128-wide tile. */
static const tile bmm_pascal[] = {{64, 128}};
static const tile bmm_volta[] = {{64, 64}, {128, 32}, {32, 128}};
static const tile bmm_turing[] = {{64, 64}, {64, 128}, {32, 128}};
static const tile bmm_ampere[] = {{128, 128}};

/* Split-K factors tried when the grid has fewer tiles than SMs; every slice
 * keeps at least MIN_SPLIT_K of K (a shorter slice is all prologue). */
static const int splits[] = {1, 2, 3, 4, 6, 8, 12, 16};
#define MIN_SPLIT_K 256.0

static double cdiv(double a, double b) { return ceil(a / b - 1e-9); }

/* One candidate (tile, split): fills *w and returns its seconds. */
static double candidate(const dlp__wave_params *p, const dlp_device *d, double peak, double bw,
                        const dlp__gemm_shape *s, tile t, int split, dlp__wave_info *w) {
    double sms = d->sm_count, clk = d->boost_clock_mhz * 1e6;
    double kp = s->k / split;
    double tiles = s->batch * cdiv(s->m, t.tm) * cdiv(s->n, t.tn) * split;
    double ai = (double)t.tm * t.tn / (t.tm + t.tn);
    /* registers per FP32 lane limit a SIMT tile's blocking; tensor cores
     * keep their operands in their own fragments */
    double lanes = d->fp32_cores_per_sm > 64 && !s->tensor_core ? d->fp32_cores_per_sm : 64;
    double e = p->e_max * ai / (ai + p->ai0) * kp / (kp + p->k0) * pow(64.0 / lanes, p->lane_g);
    double t_comp = 2.0 * t.tm * t.tn * kp / (peak / sms * e);
    double t_l2 = (t.tm + t.tn) * kp * s->elem_bytes / (p->l2_bpc * clk);
    double per_sm = cdiv(tiles, sms);
    double t_tiles = per_sm * fmax(t_comp, t_l2);
    double bytes = s->elem_bytes * s->batch * (s->m * s->k + s->k * s->n + s->m * s->n);
    double t_dram = bytes / bw;
    /* split-K: fp32 partial sums written and read back by a reduction */
    double t_red = split > 1 ? 2.0 * 4.0 * s->batch * s->m * s->n * split / bw : 0;
    w->tm = t.tm, w->tn = t.tn, w->split = split;
    w->tiles = tiles, w->per_sm = per_sm, w->waves = tiles / sms, w->eff = e;
    w->t_tiles = t_tiles, w->t_dram = t_dram, w->t_reduce = t_red;
    return fmax(t_tiles, t_dram) + t_red;
}

#define NT(a) (sizeof(a) / sizeof *(a))

/* The tiles cuBLAS/CUTLASS would pick from for s on d (*out); returns how
 * many.  Batched SIMT lists only for the architectures whose bmm kernels the
 * traces show (compute capability 6.x, 7.0, 7.5, 8.0); others keep the
 * single-GEMM list. */
static size_t tile_set(const dlp_device *d, const dlp__gemm_shape *s, const tile **out) {
    int cc = d->cc_major * 10 + d->cc_minor;
    if (s->tensor_core) return *out = tc_tiles, NT(tc_tiles);
    if (s->batch > 1 && d->cc_major == 6) return *out = bmm_pascal, NT(bmm_pascal);
    if (s->batch > 1 && cc == 70) return *out = bmm_volta, NT(bmm_volta);
    if (s->batch > 1 && cc == 75) return *out = bmm_turing, NT(bmm_turing);
    if (s->batch > 1 && cc == 80) return *out = bmm_ampere, NT(bmm_ampere);
    if (d->cc_major > 0 && d->cc_major <= 6) return *out = maxwell_tiles, NT(maxwell_tiles);
    return *out = simt_tiles, NT(simt_tiles);
}

static int shape_ok(const dlp__gemm_shape *s) {
    return s && s->batch >= 1 && s->m >= 1 && s->n >= 1 && s->k >= 1 && s->elem_bytes > 0 && isfinite(s->batch) &&
           isfinite(s->m) && isfinite(s->n) && isfinite(s->k);
}

double dlp__wave_gemm_time(const dlp__wave_params *p, const dlp_device *d, double peak, double bw,
                           const dlp__gemm_shape *s, dlp__wave_info *info) {
    if (!p || !d || !shape_ok(s) || d->sm_count <= 0 || !(d->boost_clock_mhz > 0) || !(peak > 0) || !(bw > 0))
        return 0;
    if (!(p->e_max > 0) || !(p->ai0 >= 0) || !(p->k0 >= 0) || !(p->l2_bpc > 0) || !(p->lane_g >= 0)) return 0;
    const tile *c;
    size_t nc = tile_set(d, s, &c);
    double best = INFINITY;
    dlp__wave_info bw_info = {0}, w;
    for (size_t i = 0; i < nc; i++) {
        double base = s->batch * cdiv(s->m, c[i].tm) * cdiv(s->n, c[i].tn);
        for (size_t j = 0; j < sizeof splits / sizeof *splits; j++) {
            int sp = splits[j];
            /* split-K only while the grid does not fill the SMs, and K is long */
            if (sp > 1 && (base * sp > 2.0 * d->sm_count || s->k / sp < MIN_SPLIT_K)) break;
            double t = candidate(p, d, peak, bw, s, c[i], sp, &w);
            if (t < best) best = t, bw_info = w;
        }
    }
    if (info) *info = bw_info;
    return isfinite(best) ? best : 0;
}

/* ---- shipped parameters ------------------------------------------------------- */

#include "predict/waves_table.inc"

static const dlp__wave_params *override_fp32;

const dlp__wave_params *dlp__wave_params_builtin(int prec) {
    if (prec == DLP__PREC_FP32) return override_fp32 ? override_fp32 : &dlp__waves_fp32;
    return NULL;
}

void dlp__wave_params_override(const dlp__wave_params *p) { override_fp32 = p; }

/* ---- fitting -------------------------------------------------------------------
 * x[0] = floor in us (|x|), x[1] = logit e_max, x[2..3] = log ai0, k0,
 * x[4] = logit of l2_bpc in (1, 256), x[5] = logit lane_g:
 * every transform keeps the parameter in its physical range. */

#define WP 6

static void unpack(const double *x, dlp__wave_params *p) {
    p->floor_s = fabs(x[0]) * 1e-6;
    p->e_max = 1.0 / (1.0 + exp(-x[1]));
    p->ai0 = exp(x[2]);
    p->k0 = exp(x[3]);
    p->l2_bpc = 1.0 + 255.0 / (1.0 + exp(-x[4]));   /* 1..256 B/clk/SM: an SM's L1 port */
    p->lane_g = 1.0 / (1.0 + exp(-x[5]));
}

double dlp__wave_capped(const dlp__wave_sample *q, double t) {
    double roof = dlp__roof_time(q->flops, q->bytes, q->peak, q->bw);
    if (!(q->p_tdp > 0) || !(roof > 0) || !(t > 0)) return t;
    double u = roof / fmax(t, roof);
    /* the DRAM's draw at the kernel's bytes/s holds out of the scaling, as in
     * predict (roofline.c add_kernels; power.h) */
    double clk = dlp__dvfs_clock_mem(q->p_idle, dlp__mem_power_w(q->d, q->bytes / fmax(t, roof)), q->p_boost, q->p_tdp,
                                     DLP__POWER_BUSY + DLP__POWER_UTIL * u);
    if (clk >= 1) return t;
    double tc = q->flops / q->peak, tm = q->bytes / q->bw;
    return fmax(t, roof) * fmax(tc / clk, tm) / roof;
}

typedef struct {
    const dlp__wave_sample *s;
    size_t n, stride;
} wfit;

static double wobjective(const wfit *f, const double *x) {
    dlp__wave_params p;
    unpack(x, &p);
    double sum = 0;
    size_t cnt = 0;
    for (size_t i = 0; i < f->n; i += f->stride) {
        const dlp__wave_sample *q = &f->s[i];
        double t = dlp__wave_gemm_time(&p, q->d, q->peak, q->bw, &q->s, NULL);
        if (!(t > 0) || !(q->t_meas > 0)) continue;
        t = dlp__wave_capped(q, t);
        sum += fabs(p.floor_s + t - q->t_meas) / q->t_meas;
        cnt++;
    }
    /* a weak prior on lane_g at the middle of its range: where no GPU of
     * the fitting set has 128 lanes the data cannot say, and the fit should
     * not wander to a bound (0.1 point of MAPE at a bound) */
    return cnt ? sum / (double)cnt + 0.004 * (p.lane_g - 0.5) * (p.lane_g - 0.5) : INFINITY;
}

static double wobjective_cb(const void *f, const double *x) { return wobjective(f, x); }

dlp_status dlp__wave_fit(const dlp__wave_sample *s, size_t n, size_t max_samples, dlp__wave_params *out,
                         double *mape) {
    if (!s || !n || !out) return DLP_EINVAL;
    wfit f = {s, n, max_samples && n > max_samples ? n / max_samples : 1};
    /* two starts: a typical SIMT SGEMM (e_max ~0.8, short prologue) and a
     * slower one; each restarted once from its optimum */
    static const double starts[2][WP] = {{10, 1.4, 2.0, 4.0, -3.0, -1.0}, {30, 0.5, 3.0, 5.0, -1.0, 1.0}};
    static const double step[WP] = {10, 0.8, 0.8, 0.8, 0.8, 1.0};
    double best = INFINITY, bx[WP] = {0};
    for (int r = 0; r < 2; r++) {
        double x[WP];
        memcpy(x, starts[r], sizeof x);
        dlp__nelder_mead(wobjective_cb, &f, WP, x, step, 600, 1e-7, NULL);
        double fv = dlp__nelder_mead(wobjective_cb, &f, WP, x, step, 400, 1e-7, NULL);
        if (fv < best) best = fv, memcpy(bx, x, sizeof x);
    }
    if (!isfinite(best)) return DLP_EINVAL;
    unpack(bx, out);
    if (mape) *mape = best;
    return DLP_OK;
}

/* ---- AMD (ROCm) block softmax (waves.h) -----------------------------------------
 * One workgroup per row, so a row is the unit of work that the CUs take in
 * turn, like a tile; what bounds it on CDNA is CU time, not DRAM: three
 * dependent passes over a row of a few KiB and two workgroup reductions,
 * whose serial loop in PyTorch's blockReduce runs over the 64 lanes of a
 * wavefront (32 on NVIDIA).  min_row: PyTorch 2.1's host_softmax sends rows
 * of at most 1,024 elements (and 4 KiB) to the warp softmax
 * (roofline.c softmax_streams). */

int dlp__is_amd_gpu(const dlp_device *d) {
    return d && d->kind != DLP_DEVICE_CPU && d->vendor && !strcmp(d->vendor, "amd");
}

/* elem_per_cu_clk: the median over NeuSight's AMD per-op softmax rows
 * (inference label CSVs, rows of 2,048: GPT-3-XL, GPT-3-2.7B, OPT-1.3B;
 * MI100, MI210, MI250) of elements / (time x CUs x boost clock), as
 * bench/bench_e2e.c prints it ("AMD block softmax"); the bench's
 * leave-one-out column refits it without the row's architecture. */
static const dlp__amd_softmax_params amd_softmax_shipped = {0.4290, 1024};
static const dlp__amd_softmax_params *amd_softmax_override;

const dlp__amd_softmax_params *dlp__amd_softmax_builtin(void) {
    return amd_softmax_override ? amd_softmax_override : &amd_softmax_shipped;
}

void dlp__amd_softmax_override(const dlp__amd_softmax_params *p) { amd_softmax_override = p; }

double dlp__amd_softmax_time(const dlp__amd_softmax_params *p, const dlp_device *d, double elems, int64_t row) {
    if (!p || !dlp__is_amd_gpu(d) || !(p->elem_per_cu_clk > 0) || row <= p->min_row) return 0;
    if (!(elems > 0) || !isfinite(elems) || d->sm_count <= 0 || !(d->boost_clock_mhz > 0)) return 0;
    return elems / (p->elem_per_cu_clk * d->sm_count * d->boost_clock_mhz * 1e6);
}
