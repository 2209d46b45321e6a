/*
 * cmd_inspect.c — `dlperf inspect model.onnx [--batch N] [--seq N]
 * [--dim NAME=V] [--json] [--nodes]`: totals and a per-op-type table in the
 * spirit of the thesis' "Layer Stats Summary" (§7.7.3).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

/* 1234567 -> "1.23 M" */
static const char *human(double v, char *buf, size_t n) {
    const char *u[] = {"", " K", " M", " G", " T", " P"};
    int k = 0;
    while (v >= 1000.0 && k < 5) {
        v /= 1000.0;
        k++;
    }
    snprintf(buf, n, k ? "%.2f%s" : "%.0f%s", v, u[k]);
    return buf;
}

static void print_text(const dlp_graph *g, const dlp_op_total *rows, int nr, int show_nodes) {
    dlp_graph_stats st;
    dlp_graph_stats_get(g, &st);
    char a[32], b[32];
    const double MiB = 1024.0 * 1024.0;
    printf("Layer Stats Summary: %s\n", dlp_graph_name(g));
    printf("  batch              %lld", (long long)st.batch);
    int ns = dlp_graph_symbol_count(g);
    for (int i = 0; i < ns; i++) {
        const char *nm;
        int64_t v;
        const dlp_symbol *sy = dlp_graph_symbol_at(g, i);
        nm = sy->name;
        v = sy->value;
        printf("%s%s=%lld", i ? ", " : "   (", nm, (long long)v);
    }
    printf("%s\n", ns ? ")" : "");
    printf("  nodes              %lld\n", (long long)st.nodes);
    printf("  edges              %lld\n", (long long)st.edges);
    printf("  FLOPs              %s (%lld)\n", human((double)st.flops, a, sizeof a), (long long)st.flops);
    printf("  MACs               %s (%lld)\n", human((double)st.macs, b, sizeof b), (long long)st.macs);
    printf("  parameters         %s (%lld)\n", human((double)st.params, a, sizeof a), (long long)st.params);
    printf("  weight memory      %.2f MiB\n", (double)st.weight_bytes / MiB);
    printf("  activation memory  %.2f MiB (all node outputs)\n", (double)st.activation_bytes / MiB);
    printf("  peak memory        %.2f MiB (weights + peak live activations %.2f MiB)\n",
           (double)st.peak_memory_bytes / MiB, (double)st.peak_activation_bytes / MiB);
    printf("  shapes known       %lld / %lld node outputs\n", (long long)st.shapes_known,
           (long long)st.node_outputs);
    printf("\n  %-26s %7s %12s %12s %12s %7s\n", "op type", "count", "FLOPs", "MACs", "params", "FLOPs%");
    for (int r = 0; r < nr; r++) {
        char f[32], m[32], p[32];
        printf("  %-26s %7lld %12s %12s %12s %6.2f%%\n", rows[r].op, (long long)rows[r].count,
               human((double)rows[r].flops, f, sizeof f), human((double)rows[r].macs, m, sizeof m),
               human((double)rows[r].params, p, sizeof p),
               st.flops > 0 ? 100.0 * (double)rows[r].flops / (double)st.flops : 0.0);
    }
    int nu = dlp_graph_unknown_op_count(g);
    if (nu) {
        printf("\n  unknown ops (outputs left unknown):");
        for (int i = 0; i < nu; i++) printf(" %s", dlp_graph_unknown_op_at(g, i));
        printf("\n");
    }
    if (show_nodes) {
        printf("\n  %-5s %-40s %-18s %-24s %12s %12s\n", "#", "node", "op", "output shape", "FLOPs", "MACs");
        for (int i = 0; i < dlp_graph_node_count(g); i++) {
            dlp_node_info ni;
            ni = *dlp_graph_node_at(g, i);
            char shp[128] = "?";
            if (ni.n_outputs > 0 && ni.outputs[0] >= 0) {
                dlp_tensor_info t;
                t = *dlp_graph_tensor_at(g, ni.outputs[0]);
                if (t.rank >= 0) {
                    int o = snprintf(shp, sizeof shp, "[");
                    for (int d = 0; d < t.rank && o < (int)sizeof shp - 24; d++)
                        o += snprintf(shp + o, sizeof shp - (size_t)o, d ? ",%lld" : "%lld", (long long)t.dims[d]);
                    snprintf(shp + o, sizeof shp - (size_t)o, "]");
                }
            }
            char f[32], m[32];
            printf("  %-5d %-40.40s %-18.18s %-24.24s %12s %12s\n", i, ni.name, ni.op_type, shp,
                   human((double)ni.flops, f, sizeof f), human((double)ni.macs, m, sizeof m));
        }
    }
}

