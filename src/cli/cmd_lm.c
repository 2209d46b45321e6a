/*
 * cmd_lm.c — `dlperf lm`: the language model of the GNN + LM predictor
 * (issue 14, docs/gnnlm.md).
 *
 *   dlperf lm corpus --out text/ [--graphs SRC[,SRC...]] [--shared DIR] [--nas-limit N]
 *   dlperf lm pretrain --corpus text/ --out lm.dlpm [--config tiny|small|1m|5m]
 *                      [--steps N] [--minutes M] [--resume [CKPT]] ...
 *   dlperf lm device-text DEVICE [--precision P] [--runtime R] [--batch N]
 *   dlperf lm convert --hf DIR --out FILE.dlpm [--seed N]
 */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "lm/lm.h"
#include "lm/lmtext.h"

int dlp_cmd_lm(int argc, char **argv);

static void usage(FILE *f) {
    fprintf(f,
            "usage: dlperf lm corpus --out DIR [--graphs SRC[,SRC...]] [--shared DIR] [--nas-limit N] [--holdout COLS]\n"
            "       dlperf lm pretrain --corpus DIR --out FILE.dlpm [options]\n"
            "       dlperf lm device-text DEVICE [--precision P] [--runtime R] [--batch N]\n"
            "       dlperf lm convert --hf DIR --out FILE.dlpm [--seed N]\n\n"
            "The language model of the GNN + LM predictor (docs/gnnlm.md).\n\n"
            "corpus: write the pre-training text into DIR: graphs.txt (the thesis' graph summary of every\n"
            "  ONNX file under --graphs and of every NAS-Bench-201 / FBNet architecture of HELP), devices.txt\n"
            "  (descriptions of the device database's devices and of the HELP, NNLQP and timm settings) and\n"
            "  perf.txt (latency / throughput statements of HELP and the timm benchmarks).\n"
            "  --graphs SRC       ONNX files or folders (recursive), comma-separated\n"
            "  --shared DIR       folder holding data/HELP and data/pytorch-image-models (default\n"
            "                     $DLP_SHARED, else ../shared; 'none': leave them out)\n"
            "  --nas-limit N      first N architectures of each NAS space (0: all)\n"
            "  --holdout COLS     HELP device columns (comma list) whose measurements stay out of\n"
            "                     perf.txt (their device descriptions stay), so an adaptation\n"
            "                     experiment on them is honest (bench/bench_gnnlm.sh)\n\n"
            "pretrain: train the byte-level BPE tokenizer on the corpus, then the model (next-token loss,\n"
            "  AdamW, linear warm-up then cosine to a tenth, gradient clipping 1); every 50th document is\n"
            "  held out and its loss, perplexity and bits per byte are reported at the end.\n"
            "  --corpus DIR       folder of .txt files (documents separated by an empty line)\n"
            "  --out FILE.dlpm    the model with its tokenizer (required)\n"
            "  --config C         tiny, small, 1m (default, 1.07 M parameters) or 5m\n"
            "  --steps N          schedule length in steps (default: what fits in --minutes)\n"
            "  --minutes M        stop after M minutes (a checkpoint is written)\n"
            "  --stop-after N     stop after N steps of this run (a checkpoint is written)\n"
            "  --batch N --seq N  rows per step and tokens per row (config: 8 x 256 for 1m)\n"
            "  --lr X             peak learning rate (tiny/small 3e-3, 1m 2e-3, 5m 1e-3)\n"
            "  --warmup N         warm-up steps (2 %% of the steps)\n"
            "  --checkpoint FILE  (default <out>.ckpt)  --checkpoint-every N steps (200)\n"
            "  --resume           continue from the checkpoint when it exists (same trajectory)\n"
            "  --eval-rows N      held-out rows evaluated (64)   --seed N (0)\n"
            "  --bpe-mb X         text the tokenizer is trained on, MB (2)\n"
            "  --progress P       auto, lines or none (as for pretrain)\n\n"
            "device-text: print the description of a database device in a setting.\n\n"
            "convert: turn a LLaMA-family Hugging Face model folder into our checkpoint (kind \"lm\"), usable\n"
            "  wherever an LM .dlpm is.  DIR holds config.json (model_type llama, mistral or qwen2; no\n"
            "  rope_scaling, no biases), model.safetensors or model.safetensors.index.json + shards (F32,\n"
            "  F16, BF16) and a byte-level BPE tokenizer.json (not SentencePiece's tokenizer.model).  The\n"
            "  tokenizer is rebuilt with our ids and the embedding / lm_head rows permuted to match; what\n"
            "  could not be mapped is counted in the report.  max_seq is capped at 2048.\n"
            "  --hf DIR           the model folder      --out FILE.dlpm  the checkpoint to write\n"
            "  --seed N           initial rows of our specials HF lacks (0)\n");
}

