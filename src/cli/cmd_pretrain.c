/*
 * cmd_pretrain.c — `dlperf pretrain`: self-supervised pre-training of a
 * graph encoder (TraPPM's GAE or GraphMAE) on unlabeled graphs, written as
 * an encoder .dlpm that `dlperf train --arch trappm --encoder` and `dlperf
 * embed` use (docs/pretrain.md).
 *
 *   dlperf pretrain --unlabeled corpus/,help-nb201 --out enc.dlpm --method gae
 *
 * The sources are converted once into a pack (<out>.dlpc unless --pack),
 * reused by later runs on the same sources.  A checkpoint (<out>.ckpt) is
 * written every --checkpoint-every epochs; Ctrl-C or SIGTERM stops after
 * the current epoch so that it is whole, and --resume continues from it.
 */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"

int dlp_cmd_pretrain(int argc, char **argv);

#define MAX_SOURCES 64

static void usage(FILE *f) {
    fprintf(f,
            "usage: dlperf pretrain --unlabeled SRC[,SRC...] --out FILE.dlpm [options]\n\n"
            "Pre-train a graph encoder on unlabeled graphs (docs/pretrain.md).  SRC: an .onnx, .dlpg or\n"
            ".dlpd file, a folder of them (searched recursively; a manifest.jsonl of dlperf-profile\n"
            "--unlabeled names families), or help-nb201 (the 15,625 NAS-Bench-201 cells).\n\n"
            "model:\n"
            "  --method M           gae (TraPPM, default) or graphmae\n"
            "  --hidden N           width of every layer and of the embedding (gae 512, graphmae 1024)\n"
            "  --layers N           encoder layers (gae 4, graphmae 5)\n"
            "  --dropout P          (gae 0.5, graphmae 0.2; 0: none)\n"
            "  --mask-rate P        graphmae: share of nodes masked (0.5)\n"
            "  --replace-rate P     graphmae: of the masked, share given another node's features (0.1)\n"
            "  --alpha A            graphmae: scaled-cosine-error exponent (2)\n"
            "  --neg-ratio N        gae: negative node pairs per edge (1)\n"
            "training:\n"
            "  --epochs N (gae 400, graphmae 500)  --batch-size N graphs (gae 32, graphmae 128)\n"
            "  --lr X (5e-4)  --wd X (0)  --seed N (0)  --threads N (OpenBLAS threads)\n"
            "  --holdout N          graphs kept out of training; their loss is reported (0)\n"
            "corpus:\n"
            "  --pack FILE.dlpc     converted corpus (default: <out>.dlpc; reused when sources match)\n"
            "  --batch N            binds the batch dimension of ONNX files (1)\n"
            "  --layout L           node-feature layout: trappm (default) or dippm (the layout of the\n"
            "                       model that will use the encoder: trappm models, gnnlm on dippm data)\n"
            "  --max-graphs N       use the first N graphs (0: all)\n"
            "  --max-nodes N        leave out graphs with more nodes (0: no limit)\n"
            "checkpoints:\n"
            "  --checkpoint FILE    (default: <out>.ckpt)  --checkpoint-every N epochs (1)\n"
            "  --resume             continue from the checkpoint when it exists\n"
            "output:\n"
            "  --out FILE.dlpm      the encoder (required)\n"
            "  --progress P         auto (default: a rewriting line on a terminal; elsewhere a line every\n"
            "                       5 s, DLP_PROGRESS_SECONDS, none for quicker runs), lines (one per epoch), none\n");
}

static volatile sig_atomic_t stop_signal;
static void on_signal(int sig) { stop_signal = sig; }

typedef struct {
    cli_progress p;
    int last_epoch;
} progress_t;

static int on_progress(void *u, int epoch, int epochs, double loss, double val_loss, double elapsed_s) {
    progress_t *pr = u;
    pr->last_epoch = epoch;
    if (cli_progress_due(&pr->p)) {
        char el[32], eta[32], val[48] = "";
        cli_fmt_duration(elapsed_s, el, sizeof el);
        /* the ETA from this run's pace (a resumed run starts late) */
        cli_fmt_duration(epoch > 0 ? elapsed_s / epoch * (epochs - epoch) : 0, eta, sizeof eta);
        if (!isnan(val_loss)) snprintf(val, sizeof val, "  held-out %.5f", val_loss);
        cli_progress_line(&pr->p, "epoch %d/%d  loss %.5f%s  %s  ETA %s", epoch, epochs, loss, val, el, eta);
    }
    return stop_signal != 0;
}

/* What the command line asks for. */
typedef struct {
    const char *unlabeled, *out, *pack, *ckpt, *progress;
    int help;   /* --help: the usage is printed, nothing more to do */
    dlp_pretrain_opts o;
    dlp_corpus_opts co;
} pretrain_args;