static void usage(FILE *f) {
    fprintf(f,
            "usage: dlperf inspect MODEL.onnx [--batch N] [--seq N] [--dim NAME=V]... [--json] [--nodes]\n\n"
            "Reads the graph (no weights), infers every tensor shape and prints totals (nodes, edges,\n"
            "FLOPs, MACs, parameters, weight / activation / peak memory, shapes known) and a table per\n"
            "op type (count, FLOPs, MACs, parameters, share of FLOPs); docs/graph.md, docs/costs.md.\n\n"
            CLI_GRAPH_FLAGS_HELP
            "output:\n"
            "  --json             one JSON object: the totals, ops, macs_by_op, flops_by_op, unknown_ops,\n"
            "                     symbols (the bound dimensions) and warnings\n"
            "  --nodes            also one row per node: name, op, output shape, FLOPs, MACs; with\n"
            "                     --json, the graph outputs (outputs) and each node's output shapes\n"
            "                     (node_list), -1 for an unknown dim, null for an unknown rank\n"
            "  -h, --help         this text\n");
}

int dlp_cmd_inspect(int argc, char **argv) {
    const char *path = NULL;
    int json = 0, nodes = 0;
    cli_graph_flags gf = {0};
    for (int i = 1; i < argc; i++) {
        int r = cli_graph_flag(argc, argv, &i, &gf);
        if (r < 0) return DLP_EXIT_BADINPUT;
        if (r) continue;
        if (!strcmp(argv[i], "--json")) json = 1;
        else if (!strcmp(argv[i], "--nodes")) nodes = 1;
        else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return cli_failf(DLP_EXIT_BADINPUT, "inspect: unknown option '%s'", argv[i]);
        } else if (!path) path = argv[i];
        else return cli_failf(DLP_EXIT_BADINPUT, "inspect: more than one model given ('%s')", argv[i]);
    }
    if (!path) return cli_usage_error("inspect", "no model given (MODEL.onnx)");
    dlp_load_opts o;
    cli_graph_opts(&gf, &o);
    dlp_graph *g;
    dlp_error err = {0};
    if (dlp_graph_load(path, &o, &g, &err)) return cli_fail(&err);
    dlp_op_total *rows = NULL;
    int nr = json ? 0 : dlp_graph_op_totals(g, &rows);   /* the JSON writer makes its own */
    if (nr < 0) {
        dlp_graph_free(g);
        return cli_failf(DLP_EXIT_FAIL, "out of memory");
    }
    if (!json)
        for (int i = 0; i < dlp_graph_warning_count(g); i++) fprintf(stderr, "dlperf: warning: %s\n", dlp_graph_warning_at(g, i));
    int rc = DLP_EXIT_OK;
    if (json) {
        char *buf;
        size_t len;
        dlp_status st = nodes ? dlp_inspect_nodes_json(g, &buf, &len, &err) : dlp_inspect_json(g, &buf, &len, &err);
        rc = cli_print_json(st, buf, len, &err);
    } else {
        print_text(g, rows, nr, nodes);
    }
    free(rows);
    dlp_graph_free(g);
    return rc;
}
