/*
 * cmd_train.c — `dlperf train`: fit a GNN predictor (DIPPM's GraphSAGE
 * PMGNS, GCN / GAT / GIN / MLP, or TraPPM with a pre-trained encoder) on a
 * .dlpd dataset and write a .dlpm.
 *
 *   dlperf train --data D.dlpd --arch sage --targets latency_ms --epochs 200 --out M.dlpm
 *   dlperf train --data D.dlpd --arch trappm --encoder gae.dlpm --out T.dlpm
 *   dlperf train --data D2.dlpd --arch trappm --init T.dlpm --curve c.csv --out T2.dlpm
 *
 * The split (default DIPPM's random 70/15/15, seed 1) is stored in the
 * model so that `dlperf eval` can rebuild the same test set.  After
 * training the test part (if any) is evaluated and summarised on stdout;
 * --report / --report-json / --svg write the full evaluation.  Progress
 * (epoch, loss, validation MAPE, ETA) is a self-rewriting line on stderr
 * when stderr is a terminal, otherwise a line every few seconds
 * (cli_progress; --progress lines prints one line per epoch anywhere).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/gnn_cli.h"

int dlp_cmd_train(int argc, char **argv);

static void usage(FILE *f) {
    fprintf(f,
            "usage: dlperf train --data FILE.dlpd --out FILE.dlpm [options]\n\n"
            "Train a graph neural predictor (docs/gnn.md).  Defaults are DIPPM's (thesis table 4.3):\n"
            "GraphSAGE, 3 blocks of 512, dropout 0.05, Adam lr 2.754e-5, Huber loss.\n\n"
            "model:\n"
            "  --arch A             sage (default), gcn, gat, gin, mlp (FC blocks on static features),\n"
            "                       trappm (SAGE blocks + a frozen pre-trained encoder, needs --encoder;\n"
            "                       its defaults: 2 blocks, 2 FC blocks, MSE, lr 1e-3, static features trappm)\n"
            "                       gnnlm (thesis ch. 7: a GIN's graph token in a small language model's\n"
            "                       prompt beside the sample's device description, docs/gnnlm.md; its\n"
            "                       defaults: hidden 64, 1 FC block, lr 1e-3,\n"
            "                       batch 16, 10 epochs)\n"
            "  --encoder FILE.dlpm  the pre-trained encoder (dlperf pretrain) for --arch trappm; for gnnlm a\n"
            "                       GraphMAE encoder (stage 1) whose GIN starts the model\n"
            "  --lm FILE.dlpm|DIR   gnnlm: the language model (dlperf lm pretrain, or a Hugging Face\n"
            "                       LLaMA-family folder); default builtin, the one dlperf ships\n"
            "  --stage S            gnnlm: adapt (stage 2: graph-to-text, GIN frozen) or predict (default:\n"
            "                       stage 3 and few-shot adaptation, everything trained on the targets)\n"
            "  --graph-input I      gnnlm: token (default: the GIN's graph token), text (a summary of the\n"
            "                       graph in the prompt) or json (nodes and edges in the prompt)\n"
            "  --output O           gnnlm: head (default: a regression head on the last prompt token) or\n"
            "                       tokens (the LM writes the latency's digits; greedy decoding)\n"
            "  --lora-rank N        gnnlm: LoRA rank on every LM projection (8; 0: none)\n"
            "  --soft-tokens N      gnnlm: soft-prompt vectors (8; 0: none)\n"
            "  --lm-lr X            gnnlm: learning rate of LoRA, soft prompt and graph projection (1e-3)\n"
            "  --init FILE.dlpm     start from this model's weights (transfer learning); same arch,\n"
            "                       widths, layout, static features and targets count\n"
            "  --hidden N           width of every block (512)\n"
            "  --layers N           conv blocks (3; trappm 2; trappm 0: no SAGE branch, embedding + F_s only)\n"
            "  --block-depth N      convs per block (1; DIPPM's public code: 2)\n"
            "  --fc-layers N        FC blocks before the output layer (3; 0: none)\n"
            "  --dropout P          (0.05; 0: none)\n"
            "  --readout R          sum (default), mean, max, scaled-sum (sum / mean training node count)\n"
            "  --heads N            GAT heads, concatenated (1)\n"
            "  --sage-normalize     L2-normalise SAGEConv outputs (PyG normalize=True)\n"
            "  --static-features L  comma list of static features, or dippm (default: macs, batch,\n"
            "                       n_conv, n_dense, n_relu), trappm, none\n"
            "  --targets L          comma list of dataset targets (default: the first)\n"
            "  --target-scale S     log-std (default), std, log, none\n"
            "training:\n"
            "  --epochs N (100)  --batch-size N graphs (32)  --lr X (2.754e-5)  --wd X (0)\n"
            "  --adamw              decoupled weight decay\n"
            "  --lr-schedule S      const (default) or cosine (to lr/100, per step)\n"
            "  --loss L             huber (default), mse, l1   --huber-delta X (1)\n"
            "  --clip X             gradient-norm clip (0: none)\n"
            "  --seed N (0)  --threads N (OpenBLAS threads; 1 gives bitwise reproducible runs)\n"
            "  --keep-last          keep the last epoch, not the best validation epoch\n"
            "  --max-minutes M      stop after the first epoch that ends past M minutes of training\n"
            "                       (a time budget; the epochs run so far are kept as usual)\n"
            "%s"
            "output:\n"
            "  --out FILE.dlpm      the model (required)\n"
            "  --report FILE.md     evaluation of the test part (also FILE.json, FILE.svg;\n"
            "                       - : Markdown on stdout, JSON / plot only where named)\n"
            "  --report-json FILE   the test metrics as JSON only\n"
            "  --curve FILE.csv     per-epoch curve: epoch,train_loss,val_mape\n"
            "  --progress P         auto (default: a rewriting line on a terminal; elsewhere a line every\n"
            "                       5 s, DLP_PROGRESS_SECONDS, none for quicker runs), lines (one per epoch), none\n",
            gnn_sel_help);
}


/* The progress line, and the --max-minutes budget (nonzero stops). */
typedef struct {
    cli_progress pr;
    double max_s;              /* 0: no budget */
} train_progress;

