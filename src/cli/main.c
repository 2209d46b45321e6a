/*
 * main.c — the dlperf command: dispatch to one subcommand per file.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

typedef int (*cmd_fn)(int argc, char **argv);

/* hw commands (src/cli/cmd_devices.c, cmd_mig.c) */
int dlp_cmd_devices(int argc, char **argv);
int dlp_cmd_mig(int argc, char **argv);
/* dataset command (src/cli/cmd_dataset.c) */
int dlp_cmd_dataset(int argc, char **argv);

/* predict commands (src/cli/cmd_predict.c, cmd_roofline.c) */
int dlp_cmd_predict(int argc, char **argv);
int dlp_cmd_roofline(int argc, char **argv);
/* llm command (src/cli/cmd_llm.c) */
int dlp_cmd_llm(int argc, char **argv);
/* plan command (src/cli/cmd_plan.c) */
int dlp_cmd_plan(int argc, char **argv);
/* serve command (src/cli/cmd_serve.c) */
int dlp_cmd_serve(int argc, char **argv);

/* gnn commands (src/cli/cmd_train.c, cmd_eval.c, cmd_predict_graph.c) */
int dlp_cmd_train(int argc, char **argv);
int dlp_cmd_eval(int argc, char **argv);
int dlp_cmd_predict_graph(int argc, char **argv);
/* data command (src/cli/cmd_data.c) */
int dlp_cmd_data(int argc, char **argv);
/* pre-training commands (src/cli/cmd_pretrain.c, cmd_embed.c) */
int dlp_cmd_pretrain(int argc, char **argv);
int dlp_cmd_embed(int argc, char **argv);
/* language-model command (src/cli/cmd_lm.c) */
int dlp_cmd_lm(int argc, char **argv);


static const struct {
    const char *name;
    cmd_fn fn;
    const char *help;
} commands[] = {
    {"inspect", dlp_cmd_inspect, "graph totals and a per-op-type table of an ONNX model"},
    {"features", dlp_cmd_features, "node features, CSR adjacency and static features (.dlpg)"},
    /* BEGIN commands (one line each; keep sorted by issue) */
    {"devices", dlp_cmd_devices, "list GPUs of the hardware database, or every feature of one"},
    {"mig", dlp_cmd_mig, "recommend a MIG profile for a model's memory (and latency SLO)"},
    {"dataset", dlp_cmd_dataset, "build a training set (.dlpd) from HELP latency tables, or summarise one"},
    {"predict", dlp_cmd_predict, "predict latency, memory, energy, MIG, cost and carbon on a GPU"},
    {"roofline", dlp_cmd_roofline, "roofline chart (SVG) of a model's nodes on a GPU"},
    {"llm", dlp_cmd_llm, "throughput, memory, energy and carbon of an LLM (HF config) on a GPU"},
    {"plan", dlp_cmd_plan, "cheapest GPU, count, dtype, parallelism and concurrency for an LLM under an SLO"},
    {"serve", dlp_cmd_serve, "HTTP server: JSON API and web page for predict, llm, mig and roofline"},
    {"train", dlp_cmd_train, "train a GNN predictor (GraphSAGE/GCN/GAT/GIN/MLP) on a dataset (.dlpm)"},
    {"eval", dlp_cmd_eval, "evaluate a GNN predictor: metrics per family/device, reports, parity plot"},
    {"predict-graph", dlp_cmd_predict_graph, "predict with a trained GNN predictor for an ONNX model"},
    {"data", dlp_cmd_data, "measurement store of dlperf-profile: stats, export/import CSV, merge shards"},
    {"pretrain", dlp_cmd_pretrain, "pre-train a graph encoder (GAE/GraphMAE) on unlabeled graphs (.dlpm)"},
    {"embed", dlp_cmd_embed, "graph vectors of a pre-trained encoder; t-SNE map of a corpus (SVG)"},
    {"lm", dlp_cmd_lm, "language model of the GNN+LM predictor: pre-training corpus, pretrain, device text"},
    /* END commands */
};

static void usage(FILE *f) {
    fprintf(f, "dlperf %s — predict deep-learning performance without running the model\n\n"
               "usage: dlperf <command> [options]\n\ncommands:\n", DLP_VERSION_STRING);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-14s %s\n", commands[i].name, commands[i].help);
    fprintf(f, "\n'dlperf <command> --help' (or 'dlperf help <command>') describes a command's options.\n");
}

int main(int argc, char **argv) {
    cli_wrap_stdout();
    if (argc < 2) {
        usage(stderr);
        return DLP_EXIT_BADINPUT;
    }
    if (!strcmp(argv[1], "help") && argc > 2) {
        /* `dlperf help X [SUB]` is `dlperf X [SUB] --help` */
        static char help_flag[] = "--help";
        char *hv[8];
        int hc = 0;
        for (int i = 2; i < argc && hc < 6; i++) hv[hc++] = argv[i];
        hv[hc++] = help_flag;
        hv[hc] = NULL;
        for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
            if (!strcmp(hv[0], commands[i].name)) return cli_finish_stdout(commands[i].fn(hc, hv));
        fprintf(stderr, "dlperf: help: unknown command '%s' (try 'dlperf --help')\n", argv[2]);
        return DLP_EXIT_BADINPUT;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return cli_finish_stdout(0);
    }
    if (!strcmp(argv[1], "--version")) {
        printf("dlperf %s\n", DLP_VERSION_STRING);
        return cli_finish_stdout(0);
    }
    /* every command's flags (no repeats) and stdout (a write error is exit 1)
     * are checked here, once */
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(argv[1], commands[i].name)) {
            int rc = cli_repeated_flag(argc - 1, argv + 1);
            return rc ? rc : cli_finish_stdout(commands[i].fn(argc - 1, argv + 1));
        }
    fprintf(stderr, "dlperf: unknown command '%s' (try 'dlperf --help')\n", argv[1]);
    return DLP_EXIT_BADINPUT;
}