static const char *const lm_subs[] = {"corpus", "pretrain", "device-text", "convert", NULL};

static int is_help(const char *a) { return !strcmp(a, "--help") || !strcmp(a, "-h"); }

static const char *shared_default(void) {
    const char *env = getenv("DLP_SHARED"); /* the CLI may read the environment; the library never does */
    return env && *env ? env : "../shared";
}

static int cmd_corpus(int argc, char **argv) {
    const char *out = NULL, *graphs = NULL, *shared = shared_default(), *v;
    dlp__lm_corpus_opts o;
    memset(&o, 0, sizeof o);
    for (int i = 1; i < argc; i++) {
        int r;
        int64_t iv;
        if (is_help(argv[i])) {
            return cli_sub_help(usage, "lm", "corpus", lm_subs);
        }
        if ((r = cli_opt(argc, argv, &i, "--out", &v))) out = v;
        else if ((r = cli_opt(argc, argv, &i, "--graphs", &v))) graphs = v;
        else if ((r = cli_opt(argc, argv, &i, "--shared", &v))) shared = v;
        else if ((r = cli_opt(argc, argv, &i, "--holdout", &v))) o.holdout = v;
        else if ((r = cli_opt(argc, argv, &i, "--nas-limit", &v))) {
            if (r > 0 && cli_parse_i64("--nas-limit", v, 0, INT64_MAX, &iv)) return DLP_EXIT_BADINPUT;
            if (r > 0) o.nas_limit = iv;
        } else return cli_failf(DLP_EXIT_BADINPUT, "lm corpus: unknown option '%s' (see dlperf lm --help)", argv[i]);
        if (r < 0) return DLP_EXIT_BADINPUT;
    }
    if (!out) return cli_usage_error("lm corpus", "--out DIR is required");
    if (strcmp(shared, "none") != 0) {
        char p[4096];
        snprintf(p, sizeof p, "%s/data/HELP/DERIVED_csv/nasbench201_latency_ms.csv", shared);
        if (access(p, R_OK) != 0)
            return cli_failf(DLP_EXIT_BADINPUT, "lm corpus: %s is not readable (set --shared DIR, DLP_SHARED, or "
                             "--shared none)", p);
        o.shared = shared;
    }
    char *buf = graphs ? strdup(graphs) : NULL;
    const char *srcs[64];
    int n = 0;
    if (graphs && (!buf || (n = cli_split_list(buf, srcs, 64)) < 0)) {
        free(buf);
        return cli_failf(DLP_EXIT_BADINPUT, "lm corpus: --graphs '%s': expected at most 64 sources", graphs);
    }
    for (int i = 0; i < n; i++)
        if (access(srcs[i], R_OK) != 0) {
            int rc = cli_failf(DLP_EXIT_BADINPUT, "lm corpus: --graphs '%s': not readable", srcs[i]);
            free(buf);
            return rc;
        }
    o.graphs = srcs;
    o.n_graphs = n;
    dlp_devdb *db = NULL;
    dlp_error e = {0};
    if (dlp_devdb_load(NULL, &db, &e)) {
        free(buf);
        return cli_fail(&e);
    }
    o.db = db;
    dlp__lm_corpus_report rep;
    dlp_status st = dlp__lm_corpus_build(out, &o, &rep, &e);
    dlp_devdb_free(db);
    free(buf);
    if (st) return cli_fail(&e);
    int64_t td = 0, tb = 0;
    printf("%-12s %10s %12s\n", "file", "documents", "bytes");
    for (int i = 0; i < 3; i++) {
        printf("%-12s %10lld %12lld\n", dlp__lm_corpus_files[i], (long long)rep.docs[i], (long long)rep.bytes[i]);
        td += rep.docs[i];
        tb += rep.bytes[i];
    }
    printf("%-12s %10lld %12lld  (%.2f MB in %s", "total", (long long)td, (long long)tb, tb / 1e6, out);
    if (rep.skipped) printf("; %lld graph files skipped", (long long)rep.skipped);
    printf(")\n");
    return DLP_EXIT_OK;
}

