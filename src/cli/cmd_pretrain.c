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

static void fmt_time(double s, char *b, size_t n) {
    if (!isfinite(s) || s < 0) s = 0;
    long t = (long)(s + 0.5);
    if (t >= 3600) snprintf(b, n, "%ldh%02ldm", t / 3600, t / 60 % 60);
    else if (t >= 60) snprintf(b, n, "%ldm%02lds", t / 60, t % 60);
    else snprintf(b, n, "%lds", t);
}

static int on_progress(void *u, int epoch, int epochs, double loss, double val_loss, double elapsed_s) {
    progress_t *pr = u;
    pr->last_epoch = epoch;
    if (cli_progress_due(&pr->p)) {
        char el[32], eta[32], val[48] = "";
        fmt_time(elapsed_s, el, sizeof el);
        /* the ETA from this run's pace (a resumed run starts late) */
        fmt_time(epoch > 0 ? elapsed_s / epoch * (epochs - epoch) : 0, eta, sizeof eta);
        if (!isnan(val_loss)) snprintf(val, sizeof val, "  held-out %.5f", val_loss);
        cli_progress_line(&pr->p, "epoch %d/%d  loss %.5f%s  %s  ETA %s", epoch, epochs, loss, val, el, eta);
    }
    return stop_signal != 0;
}

int dlp_cmd_pretrain(int argc, char **argv) {
    const char *unlabeled = NULL, *out = NULL, *pack = NULL, *ckpt = NULL, *progress = "auto", *v;
    dlp_pretrain_opts o;
    memset(&o, 0, sizeof o);
    dlp_corpus_opts co;
    memset(&co, 0, sizeof co);
    co.batch = 1;
    co.layout = DLP_LAYOUT_TRAPPM;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int r, exit_bad = 0;
        int64_t iv;
        double dv;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        }
