/*
 * predict_args.h — the flags `dlperf predict` and `dlperf roofline` share
 * (cmd_predict.c implements them): one parser, one loading path, one error
 * behaviour (unknown device: exit 2 with the closest ids).
 */
#ifndef DLP_CLI_PREDICT_ARGS_H
#define DLP_CLI_PREDICT_ARGS_H
#include "cli/cli.h"

typedef struct {
    const char *path, *device, *db_path;
    cli_graph_flags gf;
    dlp_predict_opts o;
} cli_predict_args;

typedef struct {
    dlp_devdb *db;
    const dlp_device *dev;
    dlp_graph *g;
    dlp_prediction p;
} cli_predict_state;

/* 1: consumed argv[*i] (a predict/graph flag), 0: not ours, -1: bad value
 * (already reported). */
int cli_predict_arg(int argc, char **argv, int *i, cli_predict_args *a);
/* Load the database, find the device, load the graph, predict.  Returns 0 or
 * an exit code (message printed); on failure nothing needs freeing. */
int cli_predict_run(const char *cmd, cli_predict_args *a, cli_predict_state *s);
void cli_predict_done(cli_predict_state *s);

#endif