static int on_progress(void *u, const dlp_gnn_progress *p) {
    train_progress *tp = u;
    cli_progress *pr = &tp->pr;
    int stop = tp->max_s > 0 && p->elapsed_s >= tp->max_s && p->epoch < p->epochs;
    if (stop) fprintf(stderr, "train: --max-minutes reached after epoch %d of %d\n", p->epoch, p->epochs);
    /* the last epoch is not forced: the summary on stdout follows at once */
    if (!cli_progress_due(pr)) return stop;
    char el[32], eta[32], val[64] = "";
    cli_fmt_duration(p->elapsed_s, el, sizeof el);
    cli_fmt_duration(p->eta_s, eta, sizeof eta);
    if (!isnan(p->val_mape))
        snprintf(val, sizeof val, "  val MAPE %.2f%% (best %.2f%% @%d)", p->val_mape, p->best_val_mape, p->best_epoch);
    cli_progress_line(pr, "epoch %d/%d  loss %.5f%s  lr %s  %s  ETA %s", p->epoch, p->epochs, p->train_loss,
                      val, dlp__hu_sig(p->lr, 3), el, eta);
    return stop;
}

/* What the command line asks for. */
typedef struct {
    const char *data, *out, *report, *report_json, *encoder, *init, *curve, *progress;
    char targets_buf[512], *targets[16];
    int n_targets, static_idx[DLP_SF_COUNT], n_static;
    int arch_given, gnnlm_flag;   /* --arch given; a flag only gnnlm reads given */
    double max_minutes;           /* --max-minutes; 0: none */
    int help;                     /* --help: the usage is printed, nothing more to do */
    gnn_sel sel;
    dlp_gnn_opts o;
} train_args;

/* A run: the arguments, what they load, the split and the progress line. */
typedef struct {
    train_args a;
    train_progress pr;
    dlp_encoder *enc;
    dlp_gnn *init;
    dlp_dataset *ds;
    gnn_parts parts;
    char split_desc[1024];
} train_run;