/* --method and --layout: 1 consumed, 0 neither, -1 after the message. */
static int choice_flag(int argc, char **argv, int *i, pretrain_args *a) {
    const char *v;
    int r;
    if ((r = cli_opt(argc, argv, i, "--method", &v)) != 0) {
        if (r < 0) return -1;
        if ((a->o.method = dlp_pretrain_method_parse(v)) < 0) {
            cli_failf(DLP_EXIT_BADINPUT, "--method '%s': expected gae or graphmae", v);
            return -1;
        }
        return 1;
    }
    if ((r = cli_opt(argc, argv, i, "--layout", &v)) != 0) {
        if (r < 0) return -1;
        int l = dlp_layout_parse(v);
        if (l < 0) {
            cli_failf(DLP_EXIT_BADINPUT, "--layout '%s': expected trappm or dippm", v);
            return -1;
        }
        a->co.layout = (dlp_layout)l;
        return 1;
    }
    return 0;
}

/* argv into *a, stopping at the first mistake (its message printed);
 * 0 or the exit code. */
static int parse_args(int argc, char **argv, pretrain_args *a) {
    memset(a, 0, sizeof *a);
    a->progress = "auto";
    a->co.batch = 1;
    a->co.layout = DLP_LAYOUT_TRAPPM;
    dlp_pretrain_opts *o = &a->o;
    dlp_corpus_opts *co = &a->co;
    /* --dropout / --replace-rate 0 mean none, which the options spell -1 */
    const cli_flag flags[] = {
        {"--unlabeled", .s = &a->unlabeled},
        {"--out", .s = &a->out},
        {"--pack", .s = &a->pack},
        {"--checkpoint", .s = &a->ckpt},
        {"--progress", .s = &a->progress},
        {"--epochs", 1, 1000000, .i = &o->epochs},
        {"--hidden", 1, 65536, .i = &o->hidden},
        {"--layers", 1, 64, .i = &o->layers},
        {"--batch-size", 1, 1 << 20, .i = &o->batch_size},
        {"--neg-ratio", 1, 1000, .i = &o->neg_ratio},
        {"--seed", 0, INT64_MAX, .u64 = &o->seed},
        {"--threads", 1, 256, .i = &o->threads},
        {"--holdout", 0, INT64_MAX, .i64 = &o->holdout},
        {"--checkpoint-every", 1, 1000000, .i = &o->checkpoint_every},
        {"--batch", 1, 1 << 20, .i64 = &co->batch},
        {"--max-graphs", 0, INT64_MAX, .i64 = &co->max_graphs},
        {"--max-nodes", 0, INT64_MAX, .i64 = &co->max_nodes},
        {"--dropout", .flo = 0, .fhi = 0.99, .d = &o->dropout, .zero_none = 1},
        {"--mask-rate", .flo = 0.01, .fhi = 0.99, .d = &o->mask_rate},
        {"--replace-rate", .flo = 0, .fhi = 0.99, .d = &o->replace_rate, .zero_none = 1},
        {"--alpha", .flo = 1, .fhi = 16, .d = &o->alpha},
        {"--lr", .flo = 1e-12, .fhi = 10, .d = &o->lr},
        {"--wd", .flo = 0, .fhi = 10, .d = &o->weight_decay},
        {"--resume", .on = &o->resume},
    };
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            a->help = 1;
            return 0;
        }
        int r = cli_flags(argc, argv, &i, flags, CLI_NFLAGS(flags));
        if (!r) r = choice_flag(argc, argv, &i, a);
        if (r < 0) return DLP_EXIT_BADINPUT;
        if (!r) {
            fprintf(stderr, "dlperf: pretrain: unknown option '%s' (see dlperf pretrain --help)\n", argv[i]);
            return DLP_EXIT_BADINPUT;
        }
    }
    return 0;
}

/* Before any work: the required flags, the output paths and the progress
 * mode; 0 or the exit code. */
static int check_args(const pretrain_args *a, progress_t *pr) {
    if (!a->out) return cli_usage_error("pretrain", "--out FILE.dlpm is required");
    if (!a->unlabeled && !a->pack)
        return cli_usage_error("pretrain", "--unlabeled SRC[,SRC...] is required (or --pack of a built corpus)");
    if (cli_check_out("pretrain", "--out", a->out, 0) || cli_check_out("pretrain", "--checkpoint", a->ckpt, 0))
        return DLP_EXIT_BADINPUT;
    /* with sources the pack is (re)written when absent or stale */
    if (a->unlabeled && a->pack && access(a->pack, F_OK) != 0 && cli_check_out("pretrain", "--pack", a->pack, 0))
        return DLP_EXIT_BADINPUT;
    if (cli_progress_init(&pr->p, "pretrain", a->progress)) return DLP_EXIT_BADINPUT;
    return 0;
}

/* A run: the arguments, the source list, the default pack and checkpoint
 * paths, the corpus and the encoder. */
typedef struct {
    pretrain_args a;
    progress_t pr;
    int chatty;   /* corpus lines: on a terminal or with --progress lines */
    char *srcbuf;
    const char *srcs[MAX_SOURCES];
    int n_src;
    char *pack_def, *ckpt_def;
    dlp_corpus *c;
    dlp_encoder *enc;
} pretrain_run;

