/*
 * gnn_cli.c — selection and split flags of the GNN commands (gnn_cli.h).
 *
 * Protocols (docs/gnn.md, "Splits"):
 *   random[:TRAIN:VAL]  DIPPM's random 70/15/15 over the selected samples
 *   family-mc[:TRAIN]   TraPPM's per-family 70/30 (seeds 1337..1341)
 *   kfold[:K]           stratified on the first target, --fold I is the test
 *   lofo:FAMILY         leave one family out
 *   none                every selected sample trains (no val, no test)
 * --train-limit / --val-limit keep a seeded random subset of the train /
 * validation part (HELP-style "only 1,000 training graphs").
 */
#include "cli/gnn_cli.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"

const char gnn_sel_help[] =
    "selection and split:\n"
    "  --device COL[,COL]   only samples of these device settings (default all)\n"
    "  --family F[,F]       only samples of these families\n"
    "  --split S            random[:TRAIN:VAL] (DIPPM 70/15/15, default), family-mc[:TRAIN]\n"
    "                       (per family 70/30, TraPPM), kfold[:K] (stratified, default 5),\n"
    "                       lofo:FAMILY (leave one family out), none (all samples train)\n"
    "  --split-seed N       split seed (random/kfold: 1, family-mc: 1337)\n"
    "  --split-by B         random splits: sample (default) or name (the architectures are parted,\n"
    "                       each with all its devices, the same whichever --device is chosen)\n"
    "  --fold I             kfold: the test fold, 0..K-1 (default 0)\n"
    "  --train-limit N      keep only N training samples (a seeded random subset)\n"
    "  --val-limit N        keep only N validation samples\n";

void gnn_sel_init(gnn_sel *s) {
    memset(s, 0, sizeof *s);
    s->kind = GSPLIT_RANDOM;
    s->train_frac = 0.70;
    s->val_frac = 0.15;
    s->k = 5;
    s->seed = 1;
}

static int parse_split(const char *v, gnn_sel *s) {
    char buf[200];
    snprintf(buf, sizeof buf, "%s", v);
    char *a = strchr(buf, ':'), *b = NULL;
    if (a) {
        *a++ = 0;
        if ((b = strchr(a, ':'))) *b++ = 0;
    }
    double x;
    int64_t k;
    if (!strcmp(buf, "random")) {
        s->kind = GSPLIT_RANDOM;
        s->train_frac = 0.70;
        s->val_frac = 0.15;
        if (a && cli_parse_f64("--split random:TRAIN", a, 0, 1, &s->train_frac)) return -1;
        if (b && cli_parse_f64("--split random:TRAIN:VAL", b, 0, 1, &s->val_frac)) return -1;
        if (s->train_frac + s->val_frac > 1 + 1e-9) {
            fprintf(stderr, "dlperf: --split random: fractions %g + %g exceed 1\n", s->train_frac, s->val_frac);
            return -1;
        }
        return 0;
    }
    if (!strcmp(buf, "family-mc")) {
        s->kind = GSPLIT_FAMILY_MC;
        s->train_frac = 0.70;
        s->val_frac = 0;
        if (a && cli_parse_f64("--split family-mc:TRAIN", a, 0, 1, &x)) return -1;
        if (a) s->train_frac = x;
        if (!s->seed_given) s->seed = GNN_MC_SEED0;
        return b ? -1 : 0;
    }
    if (!strcmp(buf, "kfold")) {
        s->kind = GSPLIT_KFOLD;
        s->k = 5;
        if (a && cli_parse_i64("--split kfold:K", a, 2, 1000, &k)) return -1;
        if (a) s->k = (int)k;
        return b ? -1 : 0;
    }
    if (!strcmp(buf, "lofo")) {
        if (!a || !*a) {
            fprintf(stderr, "dlperf: --split lofo needs a family: lofo:FAMILY\n");
            return -1;
        }
        s->kind = GSPLIT_LOFO;
        snprintf(s->lofo, sizeof s->lofo, "%s%s%s", a, b ? ":" : "", b ? b : "");
        return 0;
    }
    if (!strcmp(buf, "none") || !strcmp(buf, "all")) {
        s->kind = GSPLIT_NONE;
        return 0;
    }
    if (!strcmp(buf, "model")) {
        s->kind = GSPLIT_MODEL;
        return 0;
    }
    fprintf(stderr, "dlperf: --split '%s': expected random, family-mc, kfold, lofo:FAMILY, none or model\n", v);
    return -1;
}

