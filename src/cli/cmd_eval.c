/*
 * cmd_eval.c — `dlperf eval`: accuracy of a GNN model on a dataset, as
 * Markdown + JSON reports and parity plots.
 *
 *   dlperf eval --model M.dlpm --data D.dlpd [--split S] --report R.md
 *
 * Which samples are evaluated:
 *   --split model (default)  the test part of the split the model was
 *                            trained with, when the data is the data it was
 *                            trained on (same fingerprint); otherwise every
 *                            selected sample (new data is all unseen);
 *   --split none             every selected sample;
 *   --split random|family-mc|kfold|lofo:F
 *                            the test part(s) of that protocol.  family-mc
 *                            without --split-seed runs TraPPM's five seeds
 *                            1337..1341, kfold without --fold all folds.
 * A fixed model evaluated on a protocol other than its own may have seen
 * those test samples in training (the report says so); --retrain trains
 * the model's recipe afresh on each split's training part instead, which is
 * what Monte Carlo and k-fold protocols mean.  Per-split metrics and their
 * mean +- std go into the report; the tables pool every test prediction.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/gnn_cli.h"

int dlp_cmd_eval(int argc, char **argv);

static void usage(FILE *f) {
    fprintf(f,
            "usage: dlperf eval --model FILE.dlpm --data FILE.dlpd [options]\n\n"
            "Evaluate a GNN model: MAPE, RMSE, Kendall tau, Acc(5%%), Acc(10%%) overall, per family and\n"
            "per device; Markdown and JSON reports and a parity plot (SVG).\n\n"
            "  --split model        (default) the model's own test part when the data is its training\n"
            "                       data, else every selected sample; also none, random, family-mc,\n"
            "                       kfold, lofo:FAMILY (family-mc: seeds 1337..1341; kfold: every fold\n"
            "                       unless --split-seed / --fold pick one)\n"
            "  --retrain            train the model's recipe afresh on each split's training part\n"
            "  --epochs N           with --retrain: override the recipe's epochs\n"
            "  --threads N          with --retrain: OpenBLAS threads for training (predictions\n"
            "                       always run on one, so they match train's bit for bit)\n"
            "  --report FILE.md     Markdown report; FILE.json and FILE.svg are written beside it\n"
            "                       (- : Markdown on stdout, JSON / plot only where named)\n"
            "  --json FILE          JSON report (default with --report: beside it)\n"
            "  --svg FILE           parity plot (default with --report: beside it)\n"
            "%s",
            gnn_sel_help);
}

/* One run's metrics (a Monte Carlo seed or a fold). */
typedef struct {
    int64_t seed;
    int fold;
    dlp_metrics m[16];
    int n;
} split_res;

/* What the command line asks for. */
typedef struct {
    const char *model, *data, *report, *json, *svg;
    int retrain, threads, epochs;
    int help;   /* --help: the usage is printed, nothing more to do */
    gnn_sel sel;
} eval_args;

/* An evaluation: the model and data, the protocol's runs, the pooled
 * predictions and the notes that head the report. */
typedef struct {
    eval_args a;
    dlp_gnn *m;
    dlp_gnn_info inf;
    dlp_dataset *ds;
    int same_data;    /* the data is the model's training data */
    gnn_sel narrow;   /* --device / --family given with --split model narrow its test part */
    int narrowing;
    int n_runs, mc, allfolds;   /* seeds (family-mc) x folds (kfold) */
    split_res *res;
    gnn_preds p;
    char notes[8192];
    size_t nw;
} eval_run;