static int bad_choice(const char *flag, const char *v, const char *expected) {
    cli_failf(DLP_EXIT_BADINPUT, "%s '%s': expected %s", flag, v, expected);
    return -1;
}

/* The flags whose word picks a choice or lists targets or static features:
 * 1 consumed, 0 none of them, -1 after the message. */
static int choice_flag(int argc, char **argv, int *i, void *user) {
    train_args *a = user;
    static const char *const names[] = {"--stage",   "--graph-input",  "--output",      "--arch",
                                        "--readout", "--loss",         "--target-scale", "--lr-schedule",
                                        "--targets", "--static-features"};
    const char *f = NULL, *v = NULL;
    for (size_t k = 0; k < sizeof names / sizeof *names && !f; k++) {
        int r = cli_opt(argc, argv, i, names[k], &v);
        if (r < 0) return -1;
        if (r > 0) f = names[k];
    }
    if (!f) return 0;
    dlp_gnn_opts *o = &a->o;
    if (!strcmp(f, "--stage")) {
        if (!strcmp(v, "adapt")) o->stage = DLP_GNNLM_STAGE_ADAPT;
        else if (!strcmp(v, "predict")) o->stage = DLP_GNNLM_STAGE_PREDICT;
        else return bad_choice(f, v, "adapt or predict");
        a->gnnlm_flag = 1;
    } else if (!strcmp(f, "--graph-input")) {
        if ((o->graph_input = dlp_gnnlm_input_parse(v)) < 0) return bad_choice(f, v, "token, text or json");
        a->gnnlm_flag = 1;
    } else if (!strcmp(f, "--output")) {
        if (!strcmp(v, "head")) o->output = DLP_GNNLM_OUTPUT_HEAD;
        else if (!strcmp(v, "tokens")) o->output = DLP_GNNLM_OUTPUT_TOKENS;
        else return bad_choice(f, v, "head or tokens");
        a->gnnlm_flag = 1;
    } else if (!strcmp(f, "--arch")) {
        if ((o->arch = dlp_gnn_arch_parse(v)) < 0)
            return bad_choice(f, v, "sage, gcn, gat, gin, mlp, trappm or gnnlm");
        a->arch_given = 1;
    } else if (!strcmp(f, "--readout")) {
        if ((o->readout = dlp_gnn_readout_parse(v)) < 0) return bad_choice(f, v, "sum, mean, max or scaled-sum");
    } else if (!strcmp(f, "--loss")) {
        if ((o->loss = dlp_gnn_loss_parse(v)) < 0) return bad_choice(f, v, "huber, mse or l1");
    } else if (!strcmp(f, "--target-scale")) {
        if ((o->target_scale = dlp_gnn_scale_parse(v)) < 0) return bad_choice(f, v, "log-std, std, log or none");
    } else if (!strcmp(f, "--lr-schedule")) {
        if (!strcmp(v, "cosine")) o->lr_schedule = DLP_GNN_LR_COSINE;
        else if (!strcmp(v, "const")) o->lr_schedule = DLP_GNN_LR_CONST;
        else return bad_choice(f, v, "const or cosine");
    } else if (!strcmp(f, "--targets")) {
        snprintf(a->targets_buf, sizeof a->targets_buf, "%s", v);
        a->n_targets = gnn_split_list(a->targets_buf, a->targets, 16);
        if (a->n_targets < 1) {
            cli_failf(DLP_EXIT_BADINPUT, "--targets: empty list");
            return -1;
        }
    } else if (gnn_parse_static(v, a->static_idx, &a->n_static)) {   /* --static-features */
        return -1;
    }
    return 1;
}

/* argv into *a, stopping at the first mistake (its message printed);
 * 0 or the exit code. */