/* true when argv[i] is `name` with a value; a missing value sets exit_bad */
#define OPT(name) ((r = cli_opt(argc, argv, &i, name, &v)) > 0 || (r < 0 && (exit_bad = 1) && 0))
        if (OPT("--unlabeled")) unlabeled = v;
        else if (OPT("--out")) out = v;
        else if (OPT("--pack")) pack = v;
        else if (OPT("--checkpoint")) ckpt = v;
        else if (OPT("--progress")) progress = v;
        else if (OPT("--method")) {
            if ((o.method = dlp_pretrain_method_parse(v)) < 0)
                return cli_failf(DLP_EXIT_BADINPUT, "--method '%s': expected gae or graphmae", v);
        } else if (OPT("--epochs")) {
            if (cli_parse_i64("--epochs", v, 1, 1000000, &iv)) return DLP_EXIT_BADINPUT;
            o.epochs = (int)iv;
        } else if (OPT("--hidden")) {
            if (cli_parse_i64("--hidden", v, 1, 65536, &iv)) return DLP_EXIT_BADINPUT;
            o.hidden = (int)iv;
        } else if (OPT("--layers")) {
            if (cli_parse_i64("--layers", v, 1, 64, &iv)) return DLP_EXIT_BADINPUT;
            o.layers = (int)iv;
        } else if (OPT("--batch-size")) {
            if (cli_parse_i64("--batch-size", v, 1, 1 << 20, &iv)) return DLP_EXIT_BADINPUT;
            o.batch_size = (int)iv;
        } else if (OPT("--neg-ratio")) {
            if (cli_parse_i64("--neg-ratio", v, 1, 1000, &iv)) return DLP_EXIT_BADINPUT;
            o.neg_ratio = (int)iv;
        } else if (OPT("--seed")) {
            if (cli_parse_i64("--seed", v, 0, INT64_MAX, &iv)) return DLP_EXIT_BADINPUT;
            o.seed = (uint64_t)iv;
        } else if (OPT("--threads")) {
            if (cli_parse_i64("--threads", v, 1, 256, &iv)) return DLP_EXIT_BADINPUT;
            o.threads = (int)iv;
        } else if (OPT("--holdout")) {
            if (cli_parse_i64("--holdout", v, 0, INT64_MAX, &iv)) return DLP_EXIT_BADINPUT;
            o.holdout = iv;
        } else if (OPT("--checkpoint-every")) {
            if (cli_parse_i64("--checkpoint-every", v, 1, 1000000, &iv)) return DLP_EXIT_BADINPUT;
            o.checkpoint_every = (int)iv;
        } else if (OPT("--layout")) {
            int l = dlp_layout_parse(v);
            if (l < 0) return cli_failf(DLP_EXIT_BADINPUT, "--layout '%s': expected trappm or dippm", v);
            co.layout = (dlp_layout)l;
        } else if (OPT("--batch")) {
            if (cli_parse_i64("--batch", v, 1, 1 << 20, &co.batch)) return DLP_EXIT_BADINPUT;
        } else if (OPT("--max-graphs")) {
            if (cli_parse_i64("--max-graphs", v, 0, INT64_MAX, &co.max_graphs)) return DLP_EXIT_BADINPUT;
        } else if (OPT("--max-nodes")) {
            if (cli_parse_i64("--max-nodes", v, 0, INT64_MAX, &co.max_nodes)) return DLP_EXIT_BADINPUT;
        } else if (OPT("--dropout")) {
            if (cli_parse_f64("--dropout", v, 0, 0.99, &dv)) return DLP_EXIT_BADINPUT;
            o.dropout = dv > 0 ? dv : -1;
        } else if (OPT("--mask-rate")) {
            if (cli_parse_f64("--mask-rate", v, 0.01, 0.99, &o.mask_rate)) return DLP_EXIT_BADINPUT;
        } else if (OPT("--replace-rate")) {
            if (cli_parse_f64("--replace-rate", v, 0, 0.99, &dv)) return DLP_EXIT_BADINPUT;
            o.replace_rate = dv > 0 ? dv : -1;
        } else if (OPT("--alpha")) {
            if (cli_parse_f64("--alpha", v, 1, 16, &o.alpha)) return DLP_EXIT_BADINPUT;
        } else if (OPT("--lr")) {
            if (cli_parse_f64("--lr", v, 1e-12, 10, &o.lr)) return DLP_EXIT_BADINPUT;
        } else if (OPT("--wd")) {
            if (cli_parse_f64("--wd", v, 0, 10, &o.weight_decay)) return DLP_EXIT_BADINPUT;
        } else if (exit_bad) {
            return DLP_EXIT_BADINPUT;
        } else if (!strcmp(a, "--resume")) {
            o.resume = 1;
        } else {
            fprintf(stderr, "dlperf: pretrain: unknown option '%s' (see dlperf pretrain --help)\n", a);
            return DLP_EXIT_BADINPUT;
        }
        if (exit_bad) return DLP_EXIT_BADINPUT;