int gnn_sel_flag(int argc, char **argv, int *i, gnn_sel *s) {
    const char *v;
    int r;
    if ((r = cli_opt(argc, argv, i, "--split", &v)) != 0) return r < 0 ? -1 : parse_split(v, s) ? -1 : 1;
    if ((r = cli_opt(argc, argv, i, "--split-seed", &v)) != 0) {
        if (r < 0 || cli_parse_i64("--split-seed", v, 0, INT64_MAX, &s->seed)) return -1;
        s->seed_given = 1;
        return 1;
    }
    if ((r = cli_opt(argc, argv, i, "--split-by", &v)) != 0) {
        if (r < 0) return -1;
        if (strcmp(v, "name") && strcmp(v, "sample")) {
            fprintf(stderr, "dlperf: --split-by '%s': expected sample or name\n", v);
            return -1;
        }
        s->by_name = !strcmp(v, "name");
        return 1;
    }
    if ((r = cli_opt(argc, argv, i, "--fold", &v)) != 0) {
        int64_t f;
        if (r < 0 || cli_parse_i64("--fold", v, 0, 999, &f)) return -1;
        s->fold = (int)f;
        s->fold_given = 1;
        return 1;
    }
    if ((r = cli_opt(argc, argv, i, "--device", &v)) != 0) {
        if (r < 0) return -1;
        snprintf(s->device, sizeof s->device, "%s", v);
        return 1;
    }
    if ((r = cli_opt(argc, argv, i, "--family", &v)) != 0) {
        if (r < 0) return -1;
        snprintf(s->family, sizeof s->family, "%s", v);
        return 1;
    }
    if ((r = cli_opt(argc, argv, i, "--train-limit", &v)) != 0)
        return r < 0 || cli_parse_i64("--train-limit", v, 1, INT32_MAX, &s->train_limit) ? -1 : 1;
    if ((r = cli_opt(argc, argv, i, "--val-limit", &v)) != 0)
        return r < 0 || cli_parse_i64("--val-limit", v, 0, INT32_MAX, &s->val_limit) ? -1 : 1;
    return 0;
}

int gnn_parse_flags(int argc, char **argv, const gnn_flag_spec *spec, gnn_sel *sel, int *help) {
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            spec->usage(stdout);
            *help = 1;
            return 0;
        }
        int r = gnn_sel_flag(argc, argv, &i, sel);
        if (!r) r = cli_flags(argc, argv, &i, spec->flags, spec->n_flags);
        if (!r && spec->more) r = spec->more(argc, argv, &i, spec->user);
        if (r < 0) return DLP_EXIT_BADINPUT;
        if (!r) return cli_usage_error(spec->cmd, "unknown option '%s'", argv[i]);
    }
    return 0;
}

void gnn_sel_describe(const gnn_sel *s, int64_t seed, char *buf, size_t n) {
    int w = 0;
    switch (s->kind) {
    case GSPLIT_RANDOM:
        w = snprintf(buf, n, "--split random:%g:%g --split-seed %lld%s", s->train_frac, s->val_frac, (long long)seed,
                     s->by_name ? " --split-by name" : "");
        break;
    case GSPLIT_FAMILY_MC:
        w = snprintf(buf, n, "--split family-mc:%g --split-seed %lld", s->train_frac, (long long)seed);
        break;
    case GSPLIT_KFOLD:
        w = snprintf(buf, n, "--split kfold:%d --fold %d --split-seed %lld", s->k, s->fold, (long long)seed);
        break;
    case GSPLIT_LOFO: w = snprintf(buf, n, "--split lofo:%s", s->lofo); break;
    default: w = snprintf(buf, n, "--split none"); break;
    }
    if (w < 0 || (size_t)w >= n) return;
    if (s->device[0]) w += snprintf(buf + w, n - (size_t)w, " --device %s", s->device);
    if ((size_t)w < n && s->family[0]) w += snprintf(buf + w, n - (size_t)w, " --family %s", s->family);
    if ((size_t)w < n && s->train_limit) w += snprintf(buf + w, n - (size_t)w, " --train-limit %lld", (long long)s->train_limit);
    if ((size_t)w < n && s->val_limit) snprintf(buf + w, n - (size_t)w, " --val-limit %lld", (long long)s->val_limit);
}

int gnn_sel_parse(const char *text, gnn_sel *s) {
    char buf[1024], *argv[32];
    snprintf(buf, sizeof buf, "%s", text ? text : "");
    int argc = 0;
    for (char *t = strtok(buf, " "); t && argc < 31; t = strtok(NULL, " ")) argv[argc++] = t;
    argv[argc] = NULL;
    gnn_sel_init(s);
    if (!argc) return -1;
    for (int i = 0; i < argc; i++)
        if (gnn_sel_flag(argc, argv, &i, s) != 1) return -1;
    return 0;
}

int gnn_split_list(char *s, char **items, int max) {
    int n = 0;
    for (char *t = strtok(s, ","); t && n < max; t = strtok(NULL, ",")) items[n++] = t;
    return n;
}