static int parse_args(int argc, char **argv, train_args *a) {
    memset(a, 0, sizeof *a);
    a->progress = "auto";
    gnn_sel_init(&a->sel);
    dlp_gnn_opts *o = &a->o;
    /* integers: 0 for --layers / --fc-layers / --lora-rank / --soft-tokens
     * means none, which the options spell -1 (their 0 is the default) */
    const cli_flag flags[] = {
        {"--data", .s = &a->data},
        {"--out", .s = &a->out},
        {"--report", .s = &a->report},
        {"--report-json", .s = &a->report_json},
        {"--progress", .s = &a->progress},
        {"--encoder", .s = &a->encoder},
        {"--init", .s = &a->init},
        {"--curve", .s = &a->curve},
        {"--lm", .s = &o->lm, .given = &a->gnnlm_flag},
        {"--lora-rank", 0, 1024, .i = &o->lora_rank, .zero_none = 1, .given = &a->gnnlm_flag},
        {"--soft-tokens", 0, 1024, .i = &o->soft_tokens, .zero_none = 1, .given = &a->gnnlm_flag},
        {"--lm-lr", .flo = 0, .fhi = 10, .d = &o->lm_lr, .given = &a->gnnlm_flag},
        {"--hidden", 1, 65536, .i = &o->hidden},
        {"--layers", 0, 64, .i = &o->layers, .zero_none = 1},
        {"--block-depth", 1, 16, .i = &o->block_depth},
        {"--fc-layers", 0, 64, .i = &o->fc_layers, .zero_none = 1},
        {"--heads", 1, 1024, .i = &o->gat_heads},
        {"--epochs", 1, 1000000, .i = &o->epochs},
        {"--batch-size", 1, 1 << 20, .i = &o->batch_size},
        {"--seed", 0, INT64_MAX, .u64 = &o->seed},
        {"--threads", 1, 256, .i = &o->threads},
        {"--dropout", .flo = 0, .fhi = 0.99, .d = &o->dropout, .zero_none = 1},
        {"--lr", .flo = 1e-12, .fhi = 10, .d = &o->lr},
        {"--wd", .flo = 0, .fhi = 10, .d = &o->weight_decay},
        {"--huber-delta", .flo = 1e-9, .fhi = 1e9, .d = &o->huber_delta},
        {"--clip", .flo = 0, .fhi = 1e9, .d = &o->clip},
        {"--adamw", .on = &o->adamw},
        {"--sage-normalize", .on = &o->sage_normalize},
        {"--keep-last", .on = &o->keep_last},
        {"--max-minutes", .flo = 1e-6, .fhi = 1e6, .d = &a->max_minutes},
    };
    const gnn_flag_spec spec = {"train", usage, flags, CLI_NFLAGS(flags), choice_flag, a};
    return gnn_parse_flags(argc, argv, &spec, &a->sel, &a->help);
}

static const char gnnlm_only[] =
    "train: --lm, --stage, --graph-input, --output, --lora-rank, --soft-tokens and --lm-lr are for --arch gnnlm";

/* Before any file is read: the required flags, every output path (before
 * the possibly hours of training), the progress mode, and the flags that
 * only some architectures read; 0 or the exit code. */
static int check_args(const train_args *a, cli_progress *pr) {
    if (!a->data) return cli_usage_error("train", "--data FILE.dlpd is required");
    if (!a->out) return cli_usage_error("train", "--out FILE.dlpm is required");
    if (a->sel.kind == GSPLIT_MODEL) return cli_failf(DLP_EXIT_BADINPUT, "train: --split model is for eval");
    if (cli_check_out("train", "--out", a->out, 0) || cli_check_out("train", "--curve", a->curve, 0) ||
        gnn_check_report_outs("train", a->report, "--report-json", a->report_json, NULL))
        return DLP_EXIT_BADINPUT;
    if (cli_progress_init(pr, "train", a->progress)) return DLP_EXIT_BADINPUT;
    int arch = a->o.arch;
    if (a->encoder && arch != DLP_GNN_TRAPPM && arch != DLP_GNN_GNNLM)
        return cli_failf(DLP_EXIT_BADINPUT, "train: --encoder is for --arch trappm or gnnlm");
    /* (without --arch, an --init gnnlm model decides, once it is loaded) */
    if (a->gnnlm_flag && arch != DLP_GNN_GNNLM && !(a->init && !a->arch_given))
        return cli_failf(DLP_EXIT_BADINPUT, "%s", gnnlm_only);
    if (arch == DLP_GNN_TRAPPM && !a->encoder && !a->init)
        return cli_failf(DLP_EXIT_BADINPUT, "train: --arch trappm needs a pre-trained encoder (--encoder FILE.dlpm)");
    return 0;
}