#undef OPT
    }
    if (!out) return cli_usage_error("pretrain", "--out FILE.dlpm is required");
    if (!unlabeled && !pack)
        return cli_usage_error("pretrain", "--unlabeled SRC[,SRC...] is required (or --pack of a built corpus)");
    if (cli_check_out("pretrain", "--out", out, 0) || cli_check_out("pretrain", "--checkpoint", ckpt, 0))
        return DLP_EXIT_BADINPUT;
    /* with sources the pack is (re)written when absent or stale */
    if (unlabeled && pack && access(pack, F_OK) != 0 && cli_check_out("pretrain", "--pack", pack, 0))
        return DLP_EXIT_BADINPUT;
    progress_t pr = {0};
    if (cli_progress_init(&pr.p, "pretrain", progress)) return DLP_EXIT_BADINPUT;
    /* the corpus lines: on a terminal or with --progress lines (a log gets the timed epoch lines) */
    int chatty = pr.p.mode == CLI_PROGRESS_TTY || pr.p.mode == CLI_PROGRESS_LINES;

    char *srcbuf = unlabeled ? strdup(unlabeled) : NULL;
    const char *srcs[MAX_SOURCES];
    int n_src = 0;
    if (unlabeled && (!srcbuf || (n_src = cli_split_list(srcbuf, srcs, MAX_SOURCES)) < 0)) {
        free(srcbuf);
        return cli_failf(DLP_EXIT_BADINPUT, "--unlabeled '%s': expected a comma list of at most %d sources", unlabeled,
                         MAX_SOURCES);
    }
    size_t ol = strlen(out);
    char *pack_def = malloc(ol + 8), *ckpt_def = malloc(ol + 8);
    int rc = DLP_EXIT_OK;
    dlp_corpus *c = NULL;
    dlp_encoder *enc = NULL;
    dlp_error e = {0};
    if (!pack_def || !ckpt_def) {
        rc = cli_failf(DLP_EXIT_FAIL, "pretrain: out of memory");
        goto done;
    }
    snprintf(pack_def, ol + 8, "%s.dlpc", out);
    snprintf(ckpt_def, ol + 8, "%s.ckpt", out);
    if (!pack) pack = pack_def;
    if (!ckpt) ckpt = ckpt_def;
    co.warn = cli_warn;
    if (chatty) fprintf(stderr, "corpus: %s ...\n", n_src ? "reading sources (or reusing the pack)" : pack);
    dlp_status st = n_src ? dlp_corpus_open(srcs, n_src, pack, &co, &c, &e) : dlp_corpus_load(pack, &c, &e);
    if (st) {
        rc = cli_fail(&e);
        goto done;
    }
    if (chatty)
        fprintf(stderr, "corpus: %lld graphs in %s (%lld sources skipped)\n", (long long)dlp_corpus_count(c), pack,
                (long long)dlp_corpus_skipped(c));

    /* from here on Ctrl-C / SIGTERM ask for a clean stop after the epoch */
    struct sigaction sa, old_int, old_term;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    o.checkpoint = ckpt;
    o.progress = on_progress;
    o.progress_user = &pr;
    st = dlp_encoder_pretrain(c, &o, &enc, &e);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    cli_progress_end(&pr.p);
    if (stop_signal) {
        fprintf(stderr, "dlperf: pretrain: stopped by %s after epoch %d; checkpoint %s is intact, rerun with "
                "--resume to continue\n", stop_signal == SIGINT ? "Ctrl-C" : "SIGTERM", pr.last_epoch, ckpt);
        rc = DLP_EXIT_FAIL;
        goto done;
    }
    if (st) {
        rc = cli_fail(&e);
        goto done;
    }
    if (dlp_encoder_save(enc, out, &e)) {
        rc = cli_save_fail(&e);
        goto done;
    }
    dlp_encoder_info inf;
    dlp_encoder_info_get(enc, &inf);
    printf("pretrained %s encoder: %d layers x %d, %lld parameters\n", dlp_pretrain_method_name(inf.method),
           inf.layers, inf.hidden, (long long)inf.n_params);
    printf("graphs     %lld trained, %lld held out, %lld sources skipped (pack %s)\n", (long long)inf.n_graphs,
           (long long)inf.n_holdout, (long long)dlp_corpus_skipped(c), pack);
    printf("epochs     %d of %d\n", inf.epochs_run, inf.epochs);
    printf("loss       %s final", dlp__hu_sig(inf.final_loss, 6));
    if (!isnan(inf.val_loss)) printf(", %s held out", dlp__hu_sig(inf.val_loss, 6));
    printf(" (%s)\n", inf.method == DLP_PRETRAIN_GAE ? "BCE" : "SCE");
    printf("time       %.1f s\n", inf.train_seconds);
    printf("wrote      %s\n", out);
done:
    dlp_encoder_free(enc);
    dlp_corpus_close(c);
    free(srcbuf);
    free(pack_def);
    free(ckpt_def);
    return rc;
}