/* The sources converted into the pack (or the pack reused, or --pack
 * alone opened); 0 or the exit code. */
static int open_corpus(pretrain_run *t) {
    pretrain_args *a = &t->a;
    if (a->unlabeled) {
        t->srcbuf = strdup(a->unlabeled);
        if (!t->srcbuf || (t->n_src = cli_split_list(t->srcbuf, t->srcs, MAX_SOURCES)) < 0)
            return cli_failf(DLP_EXIT_BADINPUT, "--unlabeled '%s': expected a comma list of at most %d sources",
                             a->unlabeled, MAX_SOURCES);
    }
    size_t ol = strlen(a->out);
    t->pack_def = malloc(ol + 8);
    t->ckpt_def = malloc(ol + 8);
    if (!t->pack_def || !t->ckpt_def) return cli_failf(DLP_EXIT_FAIL, "pretrain: out of memory");
    snprintf(t->pack_def, ol + 8, "%s.dlpc", a->out);
    snprintf(t->ckpt_def, ol + 8, "%s.ckpt", a->out);
    if (!a->pack) a->pack = t->pack_def;
    if (!a->ckpt) a->ckpt = t->ckpt_def;
    a->co.warn = cli_warn;
    dlp_error e = {0};
    if (t->chatty) fprintf(stderr, "corpus: %s ...\n", t->n_src ? "reading sources (or reusing the pack)" : a->pack);
    dlp_status st = t->n_src ? dlp_corpus_pack(t->srcs, t->n_src, a->pack, &a->co, &t->c, &e)
                             : dlp_corpus_open(a->pack, &t->c, &e);
    if (st) return cli_fail(&e);
    if (t->chatty)
        fprintf(stderr, "corpus: %lld graphs in %s (%lld sources skipped)\n", (long long)dlp_corpus_count(t->c),
                a->pack, (long long)dlp_corpus_skipped(t->c));
    return 0;
}

/* Pre-train the encoder; Ctrl-C / SIGTERM ask for a clean stop after the
 * current epoch, which leaves a whole checkpoint.  0 or the exit code. */
static int pretrain(pretrain_run *t) {
    pretrain_args *a = &t->a;
    struct sigaction sa, old_int, old_term;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    a->o.checkpoint = a->ckpt;
    a->o.progress = on_progress;
    a->o.progress_user = &t->pr;
    dlp_error e = {0};
    dlp_status st = dlp_encoder_pretrain(t->c, &a->o, &t->enc, &e);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    cli_progress_end(&t->pr.p);
    if (stop_signal) {
        fprintf(stderr, "dlperf: pretrain: stopped by %s after epoch %d; checkpoint %s is intact, rerun with "
                "--resume to continue\n", stop_signal == SIGINT ? "Ctrl-C" : "SIGTERM", t->pr.last_epoch, a->ckpt);
        return DLP_EXIT_FAIL;
    }
    return st ? cli_fail(&e) : 0;
}

/* The encoder saved and summarised on stdout; 0 or the exit code. */
static int save_and_report(const pretrain_run *t) {
    dlp_error e = {0};
    if (dlp_encoder_save(t->enc, t->a.out, &e)) return cli_save_fail(&e);
    dlp_encoder_info inf;
    dlp_encoder_info_get(t->enc, &inf);
    printf("pretrained %s encoder: %d layers x %d, %lld parameters\n", dlp_pretrain_method_name(inf.method),
           inf.layers, inf.hidden, (long long)inf.n_params);
    printf("graphs     %lld trained, %lld held out, %lld sources skipped (pack %s)\n", (long long)inf.n_graphs,
           (long long)inf.n_holdout, (long long)dlp_corpus_skipped(t->c), t->a.pack);
    printf("epochs     %d of %d\n", inf.epochs_run, inf.epochs);
    printf("loss       %s final", dlp__hu_sig(inf.final_loss, 6));
    if (!isnan(inf.val_loss)) printf(", %s held out", dlp__hu_sig(inf.val_loss, 6));
    printf(" (%s)\n", inf.method == DLP_PRETRAIN_GAE ? "BCE" : "SCE");
    printf("time       %.1f s\n", inf.train_seconds);
    printf("wrote      %s\n", t->a.out);
    return 0;
}

int dlp_cmd_pretrain(int argc, char **argv) {
    pretrain_run t;
    memset(&t, 0, sizeof t);
    int rc = parse_args(argc, argv, &t.a);
    if (rc || t.a.help) return rc;
    if ((rc = check_args(&t.a, &t.pr)) != 0) return rc;
    t.chatty = t.pr.p.mode == CLI_PROGRESS_TTY || t.pr.p.mode == CLI_PROGRESS_LINES;
    if ((rc = open_corpus(&t)) == 0 && (rc = pretrain(&t)) == 0) rc = save_and_report(&t);
    dlp_encoder_free(t.enc);
    dlp_corpus_close(t.c);
    free(t.srcbuf);
    free(t.pack_def);
    free(t.ckpt_def);
    return rc;
}
