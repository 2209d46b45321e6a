/*
 * cmd_features.c — `dlperf features MODEL.onnx --layout trappm|dippm
 * [--out g.dlpg] [--json]`: the node matrix X, the CSR adjacency of the
 * true DAG and the static features, written as a .dlpg file (so training
 * never re-parses ONNX) or summarised as JSON.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

static void usage(FILE *f) {
    fprintf(f,
            "usage: dlperf features MODEL.onnx [--batch N] [--seq N] [--dim NAME=V]...\n"
            "                       [--layout trappm|dippm] [--out FILE.dlpg] [--json]\n\n"
            "Turns the graph into what the learned predictors read (docs/features.md): the node\n"
            "matrix X (one row per node), the CSR adjacency of the DAG and the static features\n"
            "(MACs, FLOPs, parameters, memory, batch, op counts), and prints a summary of them.\n\n"
            CLI_GRAPH_FLAGS_HELP
            "features:\n"
            "  --layout L         trappm (default: one-hot op type over 145 ONNX ops + shape and cost\n"
            "                     columns, 161 wide) or dippm (DIPPM's 32 columns)\n"
            "output:\n"
            "  --out FILE.dlpg    write X, the adjacency and the static features (read by 'dlperf\n"
            "                     train' and 'pretrain' without parsing ONNX again); checked before work\n"
            "  --json             a JSON summary: nodes, features, edges, static features, column names\n"
            "  -h, --help         this text\n");
}

int dlp_cmd_features(int argc, char **argv) {
    const char *path = NULL, *out = NULL, *layout_s = "trappm";
    int json = 0;
    cli_graph_flags gf = {0};
    for (int i = 1; i < argc; i++) {
        int r = cli_graph_flag(argc, argv, &i, &gf);
        const char *v;
        if (r < 0) return DLP_EXIT_BADINPUT;
        if (r) continue;
        if ((r = cli_opt(argc, argv, &i, "--layout", &v)) != 0) {
            if (r < 0) return DLP_EXIT_BADINPUT;
            layout_s = v;
        } else if ((r = cli_opt(argc, argv, &i, "--out", &v)) != 0) {
            if (r < 0) return DLP_EXIT_BADINPUT;
            out = v;
        } else if (!strcmp(argv[i], "--json")) {
            json = 1;
        } else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return cli_failf(DLP_EXIT_BADINPUT, "features: unknown option '%s'", argv[i]);
        } else if (!path) {
            path = argv[i];
        } else {
            return cli_failf(DLP_EXIT_BADINPUT, "features: more than one model given ('%s')", argv[i]);
        }
    }
    if (!path) return cli_usage_error("features", "no model given");
    if (cli_check_out("features", "--out", out, 0)) return DLP_EXIT_BADINPUT;
    int layout = dlp_layout_parse(layout_s);
    if (layout < 0) return cli_failf(DLP_EXIT_BADINPUT, "features: --layout '%s' is not trappm or dippm", layout_s);
    dlp_load_opts o;
    cli_graph_opts(&gf, &o);
    dlp_graph *g;
    dlp_error err = {0};
    if (dlp_graph_load(path, &o, &g, &err)) return cli_fail(&err);
    dlp_features *f;
    if (dlp_features_build(g, layout, &f, &err)) {
        dlp_graph_free(g);
        return cli_fail(&err);
    }
    dlp_graph_free(g);
    int rc = 0;
    if (out && dlp_features_save(f, out, &err)) rc = cli_save_fail(&err);
    if (!rc && json) {
        printf("{\"model\":");
        cli_json_str(stdout, f->name);
        printf(",\"layout\":\"%s\",\"layout_version\":%d,\"nodes\":%d,\"features\":%d,\"edges\":%d,\"static\":{",
               dlp_layout_name(layout), f->layout_version, f->n_nodes, f->n_feat, f->n_edges);
        for (int k = 0; k < DLP_SF_COUNT; k++) printf("%s\"%s\":%.17g", k ? "," : "", dlp_static_name(k), f->static_f[k]);
        printf("},\"columns\":[");
        for (int j = 0; j < f->n_feat; j++) {
            printf(j ? "," : "");
            cli_json_str(stdout, dlp_layout_column(layout, j));
        }
        printf("]%s%s%s}\n", out ? ",\"out\":" : "", out ? "\"" : "", out ? "written\"" : "");
    } else if (!rc) {
        printf("%s: %s layout v%d, X %d x %d, %d edges (CSR of the DAG)%s%s\n", f->name, dlp_layout_name(layout),
               f->layout_version, f->n_nodes, f->n_feat, f->n_edges, out ? ", written to " : "", out ? out : "");
        for (int k = 0; k < DLP_SF_COUNT; k++) printf("  %-14s %.0f\n", dlp_static_name(k), f->static_f[k]);
    }
    dlp_features_free(f);
    return rc;
}