static volatile sig_atomic_t stop_signal;
static void on_signal(int sig) { stop_signal = sig; }

static void note_cb(void *u, const char *msg) {
    if (*(int *)u) fprintf(stderr, "%s\n", msg);
}

static int progress_cb(void *u, int64_t step, int64_t steps, double loss, double lr, double tps, double el) {
    cli_progress *p = u;
    if (cli_progress_due(p)) {
        char tot[32] = "?";
        if (steps > 0) snprintf(tot, sizeof tot, "%lld", (long long)steps);
        cli_progress_line(p, "step %lld/%s  loss %.4f  lr %s  %s tokens/s  %.0f s", (long long)step, tot, loss,
                          dlp__hu_sig(lr, 3), dlp__hu_num(tps), el);
    }
    return stop_signal != 0;
}

static int cmd_pretrain(int argc, char **argv) {
    dlp__lm_pretrain_opts o;
    memset(&o, 0, sizeof o);
    const char *progress = "auto", *v;
    for (int i = 1; i < argc; i++) {
        int r = 0;
        int64_t iv;
        double dv;
        if (is_help(argv[i])) {
            return cli_sub_help(usage, "lm", "pretrain", lm_subs);
        }
#define I64(flag, lo, hi, dst)                                                                                    \
    else if ((r = cli_opt(argc, argv, &i, flag, &v))) {                                                          \
        if (r > 0 && cli_parse_i64(flag, v, lo, hi, &iv)) return DLP_EXIT_BADINPUT;                              \
        if (r > 0) dst = iv;                                                                                      \
    }
        if (!strcmp(argv[i], "--resume")) o.resume = 1;
        else if ((r = cli_opt(argc, argv, &i, "--corpus", &v))) o.corpus = v;
        else if ((r = cli_opt(argc, argv, &i, "--out", &v))) o.out = v;
        else if ((r = cli_opt(argc, argv, &i, "--checkpoint", &v))) o.checkpoint = v;
        else if ((r = cli_opt(argc, argv, &i, "--config", &v))) o.config = v;
        else if ((r = cli_opt(argc, argv, &i, "--progress", &v))) progress = v;
        I64("--steps", 1, INT64_C(1) << 40, o.steps)
        I64("--batch", 1, 4096, o.batch)
        I64("--seq", 2, 8192, o.seq)
        I64("--warmup", 1, INT64_C(1) << 40, o.warmup)
        I64("--checkpoint-every", 1, INT64_C(1) << 40, o.checkpoint_every)
        I64("--eval-rows", 1, INT64_C(1) << 30, o.eval_rows)
        I64("--seed", 0, INT64_MAX, o.seed)
        I64("--stop-after", 1, INT64_C(1) << 40, o.stop_after)
        else if ((r = cli_opt(argc, argv, &i, "--minutes", &v))) {
            if (r > 0 && cli_parse_f64("--minutes", v, 1e-3, 1e6, &o.minutes)) return DLP_EXIT_BADINPUT;
        } else if ((r = cli_opt(argc, argv, &i, "--lr", &v))) {
            if (r > 0 && cli_parse_f64("--lr", v, 1e-9, 1, &o.lr)) return DLP_EXIT_BADINPUT;
        } else if ((r = cli_opt(argc, argv, &i, "--bpe-mb", &v))) {
            if (r > 0 && cli_parse_f64("--bpe-mb", v, 1e-3, 4096, &dv)) return DLP_EXIT_BADINPUT;
            if (r > 0) o.bpe_bytes = (size_t)(dv * 1e6);
        } else return cli_failf(DLP_EXIT_BADINPUT, "lm pretrain: unknown option '%s' (see dlperf lm --help)", argv[i]);
#undef I64
        if (r < 0) return DLP_EXIT_BADINPUT;
    }
    if (!o.corpus) return cli_usage_error("lm pretrain", "--corpus DIR is required");
    if (!o.out) return cli_usage_error("lm pretrain", "--out FILE.dlpm is required");
    if (o.config && strcmp(o.config, "tiny") && strcmp(o.config, "small") && strcmp(o.config, "1m") &&
        strcmp(o.config, "5m"))
        return cli_failf(DLP_EXIT_BADINPUT, "lm pretrain: --config '%s': expected tiny, small, 1m or 5m", o.config);
    if (!o.steps && !(o.minutes > 0) && !o.resume)
        return cli_usage_error("lm pretrain", "give --steps N or --minutes M");
    size_t ol = strlen(o.out);
    char *ck = malloc(ol + 8);
    if (!ck) return cli_failf(DLP_EXIT_FAIL, "out of memory");
    snprintf(ck, ol + 8, "%s.ckpt", o.out);
    if (!o.checkpoint) o.checkpoint = ck;
    if (cli_check_out("lm pretrain", "--out", o.out, 0) || cli_check_out("lm pretrain", "--checkpoint", o.checkpoint, 0)) {
        free(ck);
        return DLP_EXIT_BADINPUT;
    }
    cli_progress p;
    if (cli_progress_init(&p, "lm pretrain", progress)) {
        free(ck);
        return DLP_EXIT_BADINPUT;
    }
    int chatty = p.mode != CLI_PROGRESS_NONE;
    o.progress = progress_cb;
    o.progress_user = &p;
    o.note = note_cb;
    o.note_user = &chatty;
    struct sigaction sa, old_int, old_term;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    dlp__lm_pretrain_report rep;
    dlp_error e = {0};
    dlp_status st = dlp__lm_pretrain(&o, &rep, &e);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    cli_progress_end(&p);
    int rc = DLP_EXIT_OK;
    if (st) {
        rc = cli_fail(&e);
    } else {
        printf("model      %s: %.2f M parameters, vocabulary %lld\n", o.config ? o.config : "1m", rep.params / 1e6,
               (long long)rep.vocab);
        printf("corpus     %lld documents (%lld held out), %lld training tokens\n", (long long)rep.docs,
               (long long)rep.heldout_docs, (long long)rep.train_tokens);
        printf("steps      %lld of %lld%s\n", (long long)rep.steps_done, (long long)rep.steps,
               rep.stopped ? " (stopped early; --resume continues)" : "");
        printf("train      loss %.4f (mean of the last steps), %lld tokens in %.1f s = %.0f tokens/s\n",
               rep.train_loss, (long long)rep.tokens_seen, rep.seconds, rep.tokens_per_s);
        if (!isnan(rep.heldout_loss))
            printf("held out   loss %.4f, perplexity %.2f, %.3f bits per byte (%lld tokens)\n", rep.heldout_loss,
                   rep.heldout_ppl, rep.heldout_bpb, (long long)rep.heldout_tokens);
        printf("wrote      %s (checkpoint %s)\n", o.out, o.checkpoint);
        if (stop_signal) rc = DLP_EXIT_FAIL;
    }
    free(ck);
    return rc;
}