/* The encoder, the --init model (which, without --arch, decides whether
 * this is gnnlm) and the dataset; 0 or the exit code. */
static int load_inputs(train_run *t) {
    train_args *a = &t->a;
    dlp_error e = {0};
    /* a missing or damaged encoder / init file is bad input (exit 2); the
     * library's messages name the file */
    if (a->encoder && dlp_encoder_load(a->encoder, &t->enc, &e) != DLP_OK)
        return cli_failf(DLP_EXIT_BADINPUT, "train: --encoder: %s", e.msg);
    if (a->init && dlp_gnn_load(a->init, &t->init, &e) != DLP_OK)
        return cli_failf(DLP_EXIT_BADINPUT, "train: --init: %s", e.msg);
    a->o.encoder = t->enc;
    a->o.init = t->init;
    /* a gnnlm --init continues as gnnlm without --arch */
    if (t->init && !a->arch_given && dlp_gnn_stage(t->init) >= 0) a->o.arch = DLP_GNN_GNNLM;
    if (a->gnnlm_flag && a->o.arch != DLP_GNN_GNNLM) return cli_failf(DLP_EXIT_BADINPUT, "%s", gnnlm_only);
    if (dlp_dataset_load(a->data, &t->ds, &e) != DLP_OK) return cli_fail(&e);
    return 0;
}

/* The samples split (the split's text is stored in the model) and the
 * remaining training options, which point into t; 0 or the exit code. */
static int split_data(train_run *t) {
    train_args *a = &t->a;
    dlp_gnn_opts *o = &a->o;
    int rc = gnn_sel_apply(t->ds, &a->sel, a->sel.seed, &t->parts);
    if (rc) return rc;
    gnn_sel_describe(&a->sel, a->sel.seed, t->split_desc, sizeof t->split_desc);
    if (a->n_targets) {
        o->n_targets = a->n_targets;
        o->targets = (const char *const *)a->targets;
    }
    o->n_static = a->n_static;
    o->static_features = a->static_idx;
    o->split = t->split_desc;
    o->progress = on_progress;
    t->pr.max_s = a->max_minutes * 60.0;
    o->progress_user = &t->pr;
    o->record_curve = a->curve != NULL;
    if (!t->parts.n_train) return cli_failf(DLP_EXIT_BADINPUT, "train: the split leaves no training sample");
    return 0;
}

/* --curve: epoch, training loss and validation MAPE per epoch; 0 or the
 * exit code (a failed write is a runtime failure naming the file). */
static int write_curve(const dlp_gnn *m, const char *path) {
    const double *ct, *cv;
    int cn;
    dlp_gnn_loss_curve(m, &ct, &cv, &cn);
    errno = 0;
    FILE *cf = fopen(path, "w");
    if (!cf) return cli_write_error(path);
    fprintf(cf, "epoch,train_loss,val_mape\n");
    for (int ep = 0; ep < cn; ep++) {
        fprintf(cf, "%d,%.9g,", ep + 1, ct[ep]);
        if (isfinite(cv[ep])) fprintf(cf, "%.9g", cv[ep]);
        fprintf(cf, "\n");
    }
    int bad = fflush(cf) != 0 || ferror(cf);
    if (fclose(cf) != 0 || bad) return cli_write_error(path);
    return 0;
}

/* The two summary lines: what was trained, and the file written. */
static void print_trained(const train_args *a, const dlp_gnn *m, const dlp_gnn_info *inf) {
    printf("trained %s (%lld parameters) on %lld samples in %.1f s: epoch %d of %d kept", dlp_gnn_arch_name(inf->arch),
           (long long)inf->n_params, (long long)inf->n_train, inf->train_seconds, inf->best_epoch, inf->epochs_run);
    if (dlp_gnn_encoder_method(m))
        printf(", frozen %s encoder (%d-dim embedding)", dlp_gnn_encoder_method(m), dlp_gnn_encoder_dim(m));
    if (a->init) printf(", initialised from %s", a->init);
    if (!isnan(inf->best_val_mape))
        printf(", validation MAPE %.2f%% (%lld samples)", inf->best_val_mape, (long long)inf->n_val);
    printf("\nwrote %s\n", a->out);
}