/* The selection and split of s as the library's spec (strings point into s). */
static dlp_split_spec spec_of(const gnn_sel *s) {
    static const dlp_split_kind kinds[] = {
        [GSPLIT_RANDOM] = DLP_SPLIT_RANDOM, [GSPLIT_FAMILY_MC] = DLP_SPLIT_FAMILY_MC, [GSPLIT_KFOLD] = DLP_SPLIT_KFOLD,
        [GSPLIT_LOFO] = DLP_SPLIT_LOFO,     [GSPLIT_NONE] = DLP_SPLIT_NONE,           [GSPLIT_MODEL] = DLP_SPLIT_MODEL};
    dlp_split_spec d = {.kind = kinds[s->kind], .train_frac = s->train_frac, .val_frac = s->val_frac, .k = s->k,
                        .fold = s->fold, .lofo = s->lofo, .devices = s->device, .families = s->family,
                        .train_limit = s->train_limit, .val_limit = s->val_limit, .by_name = s->by_name};
    return d;
}

int gnn_sel_filter(const dlp_dataset *ds, const gnn_sel *s, int *idx, int *n) {
    dlp_error e = {0};
    return dlp_dataset_select(ds, s->device, s->family, idx, n, &e) ? cli_fail(&e) : 0;
}

int gnn_sel_apply(const dlp_dataset *ds, const gnn_sel *s, int64_t seed, gnn_parts *p) {
    dlp_error e = {0};
    dlp_split_spec d = spec_of(s);
    return dlp_dataset_split(ds, &d, (uint64_t)seed, p, &e) ? cli_fail(&e) : 0;
}

int gnn_parse_static(const char *s, int *idx, int *n) {
    if (!strcmp(s, "none")) {
        *n = -1;
        return 0;
    }
    if (!strcmp(s, "dippm")) s = "macs,batch,n_conv,n_dense,n_relu";
    else if (!strcmp(s, "trappm")) s = "batch,nodes,edges,macs,params,memory_bytes";
    char buf[512], *items[DLP_SF_COUNT + 1];
    snprintf(buf, sizeof buf, "%s", s);
    int m = gnn_split_list(buf, items, DLP_SF_COUNT + 1);
    if (m < 1 || m > DLP_SF_COUNT) {
        fprintf(stderr, "dlperf: --static-features: 1 to %d names\n", DLP_SF_COUNT);
        return -1;
    }
    for (int j = 0; j < m; j++) {
        idx[j] = dlp_static_parse(items[j]);
        if (idx[j] < 0) {
            fprintf(stderr, "dlperf: --static-features: unknown feature '%s' (known:", items[j]);
            for (int k = 0; k < DLP_SF_COUNT; k++) fprintf(stderr, " %s", dlp_static_name(k));
            fprintf(stderr, "; or dippm, trappm, none)\n");
            return -1;
        }
    }
    *n = m;
    return 0;
}

/* ---- predictions and reports ------------------------------------------------ */

int gnn_preds_add(gnn_preds *p, const dlp_gnn *m, const dlp_dataset *ds, const int *idx, int n) {
    dlp_error e = {0};
    return dlp_eval_preds_add(p, m, ds, idx, n, &e) ? cli_fail(&e) : 0;
}

/* Write a report: "-" is stdout; files go through a temporary name and a
 * rename so a reader never sees half a report. */
static int write_buf(const char *path, const char *buf, size_t len) {
    if (!strcmp(path, "-"))
        return fwrite(buf, 1, len, stdout) == len && fflush(stdout) == 0 ? 0 : cli_write_error("stdout");
    char tmp[1100];
    snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    int ok = f && fwrite(buf, 1, len, f) == len;
    if (f && fclose(f) != 0) ok = 0;
    if (!ok || rename(tmp, path) != 0) {
        int e = errno;
        remove(tmp);
        errno = e;
        return cli_write_error(path);
    }
    return 0;
}

int gnn_preds_write(const gnn_preds *p, const gnn_report_paths *rp) {
    const char *tn[16];
    for (int k = 0; k < p->T; k++) tn[k] = p->tnames[k];
    char svgname[1024] = "";
    /* the Markdown links the first target's plot by its base name */
    if (rp->svg) {
        const char *slash = strrchr(rp->svg, '/');
        snprintf(svgname, sizeof svgname, "%s", slash ? slash + 1 : rp->svg);
    }
    dlp_eval_input in = {rp->title, rp->command, rp->notes, p->T, tn, p->n, p->y, p->yhat,
                         p->fam, p->dev, rp->svg ? svgname : NULL};
    dlp_error e = {0};
    char *b;
    size_t len;
    int rc = 0;
    if (rp->md && !rc) {
        if (dlp_eval_report_md(&in, &b, &len, &e) != DLP_OK) return cli_fail(&e);
        rc = write_buf(rp->md, b, len);
        free(b);
    }
    if (rp->json && !rc) {
        if (dlp_eval_report_json(&in, &b, &len, &e) != DLP_OK) return cli_fail(&e);
        rc = write_buf(rp->json, b, len);
        free(b);
    }
    for (int k = 0; rp->svg && k < p->T && !rc; k++) {
        char path[1100];
        if (k == 0) {
            snprintf(path, sizeof path, "%s", rp->svg);
        } else {
            /* other targets: <base>_<target>.svg */
            const char *dot = strrchr(rp->svg, '.');
            int stem = dot && dot > strrchr(rp->svg, '/') ? (int)(dot - rp->svg) : (int)strlen(rp->svg);
            snprintf(path, sizeof path, "%.*s_%s.svg", stem, rp->svg, p->tnames[k]);
        }
        if (dlp_eval_parity_svg(&in, k, &b, &len, &e) != DLP_OK) return cli_fail(&e);
        rc = write_buf(path, b, len);
        free(b);
    }
    return rc;
}

