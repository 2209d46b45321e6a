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
            "  --json FILE          JSON report (default with --report: beside it)\n"
            "  --svg FILE           parity plot (default with --report: beside it)\n"
            "%s",
            gnn_sel_help);
}

typedef struct {
    int64_t seed;
    int fold;
    dlp_metrics m[16];
    int n;
} split_res;

int dlp_cmd_eval(int argc, char **argv) {
    const char *model = NULL, *data = NULL, *report = NULL, *json = NULL, *svg = NULL, *v;
    int retrain = 0, threads = 0, epochs = 0;
    gnn_sel sel;
    gnn_sel_init(&sel);
    sel.kind = GSPLIT_MODEL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int r;
        int64_t iv;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        }
        if ((r = gnn_sel_flag(argc, argv, &i, &sel)) != 0) {
            if (r < 0) return DLP_EXIT_BADINPUT;
            continue;
        }
        if ((r = cli_opt(argc, argv, &i, "--model", &v)) != 0) {
            if (r < 0) return DLP_EXIT_BADINPUT;
            model = v;
        } else if ((r = cli_opt(argc, argv, &i, "--data", &v)) != 0) {
            if (r < 0) return DLP_EXIT_BADINPUT;
            data = v;
        } else if ((r = cli_opt(argc, argv, &i, "--report", &v)) != 0) {
            if (r < 0) return DLP_EXIT_BADINPUT;
            report = v;
        } else if ((r = cli_opt(argc, argv, &i, "--json", &v)) != 0) {
            if (r < 0) return DLP_EXIT_BADINPUT;
            json = v;
        } else if ((r = cli_opt(argc, argv, &i, "--svg", &v)) != 0) {
            if (r < 0) return DLP_EXIT_BADINPUT;
            svg = v;
        } else if ((r = cli_opt(argc, argv, &i, "--threads", &v)) != 0) {
            if (r < 0 || cli_parse_i64("--threads", v, 1, 256, &iv)) return DLP_EXIT_BADINPUT;
            threads = (int)iv;
        } else if ((r = cli_opt(argc, argv, &i, "--epochs", &v)) != 0) {
            if (r < 0 || cli_parse_i64("--epochs", v, 1, 1000000, &iv)) return DLP_EXIT_BADINPUT;
            epochs = (int)iv;
        } else if (!strcmp(a, "--retrain")) {
            retrain = 1;
        } else {
            return cli_usage_error("eval", "unknown option '%s'", a);
        }
    }
    if (!model) return cli_usage_error("eval", "--model FILE.dlpm is required");
    if (!data) return cli_usage_error("eval", "--data FILE.dlpd is required");
    if (gnn_check_report_outs("eval", report, "--json", json, svg)) return DLP_EXIT_BADINPUT;
    dlp_error e = {0};
    dlp_gnn *m = NULL;
    dlp_dataset *ds = NULL;
    if (dlp_gnn_load(model, &m, &e) != DLP_OK) return cli_fail(&e);
    if (dlp_dataset_load(data, &ds, &e) != DLP_OK) {
        dlp_gnn_free(m);
        return cli_fail(&e);
    }
    dlp_gnn_info inf;
    dlp_gnn_info_get(m, &inf);
    int rc = 0;
    char notes[8192] = "";
    size_t nw = 0;