/* The test part's metrics on stdout and, with --report / --report-json,
 * the report files; 0 or the exit code. */
static int test_report(const train_run *t, const dlp_gnn *m, const dlp_gnn_info *inf, int argc, char **argv) {
    const train_args *a = &t->a;
    if (dlp_gnn_stage(m) == DLP_GNNLM_STAGE_ADAPT) {
        /* stage 2 trains the graph-to-text path; its head is still untrained */
        printf("stage adapt (graph-to-text): no test evaluation; continue with --init %s --stage predict\n", a->out);
        return 0;
    }
    if (!t->parts.n_test) {
        if (a->report || a->report_json)
            fprintf(stderr, "dlperf train: no test part in this split; nothing to report (use dlperf eval)\n");
        return 0;
    }
    gnn_preds p = {0};
    int rc = gnn_preds_add(&p, m, t->ds, t->parts.test, t->parts.n_test);
    if (!rc) {
        for (int k = 0; k < p.T; k++) {
            dlp_metrics mt;
            gnn_preds_metrics(&p, k, &mt);
            printf("test %s (%lld samples): MAPE %.2f%%  RMSE %s  Kendall tau %.4f  Acc(5%%) %.1f%%  Acc(10%%) %.1f%%\n",
                   p.tnames[k], (long long)mt.n, mt.mape, dlp__hu_num(mt.rmse), mt.tau, 100 * mt.acc5, 100 * mt.acc10);
        }
        char cmd[2048], title[256];
        gnn_command_line(argc, argv, cmd, sizeof cmd);
        snprintf(title, sizeof title, "Test set of %s (%s)", dlp_gnn_arch_name(inf->arch), a->out);
        gnn_report_paths rp = {title, cmd, NULL, NULL, a->report_json, NULL};
        gnn_report_names names;
        if (a->report) gnn_report_beside(a->report, &rp, &names);
        if (rp.md || rp.json) rc = gnn_preds_write(&p, &rp);
    }
    gnn_preds_free(&p);
    return rc;
}

/* Train, then the curve, the model file, the summary and the test
 * report; 0 or the exit code. */
static int train_and_report(train_run *t, int argc, char **argv) {
    dlp_error e = {0};
    dlp_gnn *m = NULL;
    dlp_status st = dlp_gnn_train(t->ds, t->parts.train, t->parts.n_train, t->parts.val, t->parts.n_val, &t->a.o, &m, &e);
    cli_progress_end(&t->pr.pr);
    /* an encoder or --init model that does not fit: EINVAL, exit 2 */
    if (st != DLP_OK) return cli_fail(&e);
    int rc = t->a.curve ? write_curve(m, t->a.curve) : 0;
    if (!rc && dlp_gnn_save(m, t->a.out, &e) != DLP_OK) rc = cli_save_fail(&e);
    if (!rc) {
        dlp_gnn_info inf;
        dlp_gnn_info_get(m, &inf);
        print_trained(&t->a, m, &inf);
        rc = test_report(t, m, &inf, argc, argv);
    }
    dlp_gnn_free(m);
    return rc;
}

int dlp_cmd_train(int argc, char **argv) {
    train_run t;
    memset(&t, 0, sizeof t);
    int rc = parse_args(argc, argv, &t.a);
    if (rc || t.a.help) return rc;
    if ((rc = check_args(&t.a, &t.pr.pr)) != 0) return rc;
    if ((rc = load_inputs(&t)) == 0 && (rc = split_data(&t)) == 0) rc = train_and_report(&t, argc, argv);
    gnn_parts_free(&t.parts);
    dlp_dataset_free(t.ds);
    dlp_encoder_free(t.enc);
    dlp_gnn_free(t.init);
    return rc;
}
