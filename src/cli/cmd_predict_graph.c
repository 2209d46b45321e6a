/*
 * cmd_predict_graph.c — `dlperf predict-graph`: what a trained GNN model
 * (.dlpm) predicts for an ONNX model.
 *
 *   dlperf predict-graph --model M.dlpm model.onnx [--batch 8] [--json]
 *
 * The ONNX file is read and costed (dlp_graph_load, with the usual
 * --batch/--seq/--dim bindings), turned into features in the layout the
 * model was trained on, and predicted; one line per target (or JSON).
 * Parse and prediction times are reported separately (--time), since the
 * model itself answers in about a millisecond and parsing a large ONNX file
 * can take longer.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"

int dlp_cmd_predict_graph(int argc, char **argv);

static void usage(FILE *f) {
    fprintf(f,
            "usage: dlperf predict-graph --model FILE.dlpm MODEL.onnx [--batch N] [--seq N]\n"
            "                            [--dim NAME=VALUE] [--device-text TEXT] [--json] [--time]\n\n"
            "Predict the targets of a trained GNN model (dlperf train) for an ONNX model.\n"
            "  --device-text T  gnnlm models: the device, by name (a HELP column such as titan_rtx_32,\n"
            "                   a database id) or described in words (\"Raspberry Pi 4, 4x Cortex-A72\n"
            "                   1.5 GHz, fp32\"); default: the device the model was trained on.\n"
            "                   Other architectures have no device input and refuse it.\n"
            "  --json   one JSON object on stdout\n"
            "  --time   also report parse, feature and prediction times\n");
}

static double now_ms(void) { return 1e3 * cli_now_s(); }

int dlp_cmd_predict_graph(int argc, char **argv) {
    const char *model = NULL, *onnx = NULL, *devtext = NULL, *v;
    int json = 0, timing = 0;
    cli_graph_flags gf;
    memset(&gf, 0, sizeof gf);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int r;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        }
        if ((r = cli_graph_flag(argc, argv, &i, &gf)) != 0) {
            if (r < 0) return DLP_EXIT_BADINPUT;
            continue;
        }
        if ((r = cli_opt(argc, argv, &i, "--model", &v)) != 0) {
            if (r < 0) return DLP_EXIT_BADINPUT;
            model = v;
        } else if ((r = cli_opt(argc, argv, &i, "--device-text", &v)) != 0) {
            if (r < 0) return DLP_EXIT_BADINPUT;
            devtext = v;
        } else if (!strcmp(a, "--json")) {
            json = 1;
        } else if (!strcmp(a, "--time")) {
            timing = 1;
        } else if (a[0] == '-' && a[1]) {
            return cli_usage_error("predict-graph", "unknown option '%s'", a);
        } else if (!onnx) {
            onnx = a;
        } else {
            fprintf(stderr, "dlperf predict-graph: one model file only ('%s' and '%s')\n", onnx, a);
            return DLP_EXIT_BADINPUT;
        }
    }
    if (!model) return cli_usage_error("predict-graph", "--model FILE.dlpm is required");
    if (!onnx) return cli_usage_error("predict-graph", "no model given (MODEL.onnx)");
    dlp_error e = {0};
    dlp_gnn *m = NULL;
    if (dlp_gnn_load(model, &m, &e) != DLP_OK) return cli_fail(&e);
    dlp_gnn_info inf;
    dlp_gnn_info_get(m, &inf);
    if (devtext && inf.arch != DLP_GNN_GNNLM) {
        dlp_gnn_free(m);
        return cli_usage_error("predict-graph", "--device-text is for gnnlm models; %s is a %s model (one device)", model,
                               dlp_gnn_arch_name(inf.arch));
    }
    dlp_load_opts lo;
    cli_graph_opts(&gf, &lo);
    dlp_graph *g = NULL;
    dlp_features *f = NULL;
    int rc = 0;
    double t0 = now_ms();
    if (dlp_graph_load(onnx, &lo, &g, &e) != DLP_OK) {
        rc = cli_fail(&e);
        goto out;
    }
    double t1 = now_ms();
    if (dlp_features_build(g, inf.layout, &f, &e) != DLP_OK) {
        rc = cli_fail(&e);
        goto out;
    }
    double t2 = now_ms();
    float out[16];
    if (dlp_gnn_predict_on(m, f, devtext, out, &e) != DLP_OK) {
        rc = cli_fail(&e);
        goto out;
    }
    double t3 = now_ms();
    int T = dlp_gnn_target_count(m);
    if (json) {
        printf("{\"model\":");
        cli_json_str(stdout, onnx);
        printf(",\"predictor\":");
        cli_json_str(stdout, model);
        printf(",\"arch\":\"%s\",\"batch\":%lld,\"nodes\":%d,", dlp_gnn_arch_name(inf.arch),
               (long long)f->static_f[DLP_SF_BATCH], f->n_nodes);
        if (inf.arch == DLP_GNN_GNNLM) {
            printf("\"device\":");
            cli_json_str(stdout, devtext ? devtext : dlp_gnn_device(m));
            printf(",");
        }
        printf("\"predictions\":{");
        for (int k = 0; k < T; k++) {
            if (k) printf(",");
            cli_json_str(stdout, dlp_gnn_target_at(m, k));
            if (isfinite(out[k])) printf(":%.6g", out[k]);
            else printf(":null");
        }
        printf("}");
        if (timing) printf(",\"parse_ms\":%.3f,\"features_ms\":%.3f,\"predict_ms\":%.3f", t1 - t0, t2 - t1, t3 - t2);
        printf("}\n");
    } else {
        printf("%s (batch %lld, %d nodes) by %s [%s]:\n", onnx, (long long)f->static_f[DLP_SF_BATCH], f->n_nodes,
               model, dlp_gnn_arch_name(inf.arch));
        if (inf.arch == DLP_GNN_GNNLM) printf("  device         %s\n", devtext ? devtext : dlp_gnn_device(m));
        for (int k = 0; k < T; k++) printf("  %-14s %s\n", dlp_gnn_target_at(m, k), dlp__hu_sig(out[k], 6));
        if (timing) printf("  parse %.3f ms, features %.3f ms, predict %.3f ms\n", t1 - t0, t2 - t1, t3 - t2);
    }
out:
    dlp_features_free(f);
    dlp_graph_free(g);
    dlp_gnn_free(m);
    return rc;
}