void gnn_command_line(int argc, char **argv, char *buf, size_t n) {
    size_t w = 0;
    buf[0] = 0;
    w += (size_t)snprintf(buf, n, "dlperf");
    for (int i = 0; i < argc && w < n; i++) {
        int quote = strpbrk(argv[i], " |'\"$") != NULL;
        w += (size_t)snprintf(buf + w, n - w, quote ? " '%s'" : " %s", argv[i]);
    }
}

void gnn_opts_from_info(const dlp_gnn *m, dlp_gnn_opts *o, const char **targets, int *static_idx) {
    dlp_gnn_info i;
    dlp_gnn_info_get(m, &i);
    memset(o, 0, sizeof *o);
    o->arch = i.arch;
    o->hidden = i.hidden;
    o->layers = i.layers;
    o->block_depth = i.block_depth;
    o->fc_layers = i.fc_layers ? i.fc_layers : -1;
    o->dropout = i.dropout > 0 ? i.dropout : -1;
    o->readout = i.readout;
    o->gat_heads = i.gat_heads;
    o->sage_normalize = i.sage_normalize;
    o->lr = i.lr;
    o->weight_decay = i.weight_decay;
    o->adamw = i.adamw;
    o->lr_schedule = i.lr_schedule;
    o->clip = i.clip;
    o->batch_size = i.batch_size;
    o->epochs = i.epochs;
    o->loss = i.loss;
    o->huber_delta = i.huber_delta;
    o->target_scale = i.target_scale;
    o->seed = i.seed;
    o->n_targets = i.n_targets;
    for (int k = 0; k < i.n_targets; k++) targets[k] = dlp_gnn_target_at(m, k);
    o->targets = targets;
    o->n_static = i.n_static ? i.n_static : -1;
    memcpy(static_idx, i.static_features, sizeof(int) * (size_t)(i.n_static > 0 ? i.n_static : 0));
    o->static_features = static_idx;
}

int gnn_check_report_outs(const char *cmd, const char *report, const char *json_flag, const char *json,
                          const char *svg) {
    if (cli_check_out(cmd, json_flag, json, 0) || cli_check_out(cmd, "--svg", svg, 0)) return DLP_EXIT_BADINPUT;
    if (!report) return 0;
    if (cli_check_out(cmd, "--report", report, 0)) return DLP_EXIT_BADINPUT;
    size_t L = strlen(report);
    int stem = L > 3 && !strcmp(report + L - 3, ".md") ? (int)L - 3 : (int)L;
    char p[4200];
    snprintf(p, sizeof p, "%.*s.json", stem, report);
    if (!json && cli_check_out(cmd, "--report (its .json)", p, 0)) return DLP_EXIT_BADINPUT;
    snprintf(p, sizeof p, "%.*s.svg", stem, report);
    if (!svg && cli_check_out(cmd, "--report (its .svg)", p, 0)) return DLP_EXIT_BADINPUT;
    return 0;
}

void gnn_report_beside(const char *report, gnn_report_paths *rp, gnn_report_names *buf) {
    size_t L = strlen(report);
    int stem = L > 3 && !strcmp(report + L - 3, ".md") ? (int)L - 3 : (int)L;
    snprintf(buf->md, sizeof buf->md, "%s", report);
    rp->md = buf->md;
    /* "-" is the Markdown on stdout: nothing has a name to sit beside, so the
     * JSON and the plot are written only where --json / --svg name them (not
     * as "-.json" and "-.svg" in the working directory) */
    if (!strcmp(report, "-")) return;
    if (!rp->json) {
        snprintf(buf->json, sizeof buf->json, "%.*s.json", stem, report);
        rp->json = buf->json;
    }
    if (!rp->svg) {
        snprintf(buf->svg, sizeof buf->svg, "%.*s.svg", stem, report);
        rp->svg = buf->svg;
    }
}
