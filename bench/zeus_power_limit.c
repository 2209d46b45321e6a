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
 *   cc -O2 -std=c11 -Iinclude bench/zeus_power_limit.c build/libdlperf.a \
 *      $(pkg-config --libs libcjson sqlite3) -lm -lpthread -ldl -o build/zeus_power_limit
 *   build/zeus_power_limit ../shared/data/zeus/examples/research_reproducibility/zeus_nsdi23/trace \
 *      ../shared/models/torchvision/resnet50.onnx
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dlperf.h"

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: zeus_power_limit TRACE_DIR RESNET50.onnx\n");
        return 2;
    }
    static const char *const gpus[][2] = {{"v100", "v100-pcie-32gb"}, {"a40", "a40"}, {"p100", "p100"},
                                          {"rtx6000", "quadro-rtx6000"}};
    static const int bs[] = {32, 128};
    dlp_devdb *db = NULL;
    dlp_error e = {0};
    if (dlp_devdb_load(NULL, &db, &e)) return fprintf(stderr, "%s\n", e.msg), 1;
    double sum_dvfs = 0, sum_flat = 0, sum_w = 0;
    double g_dvfs[4] = {0}, g_flat[4] = {0}, g_w[4] = {0};
    int n = 0, g_n[4] = {0}, n_w = 0, g_nw[4] = {0};
    printf("| GPU | batch | limit W | measured t/t_max | predicted | err | clock share | measured W | predicted W | err |\n"
           "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (int gi = 0; gi < 4; gi++) {
        const dlp_device *d = dlp_devdb_find(db, gpus[gi][1]);
        char path[2048];
        snprintf(path, sizeof path, "%s/summary_power_%s.csv", argv[1], gpus[gi][0]);
        for (int k = 0; k < 2; k++) {
            FILE *f = fopen(path, "r");
            if (!f || !d) {
                if (f) fclose(f);
                continue;
            }
            double pl[32], t[32], pw[32];
            int m = 0;
            char line[1024];
            /* dataset,network,batch_size,optimizer,power_limit,time_per_epoch,average_power */
            while (fgets(line, sizeof line, f) && m < 32) {
                char net[64], ds[64], opt[64];
                int b;
                double p, te, w;
                if (sscanf(line, "%63[^,],%63[^,],%d,%63[^,],%lf,%lf,%lf", ds, net, &b, opt, &p, &te, &w) != 7) continue;
                if (strcmp(net, "resnet50") || b != bs[k]) continue;
                pl[m] = p, t[m] = te, pw[m] = w, m++;
            }
            fclose(f);
            if (m < 2) continue;
            int top = 0;
            for (int i = 1; i < m; i++)
                if (pl[i] > pl[top]) top = i;
            dlp_load_opts lo = {.batch = bs[k]};
            dlp_graph *g = NULL;
            if (dlp_graph_load(argv[2], &lo, &g, &e)) return fprintf(stderr, "%s\n", e.msg), 1;
            dlp_predict_opts o = {.mode = DLP_PREDICT_TRAIN, .optimizer = DLP_OPTIM_ADAM, .no_learned = 1};
            o.power_limit_w = pl[top] < d->tdp_w ? pl[top] : 0;
            dlp_prediction p;
            if (dlp_predict(g, d, db, &o, &p, &e)) return fprintf(stderr, "%s: %s\n", d->id, e.msg), 1;
            double t0 = p.step_ms;
            dlp_prediction_clear(&p);
            for (int i = 0; i < m; i++) {
                o.power_limit_w = pl[i] < d->tdp_w ? pl[i] : 0;
                if (dlp_predict(g, d, db, &o, &p, &e)) {
                    fprintf(stderr, "%s %g W: %s\n", d->id, pl[i], e.msg);
                    continue;
                }
                double meas = t[i] / t[top], pred = p.step_ms / t0, ew = p.power_w / pw[i] - 1;
                printf("| %s | %d | %g | %.3f | %.3f | %+.1f%% | %.3f | %.0f | %.0f | %+.1f%% |\n", d->id, bs[k], pl[i],
                       meas, pred, 100 * (pred - meas) / meas, p.clock_share, pw[i], p.power_w, 100 * ew);
                sum_w += fabs(ew), g_w[gi] += fabs(ew), n_w++, g_nw[gi]++;
                if (i != top) {
                    sum_dvfs += fabs(pred - meas) / meas;
                    sum_flat += fabs(1 - meas) / meas;     /* no DVFS: time independent of the limit */
                    g_dvfs[gi] += fabs(pred - meas) / meas, g_flat[gi] += fabs(1 - meas) / meas;
                    n++, g_n[gi]++;
                }
                dlp_prediction_clear(&p);
            }
            dlp_graph_free(g);
        }
    }
    printf("\n| GPU | points | t/t_max MAPE, DVFS | no DVFS (flat) | power points | power MAPE |\n"
           "|---|---:|---:|---:|---:|---:|\n");
    for (int gi = 0; gi < 4; gi++)
        if (g_n[gi])
            printf("| %s | %d | %.1f%% | %.1f%% | %d | %.1f%% |\n", gpus[gi][1], g_n[gi], 100 * g_dvfs[gi] / g_n[gi],
                   100 * g_flat[gi] / g_n[gi], g_nw[gi], g_nw[gi] ? 100 * g_w[gi] / g_nw[gi] : 0);
    printf("\n%d (GPU, batch, limit) points: MAPE of t/t_max %.1f%% with DVFS, %.1f%% with none (time flat); "
           "average power at every limit (%d points) %.1f%%\n",
           n, n ? 100 * sum_dvfs / n : 0, n ? 100 * sum_flat / n : 0, n_w, n_w ? 100 * sum_w / n_w : 0);
    dlp_devdb_free(db);
    return 0;
}