static int cmd_device_text(int argc, char **argv) {
    const char *dev = NULL, *prec = NULL, *rt = NULL, *v;
    int64_t batch = 0;
    for (int i = 1; i < argc; i++) {
        int r = 0;
        if (is_help(argv[i])) {
            return cli_sub_help(usage, "lm", "device-text", lm_subs);
        }
        if ((r = cli_opt(argc, argv, &i, "--precision", &v))) prec = v;
        else if ((r = cli_opt(argc, argv, &i, "--runtime", &v))) rt = v;
        else if ((r = cli_opt(argc, argv, &i, "--batch", &v))) {
            if (r > 0 && cli_parse_i64("--batch", v, 1, INT64_C(1) << 30, &batch)) return DLP_EXIT_BADINPUT;
        } else if (argv[i][0] == '-') return cli_failf(DLP_EXIT_BADINPUT, "lm device-text: unknown option '%s'", argv[i]);
        else if (!dev) dev = argv[i];
        else return cli_failf(DLP_EXIT_BADINPUT, "lm device-text: more than one device ('%s')", argv[i]);
        if (r < 0) return DLP_EXIT_BADINPUT;
    }
    if (!dev) return cli_usage_error("lm device-text", "no device given");
    dlp_devdb *db;
    dlp_error e = {0};
    if (dlp_devdb_load(NULL, &db, &e)) return cli_fail(&e);
    const dlp_device *d = dlp_devdb_find(db, dev);
    if (!d) {
        int rc = cli_unknown_device(db, dev);
        dlp_devdb_free(db);
        return rc;
    }
    dlp__sb b = {0};
    dlp__lm_device_text(d, NULL, prec, rt, batch, &b);
    if (b.s) fputs(b.s, stdout);
    dlp__sb_free(&b);
    dlp_devdb_free(db);
    return DLP_EXIT_OK;
}

