/*
 * zeus_power_limit.c — the DVFS model (docs/predict.md, "Clocks under a
 * power cap") against Zeus's power-limit sweeps: ResNet-50 ImageNet
 * training (fp32, PyTorch) on V100 (PCIe 250 W), A40, P100 and Quadro RTX
 * 6000 at every power limit nvidia-smi -pl allowed (Zeus NSDI'23 traces,
 * ../shared/data/zeus/.../trace/summary_power_<gpu>.csv).  What is compared
 * is relative: epoch time at a limit / epoch time at the highest limit,
 * measured vs predicted (step time under opts.power_limit_w / at TDP), so the
 * input pipeline and the optimizer (Adadelta, predicted as Adam) cancel.
 * Beside it, the average power at each limit, measured vs predicted (an
 * absolute figure: the input pipeline's idle gaps do not cancel there), and
 * per GPU the MAPE of both.
 *
 * The DRAM's per-bit draw (src/predict/power.c) is held out of the clock
 * scaling (docs/predict.md); this bench is its check.
 *
 * Then leave-one-GPU-out: the one fitted DVFS constant, the voltage floor
 * DLP__DVFS_VMIN_SHARE, refitted on a grid (0.30-1.00) on the other three
 * GPUs' points and the held-out GPU's points predicted with it.
 *
 *   cc -O2 -std=c11 -Iinclude -Isrc bench/zeus_power_limit.c build/libdlperf.a \
 *      $(pkg-config --libs libcjson sqlite3) -lm -lpthread -ldl -o build/zeus_power_limit
 *   build/zeus_power_limit ../shared/data/zeus/examples/research_reproducibility/zeus_nsdi23/trace \
 *      ../shared/models/torchvision/resnet50.onnx
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dlperf.h"
#include "predict/roofline.h"

#define NG 4
#define MAXL 32

static const char *const gpus[NG][2] = {{"v100", "v100-pcie-32gb"}, {"a40", "a40"}, {"p100", "p100"},
                                        {"rtx6000", "quadro-rtx6000"}};
static const int bs[2] = {32, 128};

/* one (GPU, batch) sweep: the limits, measured epoch times and powers */
typedef struct {
    int gi, batch, m, top;
    double pl[MAXL], t[MAXL], w[MAXL];
    const dlp_device *d;
    dlp_graph *g;
} sweep;

/* The ResNet-50 rows of one trace file at batch b; m = 0 when none. */
static void read_sweep(const char *dir, int gi, int b, sweep *s) {
    char path[2048], line[1024];
    snprintf(path, sizeof path, "%s/summary_power_%s.csv", dir, gpus[gi][0]);
    FILE *f = fopen(path, "r");
    s->m = 0;
    if (!f) return;
    /* dataset,network,batch_size,optimizer,power_limit,time_per_epoch,average_power */
    while (fgets(line, sizeof line, f) && s->m < MAXL) {
        char net[64], ds[64], opt[64];
        int bb;
        double p, te, w;
        if (sscanf(line, "%63[^,],%63[^,],%d,%63[^,],%lf,%lf,%lf", ds, net, &bb, opt, &p, &te, &w) != 7) continue;
        if (strcmp(net, "resnet50") || bb != b) continue;
        s->pl[s->m] = p, s->t[s->m] = te, s->w[s->m] = w, s->m++;
    }
    fclose(f);
    s->top = 0;
    for (int i = 1; i < s->m; i++)
        if (s->pl[i] > s->pl[s->top]) s->top = i;
}

/* Predicted step time (ms), average power and clock share at every limit
 * of the sweep (the top limit at TDP when it is not below it). */
static int predict_sweep(const sweep *s, const dlp_devdb *db, double *ms, double *watts, double *clk) {
    dlp_predict_opts o = {.mode = DLP_PREDICT_TRAIN, .optimizer = DLP_OPTIM_ADAM, .no_learned = 1};
    dlp_error e = {0};
    for (int i = 0; i < s->m; i++) {
        dlp_prediction p;
        o.power_limit_w = s->pl[i] < s->d->tdp_w ? s->pl[i] : 0;
        if (dlp_predict(s->g, s->d, db, &o, &p, &e)) {
            fprintf(stderr, "zeus_power_limit: %s %g W: %s\n", s->d->id, s->pl[i], e.msg);
            return -1;
        }
        ms[i] = p.step_ms, watts[i] = p.power_w, clk[i] = p.clock_share;
        dlp_prediction_clear(&p);
    }
    return 0;
}

/* |error| of predicted t/t_max at limit i */
static double time_err(const sweep *s, const double *ms, int i) {
    double meas = s->t[i] / s->t[s->top], pred = ms[i] / ms[s->top];
    return fabs(pred - meas) / meas;
}

/* The table with the shipped constant, per-GPU MAPE of t/t_max (DVFS vs
 * flat) and of power. */
