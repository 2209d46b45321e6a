/*
 * zeus_power_limit.c — the DVFS model (docs/predict.md, "Clocks under a
 * power cap") against Zeus's power-limit sweeps: ResNet-50 ImageNet
 * training (fp32, PyTorch) on V100 (PCIe 250 W), A40, P100 and Quadro RTX
 * 6000 at every power limit nvidia-smi -pl allowed (Zeus NSDI'23 traces,
 * ../shared/data/zeus/.../trace/summary_power_<gpu>.csv).  What is compared
 * is relative: epoch time at a limit / epoch time at the highest limit,
 * measured vs predicted (step time under opts.power_limit_w / at TDP), so the
 * input pipeline and the optimizer (Adadelta, predicted as Adam) cancel.
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
    double sum_dvfs = 0, sum_flat = 0;
    int n = 0;
    printf("| GPU | batch | limit W | measured t/t_max | predicted | err | clock share |\n|---|---:|---:|---:|---:|---:|---:|\n");
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
            double pl[32], t[32];
            int m = 0;
            char line[1024];
            /* dataset,network,batch_size,optimizer,power_limit,time_per_epoch,average_power */
            while (fgets(line, sizeof line, f) && m < 32) {
                char net[64], ds[64], opt[64];
                int b;
                double p, te, w;
                if (sscanf(line, "%63[^,],%63[^,],%d,%63[^,],%lf,%lf,%lf", ds, net, &b, opt, &p, &te, &w) != 7) continue;
                if (strcmp(net, "resnet50") || b != bs[k]) continue;
                pl[m] = p, t[m] = te, m++;
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
                if (i == top) continue;
                o.power_limit_w = pl[i];
                if (dlp_predict(g, d, db, &o, &p, &e)) {
                    fprintf(stderr, "%s %g W: %s\n", d->id, pl[i], e.msg);
                    continue;
                }
                double meas = t[i] / t[top], pred = p.step_ms / t0;
                printf("| %s | %d | %g | %.3f | %.3f | %+.1f%% | %.3f |\n", d->id, bs[k], pl[i], meas, pred,
                       100 * (pred - meas) / meas, p.clock_share);
                sum_dvfs += fabs(pred - meas) / meas;
                sum_flat += fabs(1 - meas) / meas;     /* no DVFS: time independent of the limit */
                n++;
                dlp_prediction_clear(&p);
            }
            dlp_graph_free(g);
        }
    }
    printf("\n%d (GPU, batch, limit) points: MAPE of t/t_max %.1f%% with DVFS, %.1f%% with none (time flat)\n", n,
           n ? 100 * sum_dvfs / n : 0, n ? 100 * sum_flat / n : 0);
    dlp_devdb_free(db);
    return 0;
}