/* Append to the notes (a note that does not fit is cut, as snprintf cuts). */
static void note(eval_run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(eval_run *r, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = r->nw < sizeof r->notes ? vsnprintf(r->notes + r->nw, sizeof r->notes - r->nw, fmt, ap)
                                    : vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    r->nw += (size_t)n;
}

/* argv into *a, stopping at the first mistake (its message printed), and
 * the required flags and output paths checked; 0 or the exit code. */
static int parse_args(int argc, char **argv, eval_args *a) {
    memset(a, 0, sizeof *a);
    gnn_sel_init(&a->sel);
    a->sel.kind = GSPLIT_MODEL;
    const cli_flag flags[] = {
        {"--model", .s = &a->model},
        {"--data", .s = &a->data},
        {"--report", .s = &a->report},
        {"--json", .s = &a->json},
        {"--svg", .s = &a->svg},
        {"--threads", 1, 256, .i = &a->threads},
        {"--epochs", 1, 1000000, .i = &a->epochs},
        {"--retrain", .on = &a->retrain},
    };
    const gnn_flag_spec spec = {"eval", usage, flags, CLI_NFLAGS(flags), NULL, NULL};
    int rc = gnn_parse_flags(argc, argv, &spec, &a->sel, &a->help);
    if (rc || a->help) return rc;
    if (!a->model) return cli_usage_error("eval", "--model FILE.dlpm is required");
    if (!a->data) return cli_usage_error("eval", "--data FILE.dlpd is required");
    if (gnn_check_report_outs("eval", a->report, "--json", a->json, a->svg)) return DLP_EXIT_BADINPUT;
    return 0;
}

/* The split to evaluate on: --split model becomes the model's own split
 * (when the data is its training data) or every sample, and the notes say
 * which; the runs that protocol makes.  0 or the exit code. */
static int choose_protocol(eval_run *r) {
    eval_args *a = &r->a;
    gnn_sel *sel = &a->sel;
    r->same_data = r->inf.data_fingerprint == dlp_dataset_fingerprint(r->ds);
    if (dlp_dataset_layout(r->ds) != r->inf.layout)
        return cli_failf(DLP_EXIT_BADINPUT, "%s is in layout %s, the model %s wants %s", a->data,
                         dlp_layout_name(dlp_dataset_layout(r->ds)), a->model, dlp_layout_name(r->inf.layout));
    r->narrow = *sel;
    if (sel->kind == GSPLIT_MODEL) {
        gnn_sel keep = *sel;
        if (r->same_data && r->inf.split && *r->inf.split && gnn_sel_parse(r->inf.split, sel) == 0) {
            note(r, "Test part of the model's own split (`%s`) of its training data.", r->inf.split);
            r->narrowing = r->narrow.device[0] || r->narrow.family[0];
        } else {
            *sel = keep;
            sel->kind = GSPLIT_NONE;
            note(r, "Every selected sample: %s.",
                 r->same_data ? "the model records no split" : "the data is not the model's training data");
        }
    } else if (!a->retrain && r->same_data && sel->kind != GSPLIT_NONE) {
        char d[1024];
        gnn_sel_describe(sel, sel->seed, d, sizeof d);
        if (!r->inf.split || strcmp(d, r->inf.split))
            note(r,
                 "Caution: the model was trained on this data with `%s`; test samples of `%s` may have been "
                 "seen in training (use --retrain for an honest protocol).",
                 r->inf.split ? r->inf.split : "?", d);
    }
    if (a->retrain && (sel->kind == GSPLIT_NONE || sel->kind == GSPLIT_MODEL))
        return cli_failf(DLP_EXIT_BADINPUT, "eval: --retrain needs a split with a test part");
    r->mc = sel->kind == GSPLIT_FAMILY_MC && !sel->seed_given;
    r->allfolds = sel->kind == GSPLIT_KFOLD && !sel->fold_given;
    r->n_runs = r->mc ? GNN_MC_SEEDS : r->allfolds ? sel->k : 1;
    return 0;
}

/* --retrain: the model's recipe trained afresh on the split s's training
 * part (TraPPM with the frozen encoder the model holds); 0 or the exit code. */
static int retrain(const eval_run *r, const gnn_sel *s, const gnn_parts *parts, dlp_gnn **fresh) {
    dlp_error e = {0};
    dlp_gnn_opts o;
    const char *tg[16];
    int sidx[DLP_SF_COUNT];
    gnn_opts_from_info(r->m, &o, tg, sidx);
    if (r->a.epochs) o.epochs = r->a.epochs;
    o.threads = r->a.threads;
    char d[1024];
    gnn_sel_describe(s, s->seed, d, sizeof d);
    o.split = d;
    if (isatty(STDERR_FILENO)) fprintf(stderr, "retraining %s on %s ...\n", dlp_gnn_arch_name(o.arch), d);
    dlp_encoder *enc = NULL;
    if (o.arch == DLP_GNN_TRAPPM && dlp_gnn_encoder_copy(r->m, &enc, &e) != DLP_OK) return cli_fail(&e);
    o.encoder = enc;
    dlp_status st = dlp_gnn_train(r->ds, parts->train, parts->n_train, parts->val, parts->n_val, &o, fresh, &e);
    dlp_encoder_free(enc);
    return st != DLP_OK ? cli_fail(&e) : 0;
}

/* Run `run` of the protocol: its split, the model (or its retrained
 * recipe) predicting the test part into the pool, the run's metrics from
 * its slice of the pool.  0 or the exit code. */
static int eval_one(eval_run *r, int run) {
    gnn_sel s = r->a.sel;
    if (r->mc) s.seed = GNN_MC_SEED0 + run;
    if (r->allfolds) s.fold = run;
    gnn_parts parts;
    int rc = gnn_sel_apply(r->ds, &s, s.seed, &parts);
    if (rc) return rc;
    int *test = s.kind == GSPLIT_NONE ? parts.train : parts.test;
    int n_test = s.kind == GSPLIT_NONE ? parts.n_train : parts.n_test;
    dlp_gnn *fresh = NULL;
    if (r->narrowing) rc = gnn_sel_filter(r->ds, &r->narrow, test, &n_test);
    if (!rc && r->a.retrain) rc = retrain(r, &s, &parts, &fresh);
    int before = r->p.n;
    if (!rc) rc = gnn_preds_add(&r->p, fresh ? fresh : r->m, r->ds, test, n_test);
    dlp_gnn_free(fresh);
    gnn_parts_free(&parts);
    if (rc) return rc;
    gnn_preds one = r->p;
    one.n = r->p.n - before;
    one.y = r->p.y + (size_t)before * r->p.T;
    one.yhat = r->p.yhat + (size_t)before * r->p.T;
    split_res *res = &r->res[run];
    res->seed = s.seed;
    res->fold = s.fold;
    res->n = one.n;
    for (int k = 0; k < r->p.T; k++) gnn_preds_metrics(&one, k, &res->m[k]);
    return 0;
}

/* The notes' paragraph on the model, the data and the protocol. */
static void note_recipe(eval_run *r) {
    const eval_args *a = &r->a;
    const dlp_gnn_info *inf = &r->inf;
    char d[1024];
    gnn_sel_describe(&a->sel, a->sel.seed, d, sizeof d);
    note(r,
         "\n\nModel `%s`: %s, hidden %d, %d conv block(s), %d FC block(s), readout %s, %lld parameters; "
         "trained %d epochs (kept %d) on %lld samples%s. Data `%s` (%d samples%s). Protocol: `%s`%s%s.",
         a->model, dlp_gnn_arch_name(inf->arch), inf->hidden, inf->layers, inf->fc_layers,
         dlp_gnn_readout_name(inf->readout), (long long)inf->n_params, inf->epochs_run, inf->best_epoch,
         (long long)inf->n_train, r->same_data ? " of this data" : "", a->data, dlp_dataset_count(r->ds),
         r->same_data ? ", the model's training data" : "", d, a->retrain ? ", retrained per split" : "",
         r->mc ? ", Monte Carlo seeds 1337-1341" : r->allfolds ? ", every fold" : "");
}

/* With several runs: a table of each run's metrics and their mean +- std. */
static void note_runs(eval_run *r) {
    int T = r->p.T;
    note(r, "\n\n| run | n |");
    for (int k = 0; k < T; k++) note(r, " %s MAPE | RMSE | τ | Acc(10%%) |", r->p.tnames[k]);
    note(r, "\n|---|---:|");
    for (int k = 0; k < T; k++) note(r, "---:|---:|---:|---:|");
    note(r, "\n");
    for (int run = 0; run < r->n_runs; run++) {
        const split_res *res = &r->res[run];
        if (r->mc) note(r, "| seed %lld | %d |", (long long)res->seed, res->n);
        else note(r, "| fold %d | %d |", res->fold, res->n);
        for (int k = 0; k < T; k++)
            note(r, " %.2f%% | %s | %.4f | %.1f%% |", res->m[k].mape, dlp__hu_num(res->m[k].rmse), res->m[k].tau,
                 100 * res->m[k].acc10);
        note(r, "\n");
    }
    note(r, "| mean ± std | |");
    for (int k = 0; k < T; k++) {
        double s[4] = {0}, s2[4] = {0};
        for (int run = 0; run < r->n_runs; run++) {
            const dlp_metrics *m = &r->res[run].m[k];
            double x[4] = {m->mape, m->rmse, m->tau, 100 * m->acc10};
            for (int j = 0; j < 4; j++) {
                s[j] += x[j];
                s2[j] += x[j] * x[j];
            }
        }
        for (int j = 0; j < 4; j++) {
            double mu = s[j] / r->n_runs, sd = sqrt(fmax(0, s2[j] / r->n_runs - mu * mu));
            if (j == 0 || j == 3) note(r, " %.2f ± %.2f%% |", mu, sd);
            else note(r, " %s ± %s |", dlp__hu_num(mu), dlp__hu_sig(sd, 2));
        }
    }
    note(r, "\n\nThe tables below pool the test predictions of every run.");
}

/* The pooled metrics on stdout and the report files; 0 or the exit code. */
static int write_results(eval_run *r, int argc, char **argv) {
    const eval_args *a = &r->a;
    const gnn_preds *p = &r->p;
    char cmd[2048], title[256];
    gnn_command_line(argc, argv, cmd, sizeof cmd);
    snprintf(title, sizeof title, "Evaluation of %s (%s)", dlp_gnn_arch_name(r->inf.arch), a->model);
    gnn_report_paths rp = {title, cmd, r->notes, NULL, a->json, a->svg};
    gnn_report_names names;
    if (a->report) gnn_report_beside(a->report, &rp, &names);
    for (int k = 0; k < p->T; k++) {
        dlp_metrics mt;
        gnn_preds_metrics(p, k, &mt);
        printf("%s (%lld predictions%s): MAPE %.2f%%  RMSE %s  Kendall tau %.4f  Acc(5%%) %.1f%%  Acc(10%%) %.1f%%\n",
               p->tnames[k], (long long)mt.n, r->n_runs > 1 ? ", pooled over runs" : "", mt.mape, dlp__hu_num(mt.rmse),
               mt.tau, 100 * mt.acc5, 100 * mt.acc10);
    }
    int rc = 0;
    if (rp.md || rp.json || rp.svg) rc = gnn_preds_write(p, &rp);
    if (!rc && rp.md) printf("wrote %s\n", rp.md);
    return rc;
}

/* The protocol's runs, then the notes and the results; 0 or the exit code. */
static int evaluate(eval_run *r, int argc, char **argv) {
    int rc = choose_protocol(r);
    if (rc) return rc;
    if (!(r->res = calloc((size_t)r->n_runs, sizeof *r->res))) return cli_failf(DLP_EXIT_FAIL, "out of memory");
    for (int run = 0; run < r->n_runs && !rc; run++) rc = eval_one(r, run);
    if (!rc && r->p.n == 0) rc = cli_failf(DLP_EXIT_BADINPUT, "eval: no sample to evaluate");
    if (rc) return rc;
    note_recipe(r);
    if (r->n_runs > 1) note_runs(r);
    return write_results(r, argc, argv);
}

int dlp_cmd_eval(int argc, char **argv) {
    eval_run r;
    memset(&r, 0, sizeof r);
    int rc = parse_args(argc, argv, &r.a);
    if (rc || r.a.help) return rc;
    dlp_error e = {0};
    if (dlp_gnn_load(r.a.model, &r.m, &e) != DLP_OK || dlp_dataset_load(r.a.data, &r.ds, &e) != DLP_OK) {
        rc = cli_fail(&e);
    } else {
        dlp_gnn_info_get(r.m, &r.inf);
        rc = evaluate(&r, argc, argv);
    }
    gnn_preds_free(&r.p);
    free(r.res);
    dlp_dataset_free(r.ds);
    dlp_gnn_free(r.m);
    return rc;
}