static int report(const sweep *S, int ns, const dlp_devdb *db) {
    double sum_dvfs = 0, sum_flat = 0, sum_w = 0, g_dvfs[NG] = {0}, g_flat[NG] = {0}, g_w[NG] = {0};
    int n = 0, n_w = 0, g_n[NG] = {0}, g_nw[NG] = {0};
    printf("| GPU | batch | limit W | measured t/t_max | predicted | err | clock share | measured W | predicted W | err |\n"
           "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (int k = 0; k < ns; k++) {
        const sweep *s = &S[k];
        double ms[MAXL], w[MAXL], clk[MAXL];
        if (predict_sweep(s, db, ms, w, clk)) return -1;
        for (int i = 0; i < s->m; i++) {
            double meas = s->t[i] / s->t[s->top], pred = ms[i] / ms[s->top], ew = w[i] / s->w[i] - 1;
            printf("| %s | %d | %g | %.3f | %.3f | %+.1f%% | %.3f | %.0f | %.0f | %+.1f%% |\n", s->d->id, s->batch,
                   s->pl[i], meas, pred, 100 * (pred - meas) / meas, clk[i], s->w[i], w[i], 100 * ew);
            sum_w += fabs(ew), g_w[s->gi] += fabs(ew), n_w++, g_nw[s->gi]++;
            if (i == s->top) continue;
            sum_dvfs += time_err(s, ms, i), g_dvfs[s->gi] += time_err(s, ms, i);
            sum_flat += fabs(1 - meas) / meas, g_flat[s->gi] += fabs(1 - meas) / meas;   /* time ignores the limit */
            n++, g_n[s->gi]++;
        }
    }
    printf("\n| GPU | points | t/t_max MAPE, DVFS | no DVFS (flat) | power points | power MAPE |\n"
           "|---|---:|---:|---:|---:|---:|\n");
    for (int gi = 0; gi < NG; gi++)
        if (g_n[gi])
            printf("| %s | %d | %.1f%% | %.1f%% | %d | %.1f%% |\n", gpus[gi][1], g_n[gi], 100 * g_dvfs[gi] / g_n[gi],
                   100 * g_flat[gi] / g_n[gi], g_nw[gi], g_nw[gi] ? 100 * g_w[gi] / g_nw[gi] : 0);
    printf("\n%d (GPU, batch, limit) points: MAPE of t/t_max %.1f%% with DVFS, %.1f%% with none (time flat); "
           "average power at every limit (%d points) %.1f%%\n",
           n, n ? 100 * sum_dvfs / n : 0, n ? 100 * sum_flat / n : 0, n_w, n_w ? 100 * sum_w / n_w : 0);
    return 0;
}

/* Leave-one-GPU-out over the voltage floor: per grid value, the summed
 * |error| and points per GPU; each GPU is then predicted with the value
 * that fits the other three best. */
#define NKV 71   /* 0.30, 0.31, ..., 1.00 */
static int logo(const sweep *S, int ns, const dlp_devdb *db) {
    static double sum[NKV][NG];
    static int cnt[NKV][NG];
    for (int q = 0; q < NKV; q++) {
        dlp__dvfs_vmin_override(0.30 + 0.01 * q);
        for (int k = 0; k < ns; k++) {
            double ms[MAXL], w[MAXL], clk[MAXL];
            if (predict_sweep(&S[k], db, ms, w, clk)) return dlp__dvfs_vmin_override(0), -1;
            for (int i = 0; i < S[k].m; i++)
                if (i != S[k].top) sum[q][S[k].gi] += time_err(&S[k], ms, i), cnt[q][S[k].gi]++;
        }
    }
    dlp__dvfs_vmin_override(0);
    printf("\n| held-out GPU | voltage floor fitted on the others | held-out t/t_max MAPE | in-sample best (floor) |\n"
           "|---|---:|---:|---:|\n");
    double held = 0;
    int held_n = 0;
    for (int h = 0; h < NG; h++) {
        if (!cnt[0][h]) continue;
        int best = 0, own = 0;
        for (int q = 0; q < NKV; q++) {
            double so = 0, bo = 0;
            int no = 0, nb = 0;
            for (int gi = 0; gi < NG; gi++)
                if (gi != h) so += sum[q][gi], no += cnt[q][gi], bo += sum[best][gi], nb += cnt[best][gi];
            if (no && nb && so / no < bo / nb) best = q;
            if (sum[q][h] < sum[own][h]) own = q;
        }
        printf("| %s | %.2f | %.1f%% | %.1f%% (%.2f) |\n", gpus[h][1], 0.30 + 0.01 * best,
               100 * sum[best][h] / cnt[best][h], 100 * sum[own][h] / cnt[own][h], 0.30 + 0.01 * own);
        held += sum[best][h], held_n += cnt[best][h];
    }
    printf("\nleave-one-GPU-out: %d points, held-out t/t_max MAPE %.1f%% (shipped floor %.2f)\n", held_n,
           held_n ? 100 * held / held_n : 0, DLP__DVFS_VMIN_SHARE);
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: zeus_power_limit TRACE_DIR RESNET50.onnx\n");
        return 2;
    }
    dlp_devdb *db = NULL;
    dlp_error e = {0};
    if (dlp_devdb_load(NULL, &db, &e)) return fprintf(stderr, "zeus_power_limit: %s\n", e.msg), 1;
    sweep S[NG * 2];
    int ns = 0, rc = 0;
    for (int gi = 0; gi < NG; gi++)
        for (int k = 0; k < 2; k++) {
            sweep *s = &S[ns];
            memset(s, 0, sizeof *s);
            s->gi = gi, s->batch = bs[k], s->d = dlp_devdb_find(db, gpus[gi][1]);
            read_sweep(argv[1], gi, bs[k], s);
            if (!s->d || s->m < 2) continue;
            dlp_load_opts lo = {.batch = bs[k]};
            if (dlp_graph_load(argv[2], &lo, &s->g, &e)) {
                fprintf(stderr, "zeus_power_limit: %s: %s\n", argv[2], e.msg);
                rc = 1;
                break;
            }
            ns++;
        }
    if (!rc && !ns) fprintf(stderr, "zeus_power_limit: no ResNet-50 sweeps under %s\n", argv[1]), rc = 1;
    if (!rc && (report(S, ns, db) || logo(S, ns, db))) rc = 1;
    for (int k = 0; k < ns; k++) dlp_graph_free(S[k].g);
    dlp_devdb_free(db);
    return rc;
}
