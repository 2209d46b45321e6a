/*
 * cmd_embed.c — `dlperf embed`: graph vectors from a pre-trained encoder
 * (docs/pretrain.md).
 *
 *   dlperf embed MODEL.onnx|G.dlpg --encoder enc.dlpm [--batch N] [--json]
 *       one graph: its vector on one line (or JSON)
 *   dlperf embed --corpus SRC[,SRC...] --encoder enc.dlpm [--tsne map.svg]
 *                [--perplexity P] [--csv vectors.csv] [--pack F] [--max-graphs N]
 *       every corpus graph: a CSV of vectors (stdout unless --csv) and/or a
 *       t-SNE map coloured by family (TraPPM thesis figure 5.4)
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"

int dlp_cmd_embed(int argc, char **argv);

#define MAX_SOURCES 64

static void usage(FILE *f) {
    fprintf(f,
            "usage: dlperf embed MODEL.onnx|G.dlpg --encoder ENC.dlpm [--batch N] [--seq N] [--dim NAME=V]... [--json]\n"
            "       dlperf embed --corpus SRC[,SRC...] --encoder ENC.dlpm [--csv FILE|-] [--tsne MAP.svg]\n"
            "                    [--perplexity P] [--seed N] [--pack FILE.dlpc] [--max-graphs N] [--max-nodes N]\n\n"
            "Graph vectors of a pre-trained encoder (dlperf pretrain; docs/pretrain.md).\n"
            "  --encoder FILE     the encoder .dlpm (required)\n"
            "  --batch N          binds the batch dimension of ONNX files (1)\n"
            "  --json             one graph: {\"model\",\"encoder\",\"dim\",\"vector\"}\n"
            "  --corpus L         sources as for pretrain --unlabeled (files, folders, help-nb201)\n"
            "  --csv FILE         name,family,v0..v{d-1} per graph ('-' or neither option: stdout)\n"
            "  --tsne FILE.svg    t-SNE map of the vectors coloured by family (<= 5000 graphs)\n"
            "  --perplexity P     t-SNE perplexity (30, at most (n-1)/3)   --seed N (0)\n"
            "  --pack FILE.dlpc   converted corpus (default: <encoder>.dlpc, reused when sources match)\n");
}

static void csv_field(FILE *f, const char *s) {
    if (!strpbrk(s, ",\"\n\r")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

static const char *base_name(const char *p) {
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

static int ends_with(const char *s, const char *suf) {
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && !strcmp(s + a - b, suf);
}

static int embed_one(const char *path, const char *enc_path, const dlp_encoder *enc, const cli_graph_flags *gf,
                     int json) {
    dlp_encoder_info inf;
    dlp_encoder_info_get(enc, &inf);
    dlp_error e = {0};
    dlp_features *f = NULL;
    if (ends_with(path, ".dlpg")) {
        if (dlp_features_load(path, &f, &e)) return cli_fail(&e);
        if (f->layout != inf.layout) {
            dlp_features_free(f);
            return cli_failf(DLP_EXIT_BADINPUT, "embed: %s is in the %s layout, encoder %s wants %s", path,
                             dlp_layout_name(f->layout), enc_path, dlp_layout_name(inf.layout));
        }
    } else {
        dlp_load_opts lo;
        cli_graph_opts(gf, &lo);
        if (!lo.batch) lo.batch = 1;
        dlp_graph *g = NULL;
        if (dlp_graph_load(path, &lo, &g, &e)) return cli_fail(&e);
        dlp_status st = dlp_features_build(g, inf.layout, &f, &e);
        dlp_graph_free(g);
        if (st) return cli_fail(&e);
    }
    int d = dlp_encoder_dim(enc);
    float *vec = malloc(sizeof *vec * (size_t)(d > 0 ? d : 1));
    if (!vec) {
        dlp_features_free(f);
        return cli_failf(DLP_EXIT_FAIL, "embed: out of memory");
    }
    dlp_status st = dlp_encoder_embed(enc, f, vec, &e);
    if (st) {
        free(vec);
        dlp_features_free(f);
        return cli_fail(&e);
    }
    if (json) {
        printf("{\"model\":");
        cli_json_str(stdout, f->name[0] ? f->name : path);
        printf(",\"encoder\":");
        cli_json_str(stdout, enc_path);
        printf(",\"dim\":%d,\"vector\":[", d);
        for (int k = 0; k < d; k++) printf("%s%.9g", k ? "," : "", vec[k]);
        printf("]}\n");
    } else {
        for (int k = 0; k < d; k++) printf("%s%.9g", k ? " " : "", vec[k]);
        printf("\n");
    }
    free(vec);
    dlp_features_free(f);
    return DLP_EXIT_OK;
}

static int embed_corpus(const char *corpus, const char *pack, const char *enc_path, const dlp_encoder *enc,
                        dlp_corpus_opts *co, const char *csv, const char *tsne, double perplexity, uint64_t seed) {
    dlp_encoder_info inf;
    dlp_encoder_info_get(enc, &inf);
    char *srcbuf = strdup(corpus);
    const char *srcs[MAX_SOURCES];
    int n_src = srcbuf ? cli_split_list(srcbuf, srcs, MAX_SOURCES) : -1;
    if (n_src < 0) {
        free(srcbuf);
        return cli_failf(DLP_EXIT_BADINPUT, "--corpus '%s': expected a comma list of at most %d sources", corpus,
                         MAX_SOURCES);
    }
    size_t el = strlen(enc_path);
    char *pack_def = malloc(el + 8);
    int rc = DLP_EXIT_OK;
    dlp_corpus *c = NULL;
    float *V = NULL, *Y = NULL;
    const char **labels = NULL;
    char *svg = NULL;
    FILE *out = NULL;
    dlp_error e = {0};
    if (!pack_def) {
        rc = cli_failf(DLP_EXIT_FAIL, "embed: out of memory");
        goto done;
    }
    snprintf(pack_def, el + 8, "%s.dlpc", enc_path);
    co->layout = inf.layout;
    co->warn = cli_warn;
    if (dlp_corpus_pack(srcs, n_src, pack ? pack : pack_def, co, &c, &e)) {
        rc = cli_fail(&e);
        goto done;
    }
    int64_t n = dlp_corpus_count(c);
    int d = dlp_encoder_dim(enc);
    if (tsne && n > 5000) {
        rc = cli_failf(DLP_EXIT_BADINPUT, "embed: --tsne draws at most 5000 graphs, the corpus has %lld "
                       "(use --max-graphs)", (long long)n);
        goto done;
    }
    V = malloc(sizeof *V * (size_t)n * (size_t)d);
    labels = malloc(sizeof *labels * (size_t)n);
    if (!V || !labels) {
        rc = cli_failf(DLP_EXIT_FAIL, "embed: out of memory for %lld vectors", (long long)n);
        goto done;
    }
    for (int64_t i = 0; i < n; i++) {
        dlp_features *f = NULL;
        if (dlp_corpus_read(c, i, &f, &e) || dlp_encoder_embed(enc, f, V + (size_t)i * d, &e)) {
            dlp_features_free(f);
            rc = cli_fail(&e);
            goto done;
        }
        dlp_features_free(f);
        labels[i] = dlp_corpus_family(c, i);
    }
    if (csv || !tsne) {
        int to_stdout = !csv || !strcmp(csv, "-");
        out = to_stdout ? stdout : fopen(csv, "w");
        if (!out) {
            rc = cli_failf(DLP_EXIT_BADINPUT, "embed: %s: cannot create", csv);
            goto done;
        }
        fprintf(out, "name,family");
        for (int k = 0; k < d; k++) fprintf(out, ",v%d", k);
        fprintf(out, "\n");
        for (int64_t i = 0; i < n; i++) {
            csv_field(out, dlp_corpus_name(c, i));
            fputc(',', out);
            csv_field(out, labels[i]);
            for (int k = 0; k < d; k++) fprintf(out, ",%.9g", V[(size_t)i * d + k]);
            fputc('\n', out);
        }
        errno = 0;
        int bad = fflush(out) != 0 || ferror(out);
        if (!to_stdout && fclose(out)) bad = 1;
        out = NULL;
        if (bad) {
            rc = cli_write_error(to_stdout ? "stdout" : csv);
            goto done;
        }
    }
    if (tsne) {
        Y = malloc(sizeof *Y * 2 * (size_t)(n ? n : 1));
        if (!Y) {
            rc = cli_failf(DLP_EXIT_FAIL, "embed: out of memory");
            goto done;
        }
        if (dlp_tsne(V, (int)n, d, perplexity, 0, seed, Y, &e)) {
            rc = cli_fail(&e);
            goto done;
        }
        char title[512];
        snprintf(title, sizeof title, "t-SNE of %s graph embeddings (%s, %lld graphs, dim %d)",
                 dlp_pretrain_method_name(inf.method), base_name(enc_path), (long long)n, d);
        size_t len = 0;
        if (dlp_tsne_svg(Y, (int)n, labels, title, &svg, &len, &e)) {
            rc = cli_fail(&e);
            goto done;
        }
        errno = 0;
        FILE *sf = fopen(tsne, "w");
        int bad = !sf || fwrite(svg, 1, len, sf) != len;
        if (sf && fclose(sf)) bad = 1;
        if (bad) {
            rc = cli_write_error(tsne);
            goto done;
        }
    }
    fprintf(stderr, "embedded %lld graphs (dim %d, %lld sources skipped)%s%s%s%s\n", (long long)n, d,
            (long long)dlp_corpus_skipped(c), csv && strcmp(csv, "-") ? ", wrote " : "",
            csv && strcmp(csv, "-") ? csv : "", tsne ? ", wrote " : "", tsne ? tsne : "");
done:
    free(svg);
    free(Y);
    free(V);
    free(labels);
    dlp_corpus_close(c);
    free(pack_def);
    free(srcbuf);
    return rc;
}

int dlp_cmd_embed(int argc, char **argv) {
    const char *path = NULL, *enc_path = NULL, *corpus = NULL, *pack = NULL, *csv = NULL, *tsne = NULL, *v;
    int json = 0;
    double perplexity = 0;
    int64_t seed = 0;
    cli_graph_flags gf = {0};
    dlp_corpus_opts co;
    memset(&co, 0, sizeof co);
    co.batch = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int r, exit_bad = 0;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        }
        if ((r = cli_graph_flag(argc, argv, &i, &gf)) != 0) {
            if (r < 0) return DLP_EXIT_BADINPUT;
            continue;
        }
#define OPT(name) ((r = cli_opt(argc, argv, &i, name, &v)) > 0 || (r < 0 && (exit_bad = 1) && 0))
        if (OPT("--encoder")) enc_path = v;
        else if (OPT("--corpus")) corpus = v;
        else if (OPT("--pack")) pack = v;
        else if (OPT("--csv")) csv = v;
        else if (OPT("--tsne")) tsne = v;
        else if (OPT("--perplexity")) {
            if (cli_parse_f64("--perplexity", v, 1, 1000, &perplexity)) return DLP_EXIT_BADINPUT;
        } else if (OPT("--seed")) {
            if (cli_parse_i64("--seed", v, 0, INT64_MAX, &seed)) return DLP_EXIT_BADINPUT;
        } else if (OPT("--max-graphs")) {
            if (cli_parse_i64("--max-graphs", v, 0, INT64_MAX, &co.max_graphs)) return DLP_EXIT_BADINPUT;
        } else if (OPT("--max-nodes")) {
            if (cli_parse_i64("--max-nodes", v, 0, INT64_MAX, &co.max_nodes)) return DLP_EXIT_BADINPUT;
        } else if (exit_bad) {
            return DLP_EXIT_BADINPUT;
        } else if (!strcmp(a, "--json")) {
            json = 1;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "dlperf: embed: unknown option '%s' (see dlperf embed --help)\n", a);
            return DLP_EXIT_BADINPUT;
        } else if (!path) {
            path = a;
        } else {
            return cli_failf(DLP_EXIT_BADINPUT, "embed: more than one model given ('%s')", a);
        }
        if (exit_bad) return DLP_EXIT_BADINPUT;
#undef OPT
    }
    if (!enc_path) return cli_usage_error("embed", "--encoder FILE.dlpm is required");
    if (!path && !corpus) return cli_usage_error("embed", "give a model (.onnx or .dlpg) or --corpus SRC");
    if (path && corpus) return cli_failf(DLP_EXIT_BADINPUT, "embed: a model and --corpus are exclusive");
    if (path && (csv || tsne || pack))
        return cli_failf(DLP_EXIT_BADINPUT, "embed: --csv, --tsne and --pack are for --corpus");
    if (corpus && json) return cli_failf(DLP_EXIT_BADINPUT, "embed: --json is for one model (use --csv with --corpus)");
    if (corpus && gf.batch) co.batch = gf.batch;
    if (cli_check_out("embed", "--csv", csv, CLI_OUT_STDOUT) || cli_check_out("embed", "--tsne", tsne, 0))
        return DLP_EXIT_BADINPUT;
    /* the corpus pack is written when absent or stale */
    if (pack && access(pack, F_OK) != 0 && cli_check_out("embed", "--pack", pack, 0)) return DLP_EXIT_BADINPUT;
    dlp_error e = {0};
    dlp_encoder *enc = NULL;
    if (dlp_encoder_load(enc_path, &enc, &e)) return cli_fail(&e);
    int rc = path ? embed_one(path, enc_path, enc, &gf, json)
                  : embed_corpus(corpus, pack, enc_path, enc, &co, csv, tsne, perplexity, (uint64_t)seed);
    dlp_encoder_free(enc);
    return rc;
}