static int cmd_convert(int argc, char **argv) {
    const char *dir = NULL, *out = NULL, *v;
    int64_t seed = 0;
    for (int i = 1; i < argc; i++) {
        int r = 0;
        if (is_help(argv[i])) {
            return cli_sub_help(usage, "lm", "convert", lm_subs);
        }
        if ((r = cli_opt(argc, argv, &i, "--hf", &v))) dir = v;
        else if ((r = cli_opt(argc, argv, &i, "--out", &v))) out = v;
        else if ((r = cli_opt(argc, argv, &i, "--seed", &v))) {
            if (r > 0 && cli_parse_i64("--seed", v, 0, INT64_MAX, &seed)) return DLP_EXIT_BADINPUT;
        } else return cli_failf(DLP_EXIT_BADINPUT, "lm convert: unknown option '%s' (see dlperf lm --help)", argv[i]);
        if (r < 0) return DLP_EXIT_BADINPUT;
    }
    if (!dir) return cli_usage_error("lm convert", "give --hf DIR");
    if (!out) return cli_usage_error("lm convert", "give --out FILE.dlpm");
    if (cli_check_out("lm convert", "--out", out, 0)) return DLP_EXIT_BADINPUT;
    dlp__lm m;
    dlp__bpe tok;
    dlp__lm_hf_info in;
    dlp_error e = {0};
    if (dlp__lm_load_hf_ex(dir, NULL, (uint64_t)seed, &m, &tok, &in, &e)) return cli_fail(&e);
    dlp_status st = dlp__lm_save(&m, &tok, NULL, out, &e);
    if (st == DLP_OK) {
        const dlp__lm_config *c = &m.c;
        int mapped_sp = 0;
        for (int i = 256; i < DLP__BPE_FIRST_MERGE; i++) mapped_sp += in.our2hf[i] >= 0;
        printf("model      %s: %d layers, dim %d, heads %d/%d, ffn %d, max_seq %d%s, %s head; %.3f M "
               "parameters\n", in.model_type, c->n_layers, c->dim, c->n_heads, c->n_kv_heads, c->ffn,
               c->max_seq, in.window && in.window == c->max_seq ? " (sliding window)" : "",
               c->untied_head ? "untied" : "tied", m.ps.total / 1e6);
        printf("weights    %d safetensors file%s; %d HF vocabulary rows -> our %d\n", in.n_files,
               in.n_files == 1 ? "" : "s", in.hf_vocab, c->vocab);
        printf("tokenizer  %d merges of %d kept (skipped: %d with a part no merge makes, %d whose result "
               "is not a token, %d repeated pairs; kept: %d making a string again)\n", in.merges_kept,
               in.hf_merges, in.merges_unreachable, in.merges_not_in_vocab, in.merges_duplicate,
               in.merges_same_string);
        printf("dropped    %d of %d vocabulary tokens no merge reaches, %d of %d added tokens; %d byte "
               "tokens missing; %d of our 6 specials from config's bos/eos/pad ids, the rest new rows\n",
               in.tokens_dropped, in.hf_tokens, in.added_dropped, in.added_tokens, in.bytes_missing,
               mapped_sp);
        if (in.ignore_merges || in.normalizer)
            printf("note       tokenizer.json%s%s: our encoder does not do this, so some encodings may "
                   "differ (decoding is exact)\n", in.ignore_merges ? " has ignore_merges" : "",
                   in.normalizer ? (in.ignore_merges ? " and a normalizer" : " has a normalizer") : "");
        printf("wrote      %s\n", out);
    }
    free(in.our2hf);
    dlp__bpe_free(&tok);
    dlp__lm_free(&m);
    return st ? cli_fail(&e) : DLP_EXIT_OK;
}

int dlp_cmd_lm(int argc, char **argv) {
    if (argc < 2 || is_help(argv[1])) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? DLP_EXIT_BADINPUT : 0;
    }
    if (!strcmp(argv[1], "corpus")) return cmd_corpus(argc - 1, argv + 1);
    if (!strcmp(argv[1], "pretrain")) return cmd_pretrain(argc - 1, argv + 1);
    if (!strcmp(argv[1], "device-text")) return cmd_device_text(argc - 1, argv + 1);
    if (!strcmp(argv[1], "convert")) return cmd_convert(argc - 1, argv + 1);
    return cli_failf(DLP_EXIT_BADINPUT, "lm: unknown subcommand '%s' (corpus, pretrain, device-text, convert)",
                     argv[1]);
}
