/*
 * gnn_cli.h — what `dlperf train`, `eval` and `predict-graph` share: the
 * sample-selection and split flags, turned into a dlp_split_spec (the
 * protocols themselves are library calls: src/learn/protocol.c), and a
 * canonical text form of them that train stores
 * in the model so that eval can rebuild exactly the same split.
 */
#ifndef DLP_CLI_GNN_CLI_H
#define DLP_CLI_GNN_CLI_H

#include <stdint.h>
#include <stdio.h>

#include "cli/cli.h"
#include "dlperf.h"

#define GNN_MC_SEED0 1337   /* TraPPM's Monte Carlo seeds: 1337..1341 */
#define GNN_MC_SEEDS 5

typedef enum { GSPLIT_RANDOM = 0, GSPLIT_FAMILY_MC, GSPLIT_KFOLD, GSPLIT_LOFO, GSPLIT_NONE, GSPLIT_MODEL } gsplit_kind;

typedef struct {
    gsplit_kind kind;
    double train_frac, val_frac;   /* random: 0.70 / 0.15; family-mc: 0.70      */
    int k, fold;                   /* kfold: 5 folds, test fold (0-based)       */
    int fold_given;
    char lofo[128];                /* held-out family                           */
    int64_t seed;                  /* split seed                                 */
    int seed_given;
    char device[512], family[512]; /* comma lists; "" = all                     */
    int64_t train_limit, val_limit;/* 0 = all                                    */
    int by_name;                   /* --split-by name                            */
} gnn_sel;

void gnn_sel_init(gnn_sel *s);
/* Consume argv[*i] if it is a selection/split flag: 1 consumed, 0 not ours,
 * -1 error (message printed). */
int gnn_sel_flag(int argc, char **argv, int *i, gnn_sel *s);
/* The flag loop that train and eval share: --help / -h print the usage
 * and set *help; then the selection flags (into sel), the table flags and,
 * when not NULL, the command's own (more: 1 consumed, 0 not one of them,
 * -1 after its message); anything else is an unknown option.  Stops at
 * the first mistake; 0 or the exit code. */
typedef struct {
    const char *cmd;
    void (*usage)(FILE *);
    const cli_flag *flags;
    int n_flags;
    int (*more)(int argc, char **argv, int *i, void *user);
    void *user;
} gnn_flag_spec;
int gnn_parse_flags(int argc, char **argv, const gnn_flag_spec *spec, gnn_sel *sel, int *help);
/* Parse the canonical text (gnn_sel_describe) back; 0 ok, -1 malformed. */
int gnn_sel_parse(const char *text, gnn_sel *s);
/* Canonical text: the flags that rebuild this selection and split with
 * `seed` ("--split random:0.7:0.15 --split-seed 1 --device titanxp_32"). */
void gnn_sel_describe(const gnn_sel *s, int64_t seed, char *buf, size_t n);
/* Flags help text for usage messages. */
extern const char gnn_sel_help[];

/* Samples of ds passing the device/family filters, split with `seed`:
 * malloc'ed index lists (any may be empty; caller frees each).  Returns 0,
 * or prints an error and returns the exit code. */
typedef dlp_split_parts gnn_parts;
int gnn_sel_apply(const dlp_dataset *ds, const gnn_sel *s, int64_t seed, gnn_parts *p);
/* Keep only the samples of idx[0..*n) that pass s's device/family lists
 * (names checked as in gnn_sel_apply); 0 or the exit code. */
int gnn_sel_filter(const dlp_dataset *ds, const gnn_sel *s, int *idx, int *n);
#define gnn_parts_free dlp_split_parts_clear

/* "--static-features" value: comma list of names, "dippm", "trappm" or
 * "none".  Fills idx (DLP_SF_COUNT max) and *n (-1 for none); 0 or -1. */
int gnn_parse_static(const char *s, int *idx, int *n);

/* Split a comma list in place into at most max items; returns the count. */
int gnn_split_list(char *s, char **items, int max);

#endif

/* ---- predictions and reports ---- */

/* Pooled predictions (dlp_eval_preds, src/learn/protocol.c). */
typedef dlp_eval_preds gnn_preds;

/* Predict samples idx[0..n) of ds with m and append them; 0 or exit code. */
int gnn_preds_add(gnn_preds *p, const dlp_gnn *m, const dlp_dataset *ds, const int *idx, int n);
#define gnn_preds_free dlp_eval_preds_clear
#define gnn_preds_metrics dlp_eval_preds_metrics

typedef struct {
    const char *title, *command, *notes;
    const char *md, *json, *svg;  /* output paths (NULL: not written)          */
} gnn_report_paths;
/* Write the requested files; 0 or exit code (message printed). */
int gnn_preds_write(const gnn_preds *p, const gnn_report_paths *rp);

/* --report FILE.md: rp->md is FILE.md and rp->json / rp->svg, unless rp
 * names them already, FILE.json / FILE.svg beside it (a name without .md
 * gets the suffix added); the names live in *buf. */
typedef struct {
    char md[1100], json[1100], svg[1100];
} gnn_report_names;
void gnn_report_beside(const char *report, gnn_report_paths *rp, gnn_report_names *buf);

/* Check the report outputs before any work (cli_check_out): --report
 * FILE.md and the FILE.json / FILE.svg written beside it, unless json /
 * svg (flags json_flag / "--svg") name other files.  0 or exit code 2. */
int gnn_check_report_outs(const char *cmd, const char *report, const char *json_flag, const char *json,
                          const char *svg);

/* Join argv into one shell-like line (for "Produced by"). */
void gnn_command_line(int argc, char **argv, char *buf, size_t n);
/* Training options that rebuild a model's recipe (for retraining). */
void gnn_opts_from_info(const dlp_gnn *m, dlp_gnn_opts *o, const char **targets, int *static_idx);