#define NOTE(...) (nw += (size_t)snprintf(notes + nw, nw < sizeof notes ? sizeof notes - nw : 0, __VA_ARGS__))
    int same_data = inf.data_fingerprint == dlp_dataset_fingerprint(ds);
    if (dlp_dataset_layout(ds) != inf.layout) {
        rc = cli_failf(DLP_EXIT_BADINPUT, "%s is in layout %s, the model %s wants %s", data,
                       dlp_layout_name(dlp_dataset_layout(ds)), model, dlp_layout_name(inf.layout));
        goto out;
    }
    gnn_sel narrow = sel;   /* --device / --family given with --split model narrow its test part */
    int narrowing = 0;
    if (sel.kind == GSPLIT_MODEL) {
        gnn_sel keep = sel;
        if (same_data && inf.split && *inf.split && gnn_sel_parse(inf.split, &sel) == 0) {
            NOTE("Test part of the model's own split (`%s`) of its training data.", inf.split);
            narrowing = narrow.device[0] || narrow.family[0];
        } else {
            sel = keep;
            sel.kind = GSPLIT_NONE;
            NOTE("Every selected sample: %s.", same_data ? "the model records no split"
                                                         : "the data is not the model's training data");
        }
    } else if (!retrain && same_data && sel.kind != GSPLIT_NONE) {
        char d[1024];
        gnn_sel_describe(&sel, sel.seed, d, sizeof d);
        if (!inf.split || strcmp(d, inf.split))
            NOTE("Caution: the model was trained on this data with `%s`; test samples of `%s` may have been "
                 "seen in training (use --retrain for an honest protocol).",
                 inf.split ? inf.split : "?", d);
    }
    if (retrain && (sel.kind == GSPLIT_NONE || sel.kind == GSPLIT_MODEL)) {
        rc = cli_failf(DLP_EXIT_BADINPUT, "eval: --retrain needs a split with a test part");
        goto out;
    }
    /* the runs: seeds (family-mc) x folds (kfold) */
    int n_runs = 1, mc = sel.kind == GSPLIT_FAMILY_MC && !sel.seed_given, allfolds = sel.kind == GSPLIT_KFOLD && !sel.fold_given;
    if (mc) n_runs = GNN_MC_SEEDS;
    if (allfolds) n_runs = sel.k;
    split_res *res = calloc((size_t)n_runs, sizeof *res);
    gnn_preds p = {0};
    if (!res) {
        rc = cli_failf(DLP_EXIT_FAIL, "out of memory");
        goto out;
    }
    const char *tg[16];
    int sidx[DLP_SF_COUNT];
    for (int run = 0; run < n_runs && !rc; run++) {
        gnn_sel s = sel;
        if (mc) s.seed = GNN_MC_SEED0 + run;
        if (allfolds) s.fold = run;
        gnn_parts parts;
        if ((rc = gnn_sel_apply(ds, &s, s.seed, &parts)) != 0) break;
        int *test = s.kind == GSPLIT_NONE ? parts.train : parts.test;
        int n_test = s.kind == GSPLIT_NONE ? parts.n_train : parts.n_test;
        if (narrowing && (rc = gnn_sel_filter(ds, &narrow, test, &n_test)) != 0) {
            gnn_parts_free(&parts);
            break;
        }
        const dlp_gnn *use = m;
        dlp_gnn *fresh = NULL;
        if (retrain) {
            dlp_gnn_opts o;
            gnn_opts_from_info(m, &o, tg, sidx);
            if (epochs) o.epochs = epochs;
            o.threads = threads;
            char d[1024];
            gnn_sel_describe(&s, s.seed, d, sizeof d);
            o.split = d;
            if (isatty(STDERR_FILENO)) fprintf(stderr, "retraining %s on %s ...\n", dlp_gnn_arch_name(o.arch), d);
            /* TraPPM: the same frozen encoder the model holds */
            dlp_encoder *enc = NULL;
            if (o.arch == DLP_GNN_TRAPPM && dlp_gnn_encoder_copy(m, &enc, &e) != DLP_OK) {
                rc = cli_fail(&e);
                gnn_parts_free(&parts);
                break;
            }
            o.encoder = enc;
            dlp_status tst = dlp_gnn_train(ds, parts.train, parts.n_train, parts.val, parts.n_val, &o, &fresh, &e);
            dlp_encoder_free(enc);
            if (tst != DLP_OK) {
                rc = cli_fail(&e);
                gnn_parts_free(&parts);
                break;
            }
            use = fresh;
        }
        int before = p.n;
        rc = gnn_preds_add(&p, use, ds, test, n_test);
        dlp_gnn_free(fresh);
        gnn_parts_free(&parts);
        if (rc) break;
        /* this run's metrics from its slice of the pool */
        gnn_preds one = p;
        one.n = p.n - before;
        one.y = p.y + (size_t)before * p.T;
        one.yhat = p.yhat + (size_t)before * p.T;
        res[run].seed = s.seed;
        res[run].fold = s.fold;
        res[run].n = one.n;
        for (int k = 0; k < p.T; k++) gnn_preds_metrics(&one, k, &res[run].m[k]);
    }
    if (!rc && p.n == 0) rc = cli_failf(DLP_EXIT_BADINPUT, "eval: no sample to evaluate");
    if (!rc) {
        char d[1024];
        gnn_sel_describe(&sel, sel.seed, d, sizeof d);
        NOTE("\n\nModel `%s`: %s, hidden %d, %d conv block(s), %d FC block(s), readout %s, %lld parameters; "
             "trained %d epochs (kept %d) on %lld samples%s. Data `%s` (%d samples%s). Protocol: `%s`%s%s.",
             model, dlp_gnn_arch_name(inf.arch), inf.hidden, inf.layers, inf.fc_layers,
             dlp_gnn_readout_name(inf.readout), (long long)inf.n_params, inf.epochs_run, inf.best_epoch,
             (long long)inf.n_train, same_data ? " of this data" : "", data, dlp_dataset_count(ds),
             same_data ? ", the model's training data" : "", d, retrain ? ", retrained per split" : "",
             mc ? ", Monte Carlo seeds 1337-1341" : allfolds ? ", every fold" : "");
        if (n_runs > 1) {
            NOTE("\n\n| run | n |");
            for (int k = 0; k < p.T; k++) NOTE(" %s MAPE | RMSE | τ | Acc(10%%) |", p.tnames[k]);
            NOTE("\n|---|---:|");
            for (int k = 0; k < p.T; k++) NOTE("---:|---:|---:|---:|");
            NOTE("\n");
            for (int run = 0; run < n_runs; run++) {
                if (mc) NOTE("| seed %lld | %d |", (long long)res[run].seed, res[run].n);
                else NOTE("| fold %d | %d |", res[run].fold, res[run].n);
                for (int k = 0; k < p.T; k++)
                    NOTE(" %.2f%% | %s | %.4f | %.1f%% |", res[run].m[k].mape, dlp__hu_num(res[run].m[k].rmse), res[run].m[k].tau,
                         100 * res[run].m[k].acc10);
                NOTE("\n");
            }
            NOTE("| mean ± std | |");
            for (int k = 0; k < p.T; k++) {
                double s[4] = {0}, s2[4] = {0};
                for (int run = 0; run < n_runs; run++) {
                    double x[4] = {res[run].m[k].mape, res[run].m[k].rmse, res[run].m[k].tau, 100 * res[run].m[k].acc10};
                    for (int j = 0; j < 4; j++) {
                        s[j] += x[j];
                        s2[j] += x[j] * x[j];
                    }
                }
                for (int j = 0; j < 4; j++) {
                    double mu = s[j] / n_runs, sd = sqrt(fmax(0, s2[j] / n_runs - mu * mu));
                    if (j == 0 || j == 3) NOTE(" %.2f ± %.2f%% |", mu, sd);
                    else NOTE(" %s ± %s |", dlp__hu_num(mu), dlp__hu_sig(sd, 2));
                }
            }
            NOTE("\n\nThe tables below pool the test predictions of every run.");
        }
        char cmd[2048], mdp[1100], jsp[1100], svp[1100], title[256];
        gnn_command_line(argc, argv, cmd, sizeof cmd);
        snprintf(title, sizeof title, "Evaluation of %s (%s)", dlp_gnn_arch_name(inf.arch), model);
        gnn_report_paths rp = {title, cmd, notes, NULL, json, svg};
        if (report) {
            size_t L = strlen(report);
            int stem = L > 3 && !strcmp(report + L - 3, ".md") ? (int)L - 3 : (int)L;
            snprintf(mdp, sizeof mdp, "%s", report);
            rp.md = mdp;
            if (!json) {
                snprintf(jsp, sizeof jsp, "%.*s.json", stem, report);
                rp.json = jsp;
            }
            if (!svg) {
                snprintf(svp, sizeof svp, "%.*s.svg", stem, report);
                rp.svg = svp;
            }
        }
        for (int k = 0; k < p.T; k++) {
            dlp_metrics mt;
            gnn_preds_metrics(&p, k, &mt);
            printf("%s (%lld predictions%s): MAPE %.2f%%  RMSE %s  Kendall tau %.4f  Acc(5%%) %.1f%%  Acc(10%%) %.1f%%\n",
                   p.tnames[k], (long long)mt.n, n_runs > 1 ? ", pooled over runs" : "", mt.mape, dlp__hu_num(mt.rmse), mt.tau,
                   100 * mt.acc5, 100 * mt.acc10);
        }
        if (rp.md || rp.json || rp.svg) rc = gnn_preds_write(&p, &rp);
        if (!rc && rp.md) printf("wrote %s\n", rp.md);
    }
    gnn_preds_free(&p);
    free(res);
out:
    dlp_dataset_free(ds);
    dlp_gnn_free(m);
    return rc;
#undef NOTE
}
