/*
 * bench_trappm.c — the chapter-5 (TraPPM) protocol of the thesis on dlperf's
 * own CPU measurements (data/cpu/runs.sqlite), driven by bench_trappm.sh:
 *
 *   main      tables 5.2-5.4: TraPPM (SAGE + frozen GAE embedding), NNLQP
 *             (the same GNN without the encoder), an MLP on the six static
 *             features and XGBoost on them; per-family 70/30 splits, seeds
 *             1337.., per family and overall, step_ms and memory_mb of the
 *             training set and latency_ms of the inference set;
 *   curve     figure 5.5: per-epoch training loss (seed 1337, step_ms), SVG;
 *   ablation  §5.5.9: pre-trained vs randomly initialised frozen encoder;
 *   transfer  §5.6.2 / table 5.5: inference -> training mode with 32 labels;
 *   pays      no pre-training vs GAE vs GraphMAE at 100 / 30 / 10 % labels;
 *   help      the same on HELP's NAS-Bench-201 latencies (one device).
 *
 * Trainings run as forked children (--jobs at once, one BLAS thread each);
 * every one is seeded, so the numbers do not depend on --jobs.  The Markdown
 * report is rewritten atomically after every section (a killed run keeps
 * what it finished).  Never fails: what cannot run is reported and skipped.
 *
 * Built by bench_trappm.sh with -DBENCH_NO_PRETRAIN when the library has no
 * encoder/corpus yet and -DBENCH_NO_CURVE without dlp_gnn_loss_curve.
 */
#include <cblas.h>
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "dlperf.h"

#ifdef BENCH_NO_PRETRAIN
#define HAVE_PRETRAIN 0
#else
#define HAVE_PRETRAIN 1
#endif
#ifdef BENCH_NO_CURVE
#define HAVE_CURVE 0
#else
#define HAVE_CURVE 1
#endif

/* parts only the pre-training build calls */
#define MAYBE_UNUSED __attribute__((unused))

#define MAXF 64      /* families per dataset                       */
#define MAXEP 512    /* curve points kept per training              */
#define MAXSEEDS 8

static double cpu_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---------------------------------------------------------------- recipe */

typedef struct {
    const char *mode;            /* "quick", "default", "full"               */
    int hidden, epochs, batch, jobs;
    double lr, dropout;
    int scale, readout;
    int enc_hidden, enc_layers, enc_epochs, enc_batch;
    int64_t corpus_max, corpus_max_nodes;
    int seeds, abl_seeds, tr_seeds, pays_seeds;
    int ft_n, ft_epochs;
    int xgb_grid;                /* 0 tiny, 1 default, 2 full                */
    int64_t help_corpus_max;
    int help_cells;
    const char *help_device;
    const char *train_path, *infer_path, *unlabeled, *help_data, *work, *out_md, *out_svg;
    const char *command, *sections;
    double noise_step, noise_lat, noise_mem_train, noise_mem_infer;
} recipe_t;

static recipe_t R;

static int section_on(const char *name) {
    if (!R.sections || !strcmp(R.sections, "all")) return 1;
    size_t l = strlen(name);
    for (const char *p = R.sections; (p = strstr(p, name)); p += l)
        if ((p == R.sections || p[-1] == ',') && (p[l] == 0 || p[l] == ',')) return 1;
    return 0;
}

/* ---------------------------------------------------------- string buffer */

typedef struct {
    char *s;
    size_t n, cap;
} sb_t;

static void sbf(sb_t *b, const char *fmt, ...) {
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        size_t room = b->cap - b->n;
        int w = vsnprintf(b->s ? b->s + b->n : NULL, b->s ? room : 0, fmt, ap);
        va_end(ap);
        if (w < 0) return;
        if (b->s && (size_t)w < room) {
            b->n += (size_t)w;
            return;
        }
        size_t nc = (b->cap ? b->cap * 2 : 8192) + (size_t)w + 1;
        char *t = realloc(b->s, nc);
        if (!t) return;
        b->s = t;
        b->cap = nc;
    }
}

static int write_atomic(const char *path, const char *buf, size_t len) {
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp.%d", path, (int)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f) return -1;
    size_t w = fwrite(buf, 1, len, f);
    if (fclose(f) != 0 || w != len || rename(tmp, path) != 0) {
        remove(tmp);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ data */

typedef struct {
    const char *label;           /* "training set", ...                      */
    dlp_dataset *ds;
    int n, nf;
    int *fid;                    /* family id per sample                      */
    const char **fam;            /* family string per sample                  */
    char *fname[MAXF];
} dsinfo_t;

enum { D_TRAIN, D_INFER, D_HELP, D_COUNT };
static dsinfo_t DS[D_COUNT];

enum { T_STEP, T_MEM, T_LAT, T_MEM_INFER, T_HELP, T_COUNT };
static const struct {
    int d;
    const char *target, *label, *unit;
} TASK[T_COUNT] = {
    {D_TRAIN, "step_ms", "step time", "ms"},
    {D_TRAIN, "memory_mb", "memory (training)", "MB"},
    {D_INFER, "latency_ms", "latency (inference)", "ms"},
    {D_INFER, "memory_mb", "memory (inference)", "MB"},
    {D_HELP, "latency_ms", "NB201 latency", "ms"},
};

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int load_ds(int d, const char *path, const char *label) {
    dsinfo_t *di = &DS[d];
    dlp_error e = {0};
    di->label = label;
    if (!path || dlp_dataset_load(path, &di->ds, &e) != DLP_OK) {
        printf("bench_trappm: %s: %s\n", path ? path : "(none)", path ? e.msg : "no file given");
        di->ds = NULL;
        return -1;
    }
    di->n = dlp_dataset_count(di->ds);
    di->fid = calloc((size_t)di->n, sizeof *di->fid);
    di->fam = calloc((size_t)di->n, sizeof *di->fam);
    for (int i = 0; i < di->n; i++) {
        dlp_dataset_sample s;
        s = *dlp_dataset_at(di->ds, i);
        di->fam[i] = s.family;
        int k;
        for (k = 0; k < di->nf && strcmp(di->fname[k], s.family); k++) {}
        if (k == di->nf && di->nf < MAXF) di->fname[di->nf++] = strdup(s.family);
    }
    qsort(di->fname, (size_t)di->nf, sizeof *di->fname, cmp_str);
    for (int i = 0; i < di->n; i++) {
        di->fid[i] = 0;
        for (int k = 0; k < di->nf; k++)
            if (!strcmp(di->fname[k], di->fam[i])) di->fid[i] = k;
    }
    return 0;
}

/* ------------------------------------------------------------------- rng */

static uint64_t splitmix(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static void shuffle(int *a, int n, uint64_t seed) {
    uint64_t s = seed;
    for (int i = n - 1; i > 0; i--) {
        int j = (int)(splitmix(&s) % (uint64_t)(i + 1));
        int t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

/* --------------------------------------------------------------- models */

enum { M_TRAPPM, M_NNLQP, M_MLP, M_GBOOST, M_COUNT };
static const char *const MNAME[M_COUNT] = {"TraPPM", "NNLQP", "MLP", "GBoost"};

/* encoder slots */
enum { E_GAE, E_GMAE, E_RAND, E_HELP_GAE, E_HELP_GMAE, E_COUNT };
static dlp_encoder *ENC[E_COUNT];
static char ENC_WHY[E_COUNT][600];
static double ENC_SECS[E_COUNT];
MAYBE_UNUSED static int ENC_CACHED[E_COUNT];
static const char *const ENC_LABEL[E_COUNT] = {"GAE", "GraphMAE", "random (untrained)", "GAE (NB201)",
                                               "GraphMAE (NB201)"};

/* corpora */
enum { C_CPU, C_HELP, C_COUNT };
static dlp_corpus *CORP[C_COUNT];
static char CORP_WHY[C_COUNT][512];

/* transfer source models */
enum { S_LAT, S_MEM, S_COUNT };
static dlp_gnn *SRC[S_COUNT];
static char SRC_WHY[S_COUNT][600];

static const int SIX[6] = {DLP_SF_BATCH, DLP_SF_NODES, DLP_SF_EDGES, DLP_SF_MACS, DLP_SF_PARAMS, DLP_SF_MEMORY};

/* ---------------------------------------------------------------- jobs */

enum { J_EVAL, J_PRETRAIN, J_SOURCE };
typedef struct {
    int kind, task, model, enc;
    uint64_t seed;
    double frac;                 /* share of the training part used           */
    int init;                    /* transfer source slot, -1 none             */
    int ft_n;                    /* > 0: ft_n random labelled samples, test on the rest */
    int epochs;
    int method, corpus;          /* pretrain                                  */
    char path[1024];             /* pretrain / source: file written           */
    char tag[96];                /* for the log                               */
} job_t;

typedef struct {
    int ok;
    char why[600];
    dlp_metrics all;
    float fam_mape[MAXF], fam_rmse[MAXF];
    int fam_n[MAXF];
    int n_train, n_test;
    double secs, cpu;            /* wall and CPU seconds of the job           */
    int n_curve;
    float curve[MAXEP];
    char note[160];              /* xgb: chosen parameters                    */
} res_t;

static void job_init(job_t *j, int kind) {
    memset(j, 0, sizeof *j);
    j->kind = kind;
    j->init = -1;
    j->enc = -1;
    j->frac = 1;
    j->epochs = R.epochs;
}

static void gnn_opts(dlp_gnn_opts *o, int model, const dlp_encoder *enc, const char *const *tn, int epochs,
                     uint64_t seed) {
    memset(o, 0, sizeof *o);
    o->arch = model == M_TRAPPM ? DLP_GNN_TRAPPM : model == M_MLP ? DLP_GNN_MLP : DLP_GNN_SAGE;
    o->hidden = R.hidden;
    o->layers = 2;
    o->fc_layers = 2;
    o->dropout = R.dropout;
    o->readout = R.readout;
    o->lr = R.lr;
    o->batch_size = R.batch;
    o->epochs = epochs;
    o->loss = DLP_GNN_LOSS_MSE;
    o->target_scale = R.scale;
    o->seed = seed;
    o->n_targets = 1;
    o->targets = tn;
    o->n_static = 6;
    o->static_features = SIX;
    o->keep_last = 1;
    o->threads = 1;
    o->encoder = model == M_TRAPPM ? enc : NULL;
    o->record_curve = 1;
}

static void keep_curve(const dlp_gnn *m, res_t *r) {
#if HAVE_CURVE
    const double *tr = NULL, *va = NULL;
    int n = 0;
    dlp_gnn_loss_curve(m, &tr, &va, &n);
    r->n_curve = 0;
    for (int e = 0; tr && e < n && e < MAXEP; e++) r->curve[r->n_curve++] = (float)tr[e];
#else
    (void)m;
    r->n_curve = 0;
#endif
}

static void metrics_of(const dsinfo_t *di, const int *test, int nt, const double *y, const double *yhat, res_t *r) {
    dlp_metrics_compute(y, yhat, nt, &r->all);
    double *fy = malloc(sizeof *fy * (size_t)(nt + 1)), *fp = malloc(sizeof *fp * (size_t)(nt + 1));
    for (int f = 0; f < di->nf && fy && fp; f++) {
        int k = 0;
        for (int i = 0; i < nt; i++)
            if (di->fid[test[i]] == f) {
                fy[k] = y[i];
                fp[k++] = yhat[i];
            }
        r->fam_n[f] = k;
        dlp_metrics m;
        if (k) {
            dlp_metrics_compute(fy, fp, k, &m);
            r->fam_mape[f] = (float)m.mape;
            r->fam_rmse[f] = (float)m.rmse;
        } else {
            r->fam_mape[f] = r->fam_rmse[f] = NAN;
        }
    }
    free(fy);
    free(fp);
}

static void xgb_x(const dsinfo_t *di, const int *idx, int n, float *x) {
    for (int i = 0; i < n; i++) {
        dlp_dataset_sample s;
        s = *dlp_dataset_at(di->ds, idx[i]);
        for (int j = 0; j < 6; j++) {
            double v = s.features->static_f[SIX[j]];
            x[(size_t)i * 6 + j] = (float)log1p(v > 0 ? v : 0);
        }
    }
}

typedef struct {
    int n_est;
    double lr;
    int depth;
    double sub;
} xgb_pt;

/* The grid searched (g NULL: only count).  lr and n_estimators go in pairs
 * in the default grid: their product sets how far the boosting moves from
 * base_score, and lr 1e-3 needs the 2,000 trees. */
static int xgb_grid(xgb_pt *g) {
    int k = 0;
    if (R.xgb_grid == 0) {
        static const xgb_pt t[2] = {{100, 0.1, 6, 1}, {100, 1e-3, 6, 1}};
        for (; k < 2; k++)
            if (g) g[k] = t[k];
        return k;
    }
    if (R.xgb_grid == 1) {
        static const int ne[2] = {300, 2000}, dp[2] = {6, 50};
        static const double lr[2] = {0.1, 1e-3}, sb[2] = {0.75, 1};
        for (int a = 0; a < 2; a++)
            for (int c = 0; c < 2; c++)
                for (int d = 0; d < 2; d++, k++)
                    if (g) g[k] = (xgb_pt){ne[a], lr[a], dp[c], sb[d]};
        return k;
    }
    static const int ne[3] = {500, 1000, 2000}, dp[3] = {10, 30, 50};
    static const double lr[3] = {0.1, 1e-3, 1e-4}, sb[3] = {0.5, 0.75, 1};
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++)
            for (int c = 0; c < 3; c++)
                for (int d = 0; d < 3; d++, k++)
                    if (g) g[k] = (xgb_pt){ne[a], lr[b], dp[c], sb[d]};
    return k;
}

static const char *const SIXNAME[6] = {"batch", "nodes", "edges", "macs", "params", "memory"};

static int xgb_fit_predict(const dsinfo_t *di, int tcol, const int *tr, int ntr, const int *te, int nte,
                           const xgb_pt *p, uint64_t seed, double *out, char *why) {
    float *x = malloc(sizeof *x * 6 * (size_t)ntr), *y = malloc(sizeof *y * (size_t)ntr);
    float *xt = malloc(sizeof *xt * 6 * (size_t)(nte ? nte : 1));
    int rc = -1;
    if (!x || !y || !xt) goto done;
    xgb_x(di, tr, ntr, x);
    xgb_x(di, te, nte, xt);
    for (int i = 0; i < ntr; i++) {
        dlp_dataset_sample s;
        s = *dlp_dataset_at(di->ds, tr[i]);
        y[i] = s.targets[tcol];
    }
    dlp_xgb_params xp;
    memset(&xp, 0, sizeof xp);
    xp.n_estimators = p->n_est;
    xp.learning_rate = p->lr;
    xp.max_depth = p->depth;
    xp.subsample = p->sub;
    xp.nthread = 1;
    xp.seed = seed;
    xp.log_target = 1;
    dlp_xgb *m = NULL;
    dlp_error e = {0};
    if (dlp_xgb_train(x, y, ntr, 6, SIXNAME, "y", &xp, &m, &e) != DLP_OK ||
        dlp_xgb_predict(m, xt, nte, out, &e) != DLP_OK) {
        snprintf(why, 600, "xgboost: %s", e.msg);
    } else {
        rc = 0;
    }
    dlp_xgb_free(m);
done:
    free(x);
    free(y);
    free(xt);
    return rc;
}

MAYBE_UNUSED static int pretrain_progress(void *u, int epoch, int epochs, double loss, double val_loss, double el) {
    res_t *r = u;
    (void)val_loss;
    if (r->n_curve < MAXEP) r->curve[r->n_curve++] = (float)loss;
    int every = epochs >= 10 ? epochs / 10 : 1;
    if (epoch == 1 || epoch % every == 0 || epoch == epochs) {
        printf("  %s: epoch %d/%d loss %.4f (%.0f s)\n", r->note, epoch, epochs, loss, el);
        fflush(stdout);
    }
    return 0;
}

MAYBE_UNUSED static void pretrain_recipe(dlp_pretrain_opts *po, int method) {
    memset(po, 0, sizeof *po);
    po->method = method;
    po->hidden = R.enc_hidden;
    po->layers = R.enc_layers;
    po->epochs = R.enc_epochs;
    po->batch_size = R.enc_batch;
    po->seed = 1337;
    po->threads = 1;
}

static void run_one_(const job_t *jb, res_t *r);
/* CPU seconds of every job run, per section (the wall-time table) */
static double CPU_ACC;

static void run_one(const job_t *jb, res_t *r) {
    double c0 = cpu_s();
    run_one_(jb, r);
    r->cpu = cpu_s() - c0;
}

static void run_one_(const job_t *jb, res_t *r) {
    memset(r, 0, sizeof *r);
    double t0 = now_s();
    dlp_error e = {0};
    if (jb->kind == J_PRETRAIN) {
#if HAVE_PRETRAIN
        dlp_pretrain_opts po;
        pretrain_recipe(&po, jb->method);
        char ck[1100];
        snprintf(ck, sizeof ck, "%s.ckpt", jb->path);
        po.checkpoint = ck;
        po.checkpoint_every = 1;
        po.resume = 1;
        po.progress = pretrain_progress;
        po.progress_user = r;
        snprintf(r->note, sizeof r->note, "%s", jb->tag);
        dlp_encoder *enc = NULL;
        if (dlp_encoder_pretrain(CORP[jb->corpus], &po, &enc, &e) != DLP_OK)
            snprintf(r->why, sizeof r->why, "pretrain: %s", e.msg);
        else if (dlp_encoder_save(enc, jb->path, &e) != DLP_OK)
            snprintf(r->why, sizeof r->why, "save: %s", e.msg);
        else {
            r->ok = 1;
            remove(ck);   /* the finished encoder is the cache now */
        }
        dlp_encoder_free(enc);
#else
        snprintf(r->why, sizeof r->why, "library built without the encoder");
#endif
        r->secs = now_s() - t0;
        return;
    }
    const dsinfo_t *di = &DS[TASK[jb->task].d];
    if (!di->ds) {
        snprintf(r->why, sizeof r->why, "no data");
        return;
    }
    int tcol = dlp_dataset_target_index(di->ds, TASK[jb->task].target);
    if (tcol < 0) {
        snprintf(r->why, sizeof r->why, "dataset has no target %s", TASK[jb->task].target);
        return;
    }
    const char *tn[1] = {TASK[jb->task].target};
    int n = di->n, *part = malloc(sizeof *part * (size_t)n), *tr = malloc(sizeof *tr * (size_t)n);
    int *te = malloc(sizeof *te * (size_t)n), ntr = 0, nte = 0;
    double *y = malloc(sizeof *y * (size_t)n), *yh = malloc(sizeof *yh * (size_t)n);
    float *pf = malloc(sizeof *pf * (size_t)n);
    dlp_gnn *m = NULL;
    if (!part || !tr || !te || !y || !yh || !pf) {
        snprintf(r->why, sizeof r->why, "out of memory");
        goto done;
    }
    if (jb->kind == J_SOURCE) {
        for (int i = 0; i < n; i++) tr[ntr++] = i;
    } else if (jb->ft_n > 0) {
        int *all = malloc(sizeof *all * (size_t)n);
        for (int i = 0; i < n; i++) all[i] = i;
        shuffle(all, n, jb->seed * 7919 + 32);
        for (int i = 0; i < n; i++) {
            if (i < jb->ft_n) tr[ntr++] = all[i];
            else te[nte++] = all[i];
        }
        free(all);
    } else {
        if (dlp_split_family(di->fam, n, 0.7, jb->seed, part, &e) != DLP_OK) {
            snprintf(r->why, sizeof r->why, "split: %s", e.msg);
            goto done;
        }
        for (int i = 0; i < n; i++) {
            if (part[i] == DLP_PART_TRAIN) tr[ntr++] = i;
            else if (part[i] == DLP_PART_TEST) te[nte++] = i;
        }
        if (jb->frac < 1) {
            /* a seeded subset of the same training part: fewer labels, the
             * same test set as at 100 % */
            shuffle(tr, ntr, jb->seed * 1000003 + (uint64_t)(jb->frac * 1000));
            int k = (int)lround(jb->frac * ntr);
            ntr = k < 8 ? (ntr < 8 ? ntr : 8) : k;
        }
    }
    /* drop samples without the target */
    int a = 0, b = 0;
    for (int i = 0; i < ntr; i++) {
        dlp_dataset_sample s;
        s = *dlp_dataset_at(di->ds, tr[i]);
        if (isfinite(s.targets[tcol]) && s.targets[tcol] > 0) tr[a++] = tr[i];
    }
    for (int i = 0; i < nte; i++) {
        dlp_dataset_sample s;
        s = *dlp_dataset_at(di->ds, te[i]);
        if (isfinite(s.targets[tcol]) && s.targets[tcol] > 0) {
            te[b] = te[i];
            y[b++] = s.targets[tcol];
        }
    }
    ntr = a;
    nte = b;
    r->n_train = ntr;
    r->n_test = nte;

    if (jb->model == M_GBOOST) {
        /* grid search on an inner per-family 75/25 split of the training part */
        int np = xgb_grid(NULL);
        xgb_pt *g = malloc(sizeof *g * (size_t)np);
        xgb_grid(g);
        const char **ff = malloc(sizeof *ff * (size_t)ntr);
        int *ip = malloc(sizeof *ip * (size_t)ntr), *itr = malloc(sizeof *itr * (size_t)ntr);
        int *iva = malloc(sizeof *iva * (size_t)ntr), nitr = 0, niva = 0;
        double *vy = malloc(sizeof *vy * (size_t)ntr), *vp = malloc(sizeof *vp * (size_t)ntr);
        for (int i = 0; i < ntr; i++) ff[i] = di->fam[tr[i]];
        dlp_split_family(ff, ntr, 0.75, jb->seed + 17, ip, NULL);
        for (int i = 0; i < ntr; i++) {
            if (ip[i] == DLP_PART_TRAIN) itr[nitr++] = tr[i];
            else {
                dlp_dataset_sample s;
                s = *dlp_dataset_at(di->ds, tr[i]);
                vy[niva] = s.targets[tcol];
                iva[niva++] = tr[i];
            }
        }
        int best = 0;
        double best_m = INFINITY;
        for (int k = 0; k < np && niva > 0; k++) {
            if (xgb_fit_predict(di, tcol, itr, nitr, iva, niva, &g[k], jb->seed, vp, r->why)) continue;
            double mp = dlp_metric_mape(vy, vp, niva);
            if (mp < best_m) {
                best_m = mp;
                best = k;
            }
        }
        snprintf(r->note, sizeof r->note, "n_estimators %d, lr %g, max_depth %d, subsample %g (inner val MAPE %.1f %%)",
                 g[best].n_est, g[best].lr, g[best].depth, g[best].sub, best_m);
        if (xgb_fit_predict(di, tcol, tr, ntr, te, nte, &g[best], jb->seed, yh, r->why) == 0) r->ok = 1;
        free(g);
        free(ff);
        free(ip);
        free(itr);
        free(iva);
        free(vy);
        free(vp);
    } else {
        dlp_gnn_opts o;
        const dlp_encoder *enc = jb->enc >= 0 ? ENC[jb->enc] : NULL;
        if (jb->model == M_TRAPPM && !enc) {
            snprintf(r->why, sizeof r->why, "no encoder: %s", jb->enc >= 0 ? ENC_WHY[jb->enc] : "none given");
            goto done;
        }
        gnn_opts(&o, jb->model, enc, tn, jb->epochs, jb->seed);
        if (jb->init >= 0) {
            if (!SRC[jb->init]) {
                snprintf(r->why, sizeof r->why, "no source model: %s", SRC_WHY[jb->init]);
                goto done;
            }
            o.init = SRC[jb->init];
        }
        if (dlp_gnn_train(di->ds, tr, ntr, NULL, 0, &o, &m, &e) != DLP_OK) {
            snprintf(r->why, sizeof r->why, "train: %s", e.msg);
            goto done;
        }
        keep_curve(m, r);
        if (jb->kind == J_SOURCE) {
            if (dlp_gnn_save(m, jb->path, &e) != DLP_OK) snprintf(r->why, sizeof r->why, "save: %s", e.msg);
            else r->ok = 1;
            goto done;
        }
        if (dlp_gnn_predict_dataset(m, di->ds, te, nte, pf, &e) != DLP_OK) {
            snprintf(r->why, sizeof r->why, "predict: %s", e.msg);
            goto done;
        }
        for (int i = 0; i < nte; i++) yh[i] = pf[i];
        r->ok = 1;
    }
    if (r->ok && jb->kind == J_EVAL) metrics_of(di, te, nte, y, yh, r);
done:
    dlp_gnn_free(m);
    free(part);
    free(tr);
    free(te);
    free(y);
    free(yh);
    free(pf);
    r->secs = now_s() - t0;
}

static void log_result(const job_t *jb, const res_t *r) {
    if (jb->kind == J_EVAL && r->ok)
        printf("  %-34s MAPE %7.2f %%  RMSE %9.2f  tau %.3f  (%d train, %d test, %.1f s, cpu %.1f s)\n", jb->tag,
               r->all.mape, r->all.rmse, r->all.tau, r->n_train, r->n_test, r->secs, r->cpu);
    else if (r->ok)
        printf("  %-34s done (%.1f s, cpu %.1f s)\n", jb->tag, r->secs, r->cpu);
    else
        printf("  %-34s FAILED: %s\n", jb->tag, r->why);
    fflush(stdout);
}

/* Run jobs, --jobs at a time in forked children (one result struct each
 * through a pipe); with --jobs 1 in this process. */
static void run_jobs_(job_t *jobs, res_t *res, int n);
static void run_jobs(job_t *jobs, res_t *res, int n) {
    run_jobs_(jobs, res, n);
    for (int i = 0; i < n; i++) CPU_ACC += res[i].cpu;
}

static void run_jobs_(job_t *jobs, res_t *res, int n) {
    if (R.jobs <= 1 || n == 1) {
        for (int i = 0; i < n; i++) {
            run_one(&jobs[i], &res[i]);
            log_result(&jobs[i], &res[i]);
        }
        return;
    }
    int J = R.jobs, next = 0, running = 0;
    pid_t pid[64];
    int fd[64], who[64];
    for (int k = 0; k < J; k++) fd[k] = -1;
    while (next < n || running) {
        while (running < J && next < n) {
            int k = 0;
            while (fd[k] >= 0) k++;
            int p[2];
            fflush(stdout);
            if (pipe(p) != 0) {
                memset(&res[next], 0, sizeof res[next]);
                snprintf(res[next].why, sizeof res[next].why, "pipe: %s", strerror(errno));
                next++;
                continue;
            }
            pid_t c = fork();
            if (c == 0) {
                close(p[0]);
                res_t *r = malloc(sizeof *r);
                run_one(&jobs[next], r);
                log_result(&jobs[next], r);
                const char *q = (const char *)r;
                size_t left = sizeof *r;
                while (left) {
                    ssize_t w = write(p[1], q, left);
                    if (w <= 0) break;
                    q += w;
                    left -= (size_t)w;
                }
                _exit(0);
            }
            close(p[1]);
            if (c < 0) {
                close(p[0]);
                memset(&res[next], 0, sizeof res[next]);
                snprintf(res[next].why, sizeof res[next].why, "fork: %s", strerror(errno));
                next++;
                continue;
            }
            pid[k] = c;
            fd[k] = p[0];
            who[k] = next++;
            running++;
        }
        if (!running) break;
        struct pollfd pf[64];
        int map[64], np = 0;
        for (int k = 0; k < J; k++)
            if (fd[k] >= 0) {
                pf[np].fd = fd[k];
                pf[np].events = POLLIN;
                map[np++] = k;
            }
        if (poll(pf, (nfds_t)np, -1) < 0) {
            if (errno == EINTR) continue;
            break;
        }
        for (int q = 0; q < np; q++) {
            if (!(pf[q].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            int k = map[q];
            res_t *r = &res[who[k]];
            char *dst = (char *)r;
            size_t got = 0;
            while (got < sizeof *r) {
                ssize_t g = read(fd[k], dst + got, sizeof *r - got);
                if (g <= 0) break;
                got += (size_t)g;
            }
            close(fd[k]);
            fd[k] = -1;
            int status = 0;
            waitpid(pid[k], &status, 0);
            if (got != sizeof *r) {
                memset(r, 0, sizeof *r);
                snprintf(r->why, sizeof r->why, "child died (%s %d)", WIFSIGNALED(status) ? "signal" : "status",
                         WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
                log_result(&jobs[who[k]], r);
            }
            running--;
        }
    }
}

/* --------------------------------------------------------------- report */

static sb_t REP;       /* sections finished so far */
static sb_t TIMES;     /* wall-time table rows      */
static double T_START;
static char REP_HEAD[8192];

static void flush_report(int final) {
    sb_t b = {0};
    sbf(&b, "%s", REP_HEAD);
    if (!final)
        sbf(&b, "> **Partial report** — written after each finished section; the run was still going (or was "
                "stopped) when this was written.\n\n");
    if (REP.s) sbf(&b, "%s", REP.s);
    sbf(&b, "## Wall time\n\n| part | wall time | CPU time of its trainings |\n|---|---|---|\n%s| total so far | "
            "%.1f min | |\n\n",
        TIMES.s ? TIMES.s : "", (now_s() - T_START) / 60);
    if (b.s && write_atomic(R.out_md, b.s, b.n) != 0)
        printf("bench_trappm: cannot write %s: %s\n", R.out_md, strerror(errno));
    free(b.s);
}

/* one row: wall time of the part and the CPU time of its trainings since
 * the last row (on a quiet machine wall ~ CPU / min(jobs, cores)) */
static void add_time(const char *part, double secs) {
    sbf(&TIMES, "| %s | %.1f min | %.1f min |\n", part, secs / 60, CPU_ACC / 60);
    CPU_ACC = 0;
}

/* mean and sample sd of the finite values */
static int mean_sd(const double *v, int n, double *mean, double *sd) {
    double s = 0, s2 = 0;
    int k = 0;
    for (int i = 0; i < n; i++)
        if (isfinite(v[i])) {
            s += v[i];
            k++;
        }
    if (!k) {
        *mean = *sd = NAN;
        return 0;
    }
    *mean = s / k;
    for (int i = 0; i < n; i++)
        if (isfinite(v[i])) s2 += (v[i] - *mean) * (v[i] - *mean);
    *sd = k > 1 ? sqrt(s2 / (k - 1)) : 0;
    return k;
}

/* "12.34 ± 0.56" over the seeds (prec decimals), "—" when nothing ran */
static void cell(sb_t *b, const double *v, int n, int prec) {
    double m, sd;
    int k = mean_sd(v, n, &m, &sd);
    if (!k) sbf(b, " — |");
    else if (k == 1) sbf(b, " %.*f |", prec, m);
    else sbf(b, " %.*f ± %.*f |", prec, m, prec, sd);
}

enum { F_MAPE, F_RMSE, F_TAU, F_ACC10 };
static void field(const res_t *r, int n, int f, double *v) {
    for (int i = 0; i < n; i++) {
        if (!r[i].ok) {
            v[i] = NAN;
            continue;
        }
        v[i] = f == F_MAPE ? r[i].all.mape : f == F_RMSE ? r[i].all.rmse : f == F_TAU ? r[i].all.tau
                                                                                      : 100 * r[i].all.acc10;
    }
}

static const char *first_why(const res_t *r, int n) {
    for (int i = 0; i < n; i++)
        if (!r[i].ok) return r[i].why;
    return NULL;
}

/* ------------------------------------------------------------------ svg */

static void svg_curves(const char *path, const char *title, const char *ylabel, const float *const *c, const int *nc,
                       const char *const *name, int k) {
    static const char *const col[] = {"#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e"};
    double lo = INFINITY, hi = -INFINITY;
    int emax = 0;
    for (int s = 0; s < k; s++) {
        if (nc[s] > emax) emax = nc[s];
        for (int e = 0; e < nc[s]; e++)
            if (c[s][e] > 0 && isfinite(c[s][e])) {
                lo = fmin(lo, log10(c[s][e]));
                hi = fmax(hi, log10(c[s][e]));
            }
    }
    if (!emax || !isfinite(lo)) return;
    lo = floor(lo);
    hi = ceil(hi);
    if (hi <= lo) hi = lo + 1;
    const double W = 720, H = 440, L = 80, Rm = 180, T = 40, B = 60, pw = W - L - Rm, ph = H - T - B;
    sb_t b = {0};
    sbf(&b, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
            "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
        W, H);
    sbf(&b, "<text x=\"%.0f\" y=\"22\" text-anchor=\"middle\" font-size=\"14\">%s</text>\n", L + pw / 2, title);
    /* y grid: decades, with 2 and 5 when the range is short */
    for (int d = (int)lo; d <= (int)hi; d++) {
        static const double sub[3] = {1, 2, 5};
        for (int s = 0; s < 3; s++) {
            if (s && hi - lo > 3) break;
            double v = log10(sub[s]) + d;
            if (v > hi + 1e-9) break;
            double yy = T + ph * (1 - (v - lo) / (hi - lo));
            sbf(&b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", L, yy, L + pw, yy);
            sbf(&b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n", L - 6, yy + 4, pow(10, v));
        }
    }
    /* x ticks */
    int step = emax <= 10 ? 1 : emax <= 50 ? 5 : emax <= 200 ? 20 : 50;
    for (int e = step > 1 ? 0 : 1; e <= emax; e += step) {
        int ee = e ? e : 1;   /* epochs count from 1: tick 1, then multiples of step */
        double xx = L + pw * (emax > 1 ? (double)(ee - 1) / (emax - 1) : 0.5);
        sbf(&b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000\"/>\n", xx, T + ph, xx, T + ph + 5);
        sbf(&b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%d</text>\n", xx, T + ph + 18, ee);
    }
    sbf(&b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"#000\"/>\n", L, T, pw, ph);
    sbf(&b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">epoch</text>\n", L + pw / 2, H - 18);
    sbf(&b, "<text transform=\"translate(18,%.1f) rotate(-90)\" text-anchor=\"middle\">%s</text>\n", T + ph / 2, ylabel);
    for (int s = 0; s < k; s++) {
        if (!nc[s]) continue;
        sbf(&b, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", col[s % 5]);
        for (int e = 0; e < nc[s]; e++) {
            if (!(c[s][e] > 0) || !isfinite(c[s][e])) continue;
            double xx = L + pw * (emax > 1 ? (double)e / (emax - 1) : 0.5);
            double yy = T + ph * (1 - (log10(c[s][e]) - lo) / (hi - lo));
            sbf(&b, "%.1f,%.1f ", xx, yy);
        }
        sbf(&b, "\"/>\n");
        double ly = T + 14 + 20 * s;
        sbf(&b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"3\"/>\n", L + pw + 12,
            ly, L + pw + 36, ly, col[s % 5]);
        sbf(&b, "<text x=\"%.1f\" y=\"%.1f\">%s</text>\n", L + pw + 42, ly + 4, name[s]);
    }
    sbf(&b, "</svg>\n");
    if (b.s && write_atomic(path, b.s, b.n) != 0) printf("bench_trappm: cannot write %s\n", path);
    free(b.s);
}

/* ---------------------------------------------------- thesis reference */

/* Tables 5.2 (memory) and 5.3 (step): TraPPM / NNLQP MAPE (%) of the
 * families whose names match ours exactly (A100, timm). */
static const struct {
    const char *fam;
    double mem_t, mem_n, step_t, step_n;
} THESIS_FAM[] = {
    {"convnext", 4.95, 7.01, 8.09, 9.50},      {"densenet", 3.52, 8.29, 6.69, 18.41},
    {"efficientnet", 3.55, 7.67, 6.81, 9.45},  {"mnasnet", 4.53, 6.75, 7.98, 18.59},
    {"resnet", 4.65, 8.09, 11.26, 25.45},      {"swin", 5.09, 10.37, 9.01, 8.89},
    {"vgg", 10.48, 10.76, 10.74, 13.20},       {"vit", 3.78, 9.07, 7.06, 9.15},
};
/* Table 5.4: memory MAPE, RMSE (MB); step MAPE, RMSE (ms) */
static const double THESIS_54[M_COUNT][4] = {
    {4.92, 910.34, 9.51, 23.23}, {8.29, 1688.18, 14.47, 37.02}, {85.01, 8045.68, 134.07, 188.36},
    {16.10, 2971.52, 16.98, 54.54}};

/* ------------------------------------------------------------ sections */

static int SEEDS(int k) { return 1337 + k; }

/* "seed 1337" / "seeds 1337..1341" (static buffer, one use per call site) */
static const char *seeds_txt(int S, char *buf, size_t n) {
    if (S <= 1) snprintf(buf, n, "seed %d", SEEDS(0));
    else snprintf(buf, n, "seeds %d..%d", SEEDS(0), SEEDS(S - 1));
    return buf;
}

/* main results, kept for the "does pre-training pay" section */
static res_t *MAIN_RES;   /* [task 0..2][model][seed] */
static job_t *MAIN_JOBS;
static int MAIN_DONE;
#define MIDX(t, m, s) (((t) * M_COUNT + (m)) * R.seeds + (s))

static void section_main(void) {
    double t0 = now_s();
    int n = 3 * M_COUNT * R.seeds;
    MAIN_JOBS = calloc((size_t)n, sizeof *MAIN_JOBS);
    MAIN_RES = calloc((size_t)n, sizeof *MAIN_RES);
    /* expensive first: the pool then ends with the short ones */
    static const int order[M_COUNT] = {M_TRAPPM, M_NNLQP, M_GBOOST, M_MLP};
    job_t *jl = calloc((size_t)n, sizeof *jl);
    int *pos = calloc((size_t)n, sizeof *pos), k = 0;
    for (int oi = 0; oi < M_COUNT; oi++)
        for (int t = 0; t < 3; t++)
            for (int s = 0; s < R.seeds; s++) {
                int m = order[oi], i = MIDX(t, m, s);
                job_t *j = &MAIN_JOBS[i];
                job_init(j, J_EVAL);
                j->task = t;
                j->model = m;
                j->enc = m == M_TRAPPM ? E_GAE : -1;
                j->seed = (uint64_t)SEEDS(s);
                snprintf(j->tag, sizeof j->tag, "%s %s seed %d", MNAME[m], TASK[t].target, SEEDS(s));
                jl[k] = *j;
                pos[k++] = i;
            }
    printf("== main comparison (tables 5.2-5.4): %d trainings\n", n);
    res_t *rl = calloc((size_t)n, sizeof *rl);
    run_jobs(jl, rl, n);
    for (int q = 0; q < n; q++) MAIN_RES[pos[q]] = rl[q];
    free(jl);
    free(rl);
    free(pos);
    MAIN_DONE = 1;

    sb_t *b = &REP;
    double v[MAXSEEDS];
    /* ---- table 5.4 ---- */
    sbf(b, "## Table 5.4 — overall (test parts pooled over all families; mean ± sd over %d splits)\n\n", R.seeds);
    sbf(b, "| Model | memory MAPE % | memory RMSE (MB) | step time MAPE % | step time RMSE (ms) | "
           "latency MAPE % (inference) | latency RMSE (ms) | thesis memory MAPE / RMSE | thesis step MAPE / RMSE |\n");
    sbf(b, "|---|---|---|---|---|---|---|---|---|\n");
    static const int tord[3] = {T_MEM, T_STEP, T_LAT};
    for (int m = 0; m < M_COUNT; m++) {
        sbf(b, "| %s |", MNAME[m]);
        for (int q = 0; q < 3; q++) {
            res_t *r = &MAIN_RES[MIDX(tord[q], m, 0)];
            field(r, R.seeds, F_MAPE, v);
            cell(b, v, R.seeds, 2);
            field(r, R.seeds, F_RMSE, v);
            cell(b, v, R.seeds, 1);
        }
        sbf(b, " %.2f / %.0f | %.2f / %.1f |\n", THESIS_54[m][0], THESIS_54[m][1], THESIS_54[m][2], THESIS_54[m][3]);
    }
    sbf(b, "| *measurement noise* (repeat CV, median) | %.2f | — | %.1f | — | %.1f | — | (A100, NVML) | |\n\n",
        R.noise_mem_train, R.noise_step, R.noise_lat);
    sbf(b, "Rank quality and share within 10 %% (not in the thesis' tables; mean ± sd over splits):\n\n");
    sbf(b, "| Model | memory tau | memory Acc10 %% | step tau | step Acc10 %% | latency tau | latency Acc10 %% |\n");
    sbf(b, "|---|---|---|---|---|---|---|\n");
    for (int m = 0; m < M_COUNT; m++) {
        sbf(b, "| %s |", MNAME[m]);
        for (int q = 0; q < 3; q++) {
            res_t *r = &MAIN_RES[MIDX(tord[q], m, 0)];
            field(r, R.seeds, F_TAU, v);
            cell(b, v, R.seeds, 3);
            field(r, R.seeds, F_ACC10, v);
            cell(b, v, R.seeds, 1);
        }
        sbf(b, "\n");
    }
    sbf(b, "\n");
    for (int m = 0; m < M_COUNT; m++)
        for (int t = 0; t < 3; t++) {
            const char *w = first_why(&MAIN_RES[MIDX(t, m, 0)], R.seeds);
            if (w) sbf(b, "- %s on %s did not run (first error): `%s`\n", MNAME[m], TASK[t].target, w);
        }
    /* GBoost's chosen parameters */
    sbf(b, "\nGBoost parameters chosen on the inner validation split (seed %d): ", SEEDS(0));
    for (int q = 0; q < 3; q++) {
        res_t *r = &MAIN_RES[MIDX(tord[q], M_GBOOST, 0)];
        sbf(b, "%s: %s%s", TASK[tord[q]].target, r->ok ? r->note : "—", q < 2 ? "; " : ".\n\n");
    }
    /* ---- per family ---- */
    static const char *const tname[3] = {"Table 5.2 — memory (MB), training set, per family",
                                         "Table 5.3 — step time (ms), training set, per family",
                                         "Latency (ms), inference set, per family (no thesis counterpart)"};
    for (int q = 0; q < 3; q++) {
        int t = tord[q];
        const dsinfo_t *di = &DS[TASK[t].d];
        sbf(b, "## %s\n\nMAPE %% and RMSE, mean over %d splits (test samples per split in n).\n\n| Family | n |", tname[q],
            R.seeds);
        for (int m = 0; m < M_COUNT; m++) sbf(b, " %s MAPE | %s RMSE |", MNAME[m], MNAME[m]);
        if (t != T_LAT) sbf(b, " thesis TraPPM / NNLQP MAPE |");
        sbf(b, "\n|---|---|");
        for (int m = 0; m < M_COUNT; m++) sbf(b, "---|---|");
        sbf(b, t != T_LAT ? "---|\n" : "\n");
        for (int f = 0; f < di->nf; f++) {
            double nn = 0;
            int cnt = 0;
            for (int s = 0; s < R.seeds; s++)
                if (MAIN_RES[MIDX(t, M_NNLQP, s)].ok || MAIN_RES[MIDX(t, M_GBOOST, s)].ok) {
                    const res_t *r = MAIN_RES[MIDX(t, M_NNLQP, s)].ok ? &MAIN_RES[MIDX(t, M_NNLQP, s)]
                                                                      : &MAIN_RES[MIDX(t, M_GBOOST, s)];
                    nn += r->fam_n[f];
                    cnt++;
                }
            sbf(b, "| %s | %.1f |", di->fname[f], cnt ? nn / cnt : 0);
            for (int m = 0; m < M_COUNT; m++) {
                double vm[MAXSEEDS], vr[MAXSEEDS], mm, sd;
                for (int s = 0; s < R.seeds; s++) {
                    const res_t *r = &MAIN_RES[MIDX(t, m, s)];
                    vm[s] = r->ok && r->fam_n[f] ? r->fam_mape[f] : NAN;
                    vr[s] = r->ok && r->fam_n[f] ? r->fam_rmse[f] : NAN;
                }
                if (mean_sd(vm, R.seeds, &mm, &sd)) sbf(b, " %.2f |", mm);
                else sbf(b, " — |");
                if (mean_sd(vr, R.seeds, &mm, &sd)) sbf(b, " %.1f |", mm);
                else sbf(b, " — |");
            }
            if (t != T_LAT) {
                int hit = -1;
                for (size_t z = 0; z < sizeof THESIS_FAM / sizeof *THESIS_FAM; z++)
                    if (!strcmp(THESIS_FAM[z].fam, di->fname[f])) hit = (int)z;
                if (hit >= 0)
                    sbf(b, " %.2f / %.2f |", t == T_MEM ? THESIS_FAM[hit].mem_t : THESIS_FAM[hit].step_t,
                        t == T_MEM ? THESIS_FAM[hit].mem_n : THESIS_FAM[hit].step_n);
                else
                    sbf(b, " |");
            }
            sbf(b, "\n");
        }
        sbf(b, "\n");
    }

    /* ---- convergence (figure 5.5) ---- */
    sbf(b, "## Figure 5.5 — convergence (step time, split seed %d)\n\n", SEEDS(0));
    const float *c[3];
    int nc[3];
    const char *nm[3] = {"TraPPM", "NNLQP", "MLP"};
    static const int cm[3] = {M_TRAPPM, M_NNLQP, M_MLP};
    int any = 0;
    for (int q = 0; q < 3; q++) {
        const res_t *r = &MAIN_RES[MIDX(T_STEP, cm[q], 0)];
        c[q] = r->curve;
        nc[q] = r->ok ? r->n_curve : 0;
        any |= nc[q] > 0;
    }
    if (any) {
        svg_curves(R.out_svg, "Training loss per epoch (step time, split seed 1337)",
                   "training MSE (log-std-scaled target)", c, nc, nm, 3);
        const char *slash = strrchr(R.out_svg, '/');
        sbf(b, "![epoch vs training loss](%s)\n\n", slash ? slash + 1 : R.out_svg);
        /* epochs 1, E/4, E/2 and E, each once */
        int ep[4] = {1, R.epochs / 4, R.epochs / 2, R.epochs}, ne = 0, cols[4];
        for (int q = 0; q < 4; q++)
            if (ep[q] >= 1 && (!ne || ep[q] > cols[ne - 1])) cols[ne++] = ep[q];
        sbf(b, "Mean training MSE of the epoch on the scaled target (ln, standardised on the training part — "
               "the same scale for the three models):\n\n| Model |");
        for (int q = 0; q < ne; q++) sbf(b, " epoch %d |", cols[q]);
        sbf(b, "\n|---|");
        for (int q = 0; q < ne; q++) sbf(b, "---|");
        sbf(b, "\n");
        for (int q = 0; q < 3; q++) {
            sbf(b, "| %s |", nm[q]);
            for (int z = 0; z < ne; z++) {
                if (cols[z] <= nc[q]) sbf(b, " %.4g |", c[q][cols[z] - 1]);
                else sbf(b, " — |");
            }
            sbf(b, "\n");
        }
        sbf(b, "\n");
    } else {
        sbf(b, "No loss curves were recorded (%s).\n\n",
            HAVE_CURVE ? "the trainings failed or the library does not record them"
                       : "library built without dlp_gnn_loss_curve");
    }
    add_time("main comparison (tables 5.2-5.4, figure 5.5)", now_s() - t0);
}

static void section_ablation(void) {
    double t0 = now_s();
    int S = R.abl_seeds, n = 2 * S;
    job_t *jl = calloc((size_t)n, sizeof *jl);
    res_t *rl = calloc((size_t)n, sizeof *rl);
    static const int tk[2] = {T_STEP, T_MEM};
    for (int q = 0; q < 2; q++)
        for (int s = 0; s < S; s++) {
            job_t *j = &jl[q * S + s];
            job_init(j, J_EVAL);
            j->task = tk[q];
            j->model = M_TRAPPM;
            j->enc = E_RAND;
            j->seed = (uint64_t)SEEDS(s);
            snprintf(j->tag, sizeof j->tag, "TraPPM random-enc %s seed %d", TASK[tk[q]].target, SEEDS(s));
        }
    printf("== ablation (§5.5.9): %d trainings\n", n);
    run_jobs(jl, rl, n);
    sb_t *b = &REP;
    sbf(b, "## Ablation (§5.5.9) — pre-trained vs randomly initialised frozen encoder\n\n");
    char sd[64];
    sbf(b, "TraPPM with the GAE encoder (the main runs) and with an encoder of the same recipe, randomly "
           "initialised by `dlp_encoder_new` and never trained, frozen the same way. Splits of %s; losses are "
           "the mean training MSE of the first and last epoch (scaled target), mean over those splits.\n\n",
        seeds_txt(S, sd, sizeof sd));
    sbf(b, "| encoder | target | MAPE %% | RMSE | loss epoch 1 | loss epoch %d |\n|---|---|---|---|---|---|\n", R.epochs);
    for (int q = 0; q < 2; q++)
        for (int w = 0; w < 2; w++) {
            double vm[MAXSEEDS], vr[MAXSEEDS], l0[MAXSEEDS], l1[MAXSEEDS];
            for (int s = 0; s < S; s++) {
                const res_t *r = w == 0 ? (MAIN_DONE && s < R.seeds ? &MAIN_RES[MIDX(tk[q], M_TRAPPM, s)] : NULL)
                                        : &rl[q * S + s];
                int ok = r && r->ok;
                vm[s] = ok ? r->all.mape : NAN;
                vr[s] = ok ? r->all.rmse : NAN;
                l0[s] = ok && r->n_curve ? r->curve[0] : NAN;
                l1[s] = ok && r->n_curve ? r->curve[r->n_curve - 1] : NAN;
            }
            sbf(b, "| %s | %s |", w == 0 ? "pre-trained (GAE)" : "random init", TASK[tk[q]].target);
            cell(b, vm, S, 2);
            cell(b, vr, S, 1);
            double m, sd;
            if (mean_sd(l0, S, &m, &sd)) sbf(b, " %.4g |", m);
            else sbf(b, " — |");
            if (mean_sd(l1, S, &m, &sd)) sbf(b, " %.4g |\n", m);
            else sbf(b, " — |\n");
        }
    const char *w = first_why(rl, n);
    if (w) sbf(b, "\nFirst error: `%s`\n", w);
    sbf(b, "\nThesis (A100, step time, MSE in raw units): pre-trained 1.26e4 → 6.82e2 by epoch 100; random "
           "5.43e12 → 1.05e5 by epoch 2, then stagnant.\n\n");
    free(jl);
    free(rl);
    add_time("ablation (§5.5.9)", now_s() - t0);
}

/* FNV-1a of everything a cached file depends on besides its name */
static uint64_t recipe_hash(int gnn_part) {
    char t[1024];
    int64_t nc = 0;
#if HAVE_PRETRAIN
    if (CORP[C_CPU]) nc = dlp_corpus_count(CORP[C_CPU]);
#endif
    snprintf(t, sizeof t, "enc %d %d %d %d corpus %lld %lld %lld %s|", R.enc_hidden, R.enc_layers, R.enc_epochs,
             R.enc_batch, (long long)nc, (long long)R.corpus_max, (long long)R.corpus_max_nodes,
             R.unlabeled ? R.unlabeled : "");
    if (gnn_part)
        snprintf(t + strlen(t), sizeof t - strlen(t), "gnn %d %d %d %g %g %d %d", R.hidden, R.epochs, R.batch, R.lr,
                 R.dropout, R.scale, R.readout);
    uint64_t h = 1469598103934665603ULL;
    for (const char *c = t; *c; c++) h = (h ^ (unsigned char)*c) * 1099511628211ULL;
    return h;
}

static void src_path(int s, char *out, size_t n) {
    snprintf(out, n, "%s/src-%s-%016llx.dlpm", R.work, s == S_LAT ? "latency" : "memory",
             (unsigned long long)recipe_hash(1));
}

static void section_transfer(void) {
    double t0 = now_s();
    /* sources: TraPPM on the whole inference set */
    job_t js[S_COUNT];
    res_t rs[S_COUNT];
    int nsj = 0, map[S_COUNT];
    for (int s = 0; s < S_COUNT; s++) {
        char p[1024];
        src_path(s, p, sizeof p);
        dlp_error e = {0};
        if (access(p, R_OK) == 0 && dlp_gnn_load(p, &SRC[s], &e) == DLP_OK) continue;
        job_t *j = &js[nsj];
        job_init(j, J_SOURCE);
        j->task = s == S_LAT ? T_LAT : T_MEM_INFER;
        j->model = M_TRAPPM;
        j->enc = E_GAE;
        j->seed = 1337;
        snprintf(j->path, sizeof j->path, "%s", p);
        snprintf(j->tag, sizeof j->tag, "source TraPPM %s (inference set)", TASK[j->task].target);
        map[nsj++] = s;
    }
    printf("== transfer (§5.6.2): %d source model(s)\n", nsj);
    if (nsj) run_jobs(js, rs, nsj);
    for (int q = 0; q < nsj; q++) {
        int s = map[q];
        dlp_error e = {0};
        if (!rs[q].ok) snprintf(SRC_WHY[s], sizeof SRC_WHY[s], "%s", rs[q].why);
        else if (dlp_gnn_load(js[q].path, &SRC[s], &e) != DLP_OK)
            snprintf(SRC_WHY[s], sizeof SRC_WHY[s], "load: %s", e.msg);
    }
    int S = R.tr_seeds, n = 2 * 2 * S;
    job_t *jl = calloc((size_t)n, sizeof *jl);
    res_t *rl = calloc((size_t)n, sizeof *rl);
    static const int tk[2] = {T_STEP, T_MEM};
    for (int q = 0; q < 2; q++)
        for (int w = 0; w < 2; w++)
            for (int s = 0; s < S; s++) {
                job_t *j = &jl[(q * 2 + w) * S + s];
                job_init(j, J_EVAL);
                j->task = tk[q];
                j->model = M_TRAPPM;
                j->enc = E_GAE;
                j->seed = (uint64_t)SEEDS(s);
                j->ft_n = R.ft_n;
                j->epochs = R.ft_epochs;
                j->init = w == 0 ? (q == 0 ? S_LAT : S_MEM) : -1;
                snprintf(j->tag, sizeof j->tag, "TraPPM %s %s %d labels seed %d", w ? "scratch" : "fine-tune",
                         TASK[tk[q]].target, R.ft_n, SEEDS(s));
            }
    printf("== transfer: %d trainings\n", n);
    run_jobs(jl, rl, n);
    sb_t *b = &REP;
    char sdt[64];
    sbf(b, "## Table 5.5 — transfer learning (inference mode → training mode)\n\n");
    sbf(b, "One device only, so the transfer is between the two modes measured on it: TraPPM trained on the "
           "whole inference set (latency_ms → used for step_ms; memory_mb of inference → memory_mb of training, "
           "%d epochs), then fine-tuned (`opts.init`) on %d random labelled samples of the training set for %d "
           "epochs, vs the same %d samples from scratch for %d epochs; tested on the other %d training-set samples. "
           "Mean ± sd over %d draw(s) (%s). The training graphs are the inference graphs (same ONNX, same "
           "batch), so the source has seen every test graph — with another target.\n\n",
        R.epochs, R.ft_n, R.ft_epochs, R.ft_n, R.ft_epochs, DS[D_TRAIN].n - R.ft_n, S, seeds_txt(S, sdt, sizeof sdt));
    sbf(b, "| Label | Metric | With TL | Without TL | thesis with TL | thesis without TL |\n|---|---|---|---|---|---|\n");
    static const double th[2][4] = {{19.13, 28.24, 20.05, 44.59}, {11.22, 28.49, 603.03, 1176.90}};
    for (int q = 0; q < 2; q++)
        for (int f = 0; f < 2; f++) {
            sbf(b, "| %s | %s |", q == 0 ? "Step time" : "Memory", f == 0 ? "MAPE (%)" : q == 0 ? "RMSE (ms)" : "RMSE (MB)");
            for (int w = 0; w < 2; w++) {
                double v[MAXSEEDS];
                field(&rl[(q * 2 + w) * S], S, f == 0 ? F_MAPE : F_RMSE, v);
                cell(b, v, S, f == 0 ? 2 : 1);
            }
            sbf(b, " %.2f | %.2f |\n", th[q][f * 2], th[q][f * 2 + 1]);
        }
    sbf(b, "\n");
    for (int s = 0; s < S_COUNT; s++)
        if (!SRC[s]) sbf(b, "- source model %s failed: `%s`\n", s == S_LAT ? "latency" : "memory", SRC_WHY[s]);
    const char *w = first_why(rl, n);
    if (w) sbf(b, "- first error: `%s`\n", w);
    sbf(b, "\n");
    free(jl);
    free(rl);
    add_time("transfer (table 5.5)", now_s() - t0);
}

/* no pre-training vs GAE vs GraphMAE at 100/30/10 % of the labels */
static void pays_table(const int *tasks, int nt, const int *enc_of, const char *title, const char *what) {
    static const double fr[3] = {1.0, 0.3, 0.1};
    int S = R.pays_seeds, per = 3 * 3 * S, n = nt * per;
    job_t *jl = calloc((size_t)n, sizeof *jl);
    res_t *rl = calloc((size_t)n, sizeof *rl);
    job_t *todo = calloc((size_t)n, sizeof *todo);
    res_t *tres = calloc((size_t)n, sizeof *tres);
    int *pos = calloc((size_t)n, sizeof *pos), nt2 = 0;
    for (int ti = 0; ti < nt; ti++)
        for (int fi = 0; fi < 3; fi++)
            for (int v = 0; v < 3; v++)
                for (int s = 0; s < S; s++) {
                    int i = ((ti * 3 + fi) * 3 + v) * S + s, t = tasks[ti];
                    job_t *j = &jl[i];
                    job_init(j, J_EVAL);
                    j->task = t;
                    j->model = v == 0 ? M_NNLQP : M_TRAPPM;
                    j->enc = v == 0 ? -1 : enc_of[v - 1];
                    j->seed = (uint64_t)SEEDS(s);
                    j->frac = fr[fi];
                    snprintf(j->tag, sizeof j->tag, "%s %s %.0f%% seed %d",
                             v == 0 ? "NNLQP" : v == 1 ? "TraPPM+GAE" : "TraPPM+GraphMAE", TASK[t].target,
                             100 * fr[fi], SEEDS(s));
                    /* 100 % without / with GAE are the main runs */
                    if (fi == 0 && v < 2 && t <= T_LAT && MAIN_DONE && s < R.seeds && enc_of[0] == E_GAE) {
                        rl[i] = MAIN_RES[MIDX(t, v == 0 ? M_NNLQP : M_TRAPPM, s)];
                        continue;
                    }
                    todo[nt2] = *j;
                    pos[nt2++] = i;
                }
    printf("== %s: %d trainings (%d reused)\n", title, nt2, n - nt2);
    run_jobs(todo, tres, nt2);
    for (int q = 0; q < nt2; q++) rl[pos[q]] = tres[q];
    sb_t *b = &REP;
    sbf(b, "%s", what);
    sbf(b, "| target | labels | train samples | no pre-training (NNLQP) MAPE %% | TraPPM + GAE MAPE %% | "
           "TraPPM + GraphMAE MAPE %% | NNLQP tau | GAE tau | GraphMAE tau |\n|---|---|---|---|---|---|---|---|---|\n");
    for (int ti = 0; ti < nt; ti++)
        for (int fi = 0; fi < 3; fi++) {
            int base = ((ti * 3 + fi) * 3) * S, ntr = 0;
            for (int z = 0; z < 3 * S; z++)
                if (rl[base + z].ok) ntr = rl[base + z].n_train;
            sbf(b, "| %s | %.0f %% | %d |", TASK[tasks[ti]].target, 100 * fr[fi], ntr);
            double v[MAXSEEDS];
            for (int q = 0; q < 3; q++) {
                field(&rl[base + q * S], S, F_MAPE, v);
                cell(b, v, S, 2);
            }
            for (int q = 0; q < 3; q++) {
                field(&rl[base + q * S], S, F_TAU, v);
                cell(b, v, S, 3);
            }
            sbf(b, "\n");
        }
    const char *w = first_why(rl, n);
    if (w) sbf(b, "\nFirst error: `%s`\n", w);
    sbf(b, "\n");
    free(jl);
    free(rl);
    free(todo);
    free(tres);
    free(pos);
}

static void section_pays(void) {
    double t0 = now_s();
    static const int tasks[3] = {T_STEP, T_MEM, T_LAT};
    static const int enc[2] = {E_GAE, E_GMAE};
    char what[2048], sdp[64];
    snprintf(what, sizeof what,
             "## Does pre-training pay? (CPU measurements)\n\nThe same GNN (2 SAGE layers + 6 static features) "
             "without an encoder (NNLQP), with the frozen GAE and with the frozen GraphMAE encoder (same width and "
             "depth, pre-trained on the same corpus), trained on 100 %%, 30 %% and 10 %% of each split's training part "
             "(a seeded subset; the test part is unchanged; the same epochs, so fewer optimizer steps). Mean ± sd "
             "over %d split(s) (%s); the 100 %% NNLQP and GAE cells are the main runs%s.\n\n",
             R.pays_seeds, seeds_txt(R.pays_seeds, sdp, sizeof sdp),
             MAIN_DONE ? "" : " (not available: computed here)");
    pays_table(tasks, 3, enc, "does pre-training pay (CPU)", what);
    add_time("does pre-training pay (CPU sets)", now_s() - t0);
}

MAYBE_UNUSED static void enc_path(int slot, char *out, size_t n, int64_t corpus_n) {
    int method = (slot == E_GAE || slot == E_HELP_GAE) ? DLP_PRETRAIN_GAE : DLP_PRETRAIN_GRAPHMAE;
    int help = slot == E_HELP_GAE || slot == E_HELP_GMAE;
    snprintf(out, n, "%s/enc-%s-%s-h%d-l%d-e%d-b%d-n%lld-%016llx.dlpm", R.work, help ? "nb201" : "cpu",
             method == DLP_PRETRAIN_GAE ? "gae" : "graphmae", R.enc_hidden, R.enc_layers, R.enc_epochs, R.enc_batch,
             (long long)corpus_n, (unsigned long long)(help ? 0 : recipe_hash(0)));
}

/* pre-train (or load the cached) encoders of the given slots on corpus c */
static void pretrain_slots(const int *slots, int k, int corpus) {
    job_t js[4];
    res_t rs[4];
    int nj = 0, map[4];
    for (int q = 0; q < k; q++) {
        int slot = slots[q];
        if (!CORP[corpus]) {
            snprintf(ENC_WHY[slot], sizeof ENC_WHY[slot], "no corpus: %s", CORP_WHY[corpus]);
            continue;
        }
#if HAVE_PRETRAIN
        char p[1024];
        enc_path(slot, p, sizeof p, dlp_corpus_count(CORP[corpus]));
        dlp_error e = {0};
        if (access(p, R_OK) == 0 && dlp_encoder_load(p, &ENC[slot], &e) == DLP_OK) {
            ENC_CACHED[slot] = 1;
            printf("  encoder %s: cached %s\n", ENC_LABEL[slot], p);
            continue;
        }
        job_t *j = &js[nj];
        job_init(j, J_PRETRAIN);
        j->method = (slot == E_GAE || slot == E_HELP_GAE) ? DLP_PRETRAIN_GAE : DLP_PRETRAIN_GRAPHMAE;
        j->corpus = corpus;
        snprintf(j->path, sizeof j->path, "%s", p);
        snprintf(j->tag, sizeof j->tag, "pretrain %s", ENC_LABEL[slot]);
        map[nj++] = slot;
#else
        snprintf(ENC_WHY[slot], sizeof ENC_WHY[slot], "library built without src/learn/encoder.c");
#endif
    }
    if (nj) run_jobs(js, rs, nj);
    for (int q = 0; q < nj; q++) {
        int slot = map[q];
        ENC_SECS[slot] = rs[q].secs;
#if HAVE_PRETRAIN
        dlp_error e = {0};
        if (!rs[q].ok) snprintf(ENC_WHY[slot], sizeof ENC_WHY[slot], "%s", rs[q].why);
        else if (dlp_encoder_load(js[q].path, &ENC[slot], &e) != DLP_OK)
            snprintf(ENC_WHY[slot], sizeof ENC_WHY[slot], "load: %s", e.msg);
#endif
    }
}

static void enc_report(sb_t *b, const int *slots, int k) {
    sbf(b, "| encoder | graphs | parameters | final loss | pre-training time |\n|---|---|---|---|---|\n");
    for (int q = 0; q < k; q++) {
        int s = slots[q];
        if (!ENC[s]) {
            sbf(b, "| %s | — | — | — | failed: `%s` |\n", ENC_LABEL[s], ENC_WHY[s]);
            continue;
        }
#if HAVE_PRETRAIN
        dlp_encoder_info in;
        dlp_encoder_info_get(ENC[s], &in);
        char tm[96];
        if (s == E_RAND) snprintf(tm, sizeof tm, "— (not trained)");
        else if (ENC_CACHED[s]) snprintf(tm, sizeof tm, "cached (%.1f min when trained)", in.train_seconds / 60);
        else snprintf(tm, sizeof tm, "%.1f min", ENC_SECS[s] / 60);
        char fl[32] = "—";
        if (isfinite(in.final_loss)) snprintf(fl, sizeof fl, "%.4g", in.final_loss);
        sbf(b, "| %s | %lld | %lld | %s | %s |\n", ENC_LABEL[s], (long long)in.n_graphs, (long long)in.n_params, fl,
            tm);
#endif
    }
    sbf(b, "\n");
}

MAYBE_UNUSED static void corpus_warn(void *u, const char *msg) {
    (void)u;
    printf("  corpus: %s\n", msg);
}

static void open_corpus(int c, const char *const *src, int ns, const char *pack, int64_t max_graphs) {
#if HAVE_PRETRAIN
    dlp_corpus_opts co;
    memset(&co, 0, sizeof co);
    co.layout = DLP_LAYOUT_TRAPPM;
    co.batch = 1;
    co.max_graphs = max_graphs;
    co.max_nodes = R.corpus_max_nodes;
    co.warn = corpus_warn;
    dlp_error e = {0};
    double t0 = now_s();
    if (dlp_corpus_pack(src, ns, pack, &co, &CORP[c], &e) != DLP_OK) {
        snprintf(CORP_WHY[c], sizeof CORP_WHY[c], "%s", e.msg);
        CORP[c] = NULL;
        printf("  corpus: %s\n", e.msg);
    } else {
        printf("  corpus %s: %lld graphs (%lld skipped) in %.1f s\n", pack, (long long)dlp_corpus_count(CORP[c]),
               (long long)dlp_corpus_skipped(CORP[c]), now_s() - t0);
    }
#else
    (void)src;
    (void)ns;
    (void)pack;
    (void)max_graphs;
    snprintf(CORP_WHY[c], sizeof CORP_WHY[c], "library built without src/data/corpus.c");
#endif
}

static void section_help(void) {
    double t0 = now_s();
    sb_t *b = &REP;
    sbf(b, "## Does pre-training pay? HELP NAS-Bench-201 (%s)\n\n", R.help_device);
    if (!R.help_data || load_ds(D_HELP, R.help_data, "NB201") != 0) {
        sbf(b, "Skipped: no labelled NB201 set (%s).\n\n", R.help_data ? R.help_data : "--help-data not given");
        add_time("HELP NB201", now_s() - t0);
        return;
    }
    const char *src[1] = {"help-nb201"};
    char pack[1024];
    snprintf(pack, sizeof pack, "%s/corpus-nb201-n%lld.dlpc", R.work, (long long)R.help_corpus_max);
    open_corpus(C_HELP, src, 1, pack, R.help_corpus_max);
    static const int slots[2] = {E_HELP_GAE, E_HELP_GMAE};
    printf("== HELP NB201 encoders\n");
    pretrain_slots(slots, 2, C_HELP);
    char what[2048];
    snprintf(what, sizeof what,
             "Labels: the first %d cells of HELP's NB201 table (`dlperf dataset build --from help-nb201 --limit %d`), "
             "latency_ms of `%s`, executed graphs, one family, so the per-family split is a random 70/30. Unlabeled: "
             "the `help-nb201` corpus source, %s (it includes the labelled cells, as the thesis' supervised set is a "
             "subset of its unsupervised one). Encoders and GNNs use the recipe above; %d splits.\n\n",
             R.help_cells, R.help_cells, R.help_device,
             R.help_corpus_max > 0 && R.help_corpus_max < 15625 ? "subsampled for time to its first cells (see the "
                                                                  "count below)"
                                                                : "all 15,625 cells",
             R.pays_seeds);
    sbf(b, "%s", what);
    enc_report(b, slots, 2);
    static const int tasks[1] = {T_HELP};
    pays_table(tasks, 1, slots, "HELP NB201", "");
    add_time("HELP NB201 (corpus, encoders, trainings)", now_s() - t0);
}

/* ------------------------------------------------------------------ main */

static void usage(void) {
    printf("usage: bench_trappm --train F.dlpd --infer F.dlpd --work DIR --out-md F.md --out-svg F.svg\n"
           "       [--unlabeled DIR] [--help-data F.dlpd] [--mode quick|default|full] [--jobs N]\n"
           "       [--sections all|main,ablation,transfer,pays,help] [--command STR]\n"
           "       [--hidden N] [--epochs N] [--batch N] [--lr X] [--readout sum|mean|max|scaled-sum]\n"
           "       [--target-scale log-std|std|log|none] [--enc-hidden N] [--enc-layers N] [--enc-epochs N]\n"
           "       [--corpus-max N] [--seeds N] [--pays-seeds N] [--abl-seeds N] [--tr-seeds N] [--ft-epochs N]\n"
           "       [--xgb-grid 0|1|2] [--help-corpus-max N] [--help-cells N] [--help-device D]\n"
           "       [--noise step,latency,mem_train,mem_infer]\n");
}

static void set_mode(const char *m) {
    R.mode = m;
    R.lr = 1e-3;
    R.dropout = 0.05;
    R.scale = DLP_GNN_SCALE_LOG_STD;
    /* the plain sum made the GNNs' predictions diverge on these 20..6,107-node
     * graphs at the default epoch budget (docs: bench_trappm.sh header);
     * --full keeps the thesis' sum */
    R.readout = strcmp(m, "full") ? DLP_GNN_READOUT_SCALED_SUM : DLP_GNN_READOUT_SUM;
    R.ft_n = 32;
    R.help_device = "gold_6240";
    if (!strcmp(m, "quick")) {
        R.hidden = 16, R.epochs = 3, R.batch = 16;
        R.enc_hidden = 16, R.enc_layers = 2, R.enc_epochs = 2, R.enc_batch = 32;
        R.corpus_max = 120, R.corpus_max_nodes = 1500;
        R.seeds = 2, R.abl_seeds = 1, R.tr_seeds = 1, R.pays_seeds = 1;
        R.ft_epochs = 5, R.xgb_grid = 0;
        R.help_corpus_max = 200, R.help_cells = 100;
    } else if (!strcmp(m, "full")) {
        /* the thesis' values (GraphMAE at the GAE's width/depth so the two
         * compare like for like) */
        R.hidden = 512, R.epochs = 100, R.batch = 32;
        R.enc_hidden = 512, R.enc_layers = 4, R.enc_epochs = 400, R.enc_batch = 32;
        R.corpus_max = 0, R.corpus_max_nodes = 0;
        R.seeds = 5, R.abl_seeds = 5, R.tr_seeds = 5, R.pays_seeds = 5;
        R.ft_epochs = 100, R.xgb_grid = 2;
        R.help_corpus_max = 15625, R.help_cells = 1000;
    } else {
        /* sized for ~30-35 min on the quiet 2-vCPU VM with --jobs 2
         * (measured: one 50-epoch training at hidden 64 ~41 CPU-s, GAE
         * ~3.2 ms and GraphMAE ~6 ms per graph and epoch) */
        R.hidden = 64, R.epochs = 50, R.batch = 16;
        R.enc_hidden = 64, R.enc_layers = 3, R.enc_epochs = 30, R.enc_batch = 32;
        R.corpus_max = 2000, R.corpus_max_nodes = 3000;
        R.seeds = 5, R.abl_seeds = 3, R.tr_seeds = 5, R.pays_seeds = 5;
        R.ft_epochs = 60, R.xgb_grid = 1;
        R.help_corpus_max = 2000, R.help_cells = 300;
    }
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    T_START = now_s();
    const char *mode = "default";
    for (int i = 1; i + 1 < argc; i++)
        if (!strcmp(argv[i], "--mode")) mode = argv[i + 1];
    set_mode(mode);
    R.jobs = 2;
    R.noise_step = 22.81, R.noise_lat = 22.60, R.noise_mem_train = 0.07, R.noise_mem_infer = 0.02;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) {
            usage();
            return 0;
        }
        i++;
        if (!strcmp(a, "--mode")) continue;
        else if (!strcmp(a, "--train")) R.train_path = v;
        else if (!strcmp(a, "--infer")) R.infer_path = v;
        else if (!strcmp(a, "--unlabeled")) R.unlabeled = v;
        else if (!strcmp(a, "--help-data")) R.help_data = v;
        else if (!strcmp(a, "--work")) R.work = v;
        else if (!strcmp(a, "--out-md")) R.out_md = v;
        else if (!strcmp(a, "--out-svg")) R.out_svg = v;
        else if (!strcmp(a, "--command")) R.command = v;
        else if (!strcmp(a, "--sections")) R.sections = v;
        else if (!strcmp(a, "--jobs")) R.jobs = atoi(v);
        else if (!strcmp(a, "--hidden")) R.hidden = atoi(v);
        else if (!strcmp(a, "--epochs")) R.epochs = atoi(v);
        else if (!strcmp(a, "--batch")) R.batch = atoi(v);
        else if (!strcmp(a, "--lr")) R.lr = atof(v);
        else if (!strcmp(a, "--readout") && dlp_gnn_readout_parse(v) >= 0) R.readout = dlp_gnn_readout_parse(v);
        else if (!strcmp(a, "--target-scale") && dlp_gnn_scale_parse(v) >= 0) R.scale = dlp_gnn_scale_parse(v);
        else if (!strcmp(a, "--enc-hidden")) R.enc_hidden = atoi(v);
        else if (!strcmp(a, "--enc-layers")) R.enc_layers = atoi(v);
        else if (!strcmp(a, "--enc-epochs")) R.enc_epochs = atoi(v);
        else if (!strcmp(a, "--corpus-max")) R.corpus_max = atoll(v);
        else if (!strcmp(a, "--seeds")) R.seeds = atoi(v);
        else if (!strcmp(a, "--pays-seeds")) R.pays_seeds = atoi(v);
        else if (!strcmp(a, "--abl-seeds")) R.abl_seeds = atoi(v);
        else if (!strcmp(a, "--tr-seeds")) R.tr_seeds = atoi(v);
        else if (!strcmp(a, "--ft-epochs")) R.ft_epochs = atoi(v);
        else if (!strcmp(a, "--xgb-grid")) R.xgb_grid = atoi(v);
        else if (!strcmp(a, "--help-corpus-max")) R.help_corpus_max = atoll(v);
        else if (!strcmp(a, "--help-cells")) R.help_cells = atoi(v);
        else if (!strcmp(a, "--help-device")) R.help_device = v;
        else if (!strcmp(a, "--noise")) sscanf(v, "%lf,%lf,%lf,%lf", &R.noise_step, &R.noise_lat, &R.noise_mem_train, &R.noise_mem_infer);
        else {
            printf("bench_trappm: unknown option %s\n", a);
            usage();
            return 0;
        }
    }
    if (!R.work || !R.out_md || !R.out_svg || !R.train_path || !R.infer_path) {
        usage();
        return 0;
    }
    R.seeds = R.seeds < 1 ? 1 : R.seeds > MAXSEEDS ? MAXSEEDS : R.seeds;
    R.abl_seeds = R.abl_seeds < 1 ? 1 : R.abl_seeds > MAXSEEDS ? MAXSEEDS : R.abl_seeds;
    R.tr_seeds = R.tr_seeds < 1 ? 1 : R.tr_seeds > MAXSEEDS ? MAXSEEDS : R.tr_seeds;
    R.pays_seeds = R.pays_seeds < 1 ? 1 : R.pays_seeds > MAXSEEDS ? MAXSEEDS : R.pays_seeds;
    R.jobs = R.jobs < 1 ? 1 : R.jobs > 64 ? 64 : R.jobs;
    if (R.epochs > MAXEP) R.epochs = MAXEP;
    openblas_set_num_threads(1);
    mkdir(R.work, 0755);

    double t0 = now_s();
    if (load_ds(D_TRAIN, R.train_path, "training set") || load_ds(D_INFER, R.infer_path, "inference set")) {
        printf("bench_trappm: the labelled sets are needed; nothing to do\n");
        return 0;
    }
    double la[3] = {0};
    FILE *lf = fopen("/proc/loadavg", "r");
    if (lf) {
        if (fscanf(lf, "%lf %lf %lf", &la[0], &la[1], &la[2]) != 3) la[0] = NAN;
        fclose(lf);
    }

    /* corpus: the unlabeled graphs plus the labelled graphs without labels
     * (the inference set holds every graph of the training set too) */
    printf("== corpus and encoders\n");
    const char *srcs[2];
    int ns = 0;
    struct stat st;
    if (R.unlabeled && stat(R.unlabeled, &st) == 0) srcs[ns++] = R.unlabeled;
    else printf("  unlabeled corpus %s missing: labelled graphs only\n", R.unlabeled ? R.unlabeled : "(none)");
    srcs[ns++] = R.infer_path;
    char pack[1024];
    snprintf(pack, sizeof pack, "%s/corpus-cpu-n%lld-m%lld.dlpc", R.work, (long long)R.corpus_max,
             (long long)R.corpus_max_nodes);
    open_corpus(C_CPU, srcs, ns, pack, R.corpus_max);
    double t_corpus = now_s() - t0;
    static const int cpu_slots[2] = {E_GAE, E_GMAE};
    double t1 = now_s();
    pretrain_slots(cpu_slots, 2, C_CPU);
#if HAVE_PRETRAIN
    {
        dlp_pretrain_opts po;
        pretrain_recipe(&po, DLP_PRETRAIN_GAE);
        dlp_error e = {0};
        if (dlp_encoder_new(&po, DLP_LAYOUT_TRAPPM, &ENC[E_RAND], &e) != DLP_OK)
            snprintf(ENC_WHY[E_RAND], sizeof ENC_WHY[E_RAND], "%s", e.msg);
    }
#else
    snprintf(ENC_WHY[E_RAND], sizeof ENC_WHY[E_RAND], "library built without src/learn/encoder.c");
#endif
    double t_pre = now_s() - t1;

    /* ---- the head: command, machine, recipe, data ---- */
    sb_t h = {0};
    time_t now = time(NULL);
    char date[64];
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&now));
    sbf(&h, "# TraPPM (thesis chapter 5) on dlperf's CPU measurements\n\n");
    sbf(&h, "Generated by `%s` on %s (%ld cores, load average %.2f at the start, %d training process(es) at once, "
            "1 BLAS thread each). Do not edit: rerun the script.%s\n\n",
        R.command ? R.command : "bench_trappm", date, sysconf(_SC_NPROCESSORS_ONLN), la[0], R.jobs,
        strcmp(R.mode, "quick") ? "" : " **Quick smoke-test settings: the numbers mean nothing.**");
    sbf(&h, "## Recipe actually used (`%s` settings)\n\n| setting | used here | thesis |\n|---|---|---|\n", R.mode);
    sbf(&h, "| GNN hidden width (SAGE convs and FC) | %d | 512 |\n", R.hidden);
    sbf(&h, "| SAGE layers / FC layers / readout | 2 / 2 / %s%s | 2 / 2 / sum |\n", dlp_gnn_readout_name(R.readout),
        R.readout == DLP_GNN_READOUT_SCALED_SUM
            ? " (sum / mean node count of the training graphs: the plain sum made NNLQP's predictions diverge on "
              "these 20-6,107-node graphs at this epoch budget; `-- --readout sum` for the thesis' choice)"
            : "");
    sbf(&h, "| epochs (TraPPM, NNLQP, MLP) | %d | 100 |\n", R.epochs);
    sbf(&h, "| optimizer, loss | Adam lr %g, MSE, batch %d graphs, dropout %g | Adam lr 1e-3, MSE (batch not given) |\n",
        R.lr, R.batch, R.dropout);
    sbf(&h, "| target scaling | %s (ln, standardised on the training part; undone for the metrics) | raw units "
            "(the ablation's losses 1.26e4 → 682 ms² suggest so) |\n", dlp_gnn_scale_name(R.scale));
    sbf(&h, "| static features | batch, nodes, edges, macs, params, memory (log1p, standardised) | the same six |\n");
    sbf(&h, "| node features | trappm layout (%d columns) | TraPPM's one-hot + shapes |\n",
        dlp_layout_width(DLP_LAYOUT_TRAPPM));
    sbf(&h, "| encoder (GAE; GraphMAE the same width/depth) | hidden %d, %d layers, %d epochs, batch %d, library "
            "defaults otherwise (lr 5e-4, dropout, 1 negative per edge) | GAE 512 wide, 4 layers, 400 epochs, lr 5e-4 "
            "(GraphMAE 1024, 5, 500) |\n", R.enc_hidden, R.enc_layers, R.enc_epochs, R.enc_batch);
    if (ns == 2)
        sbf(&h, "| unlabeled corpus | `%s` + the labelled graphs (inference set, labels unused)%s%s | 25,053 timm "
                "models (A100 set ⊂ it) |\n",
            R.unlabeled, R.corpus_max ? "; at most the cap's count, the first graphs read" : "",
            R.corpus_max_nodes ? "; graphs above the node cap left out" : "");
    else
        sbf(&h, "| unlabeled corpus | **no unlabeled graphs** (`%s` missing): the labelled graphs alone (inference "
                "set, labels unused)%s | 25,053 timm models (A100 set ⊂ it) |\n",
            R.unlabeled ? R.unlabeled : "--unlabeled", R.corpus_max_nodes ? "; graphs above the node cap left out" : "");
    sbf(&h, "| corpus caps | max %lld graphs, max %lld nodes per graph (0 = none) | none |\n", (long long)R.corpus_max,
        (long long)R.corpus_max_nodes);
    sbf(&h, "| splits | per family 70/30, seeds %d..%d (%d); ablation %d, transfer %d, pre-training study %d | per "
            "family 70/30, seeds 1337..1341 |\n",
        SEEDS(0), SEEDS(R.seeds - 1), R.seeds, R.abl_seeds, R.tr_seeds, R.pays_seeds);
    {
        int np = xgb_grid(NULL);
        sbf(&h, "| GBoost | XGBoost on log1p of the six static features, ln target; grid of %d: %s; picked on an inner "
                "per-family 75/25 split of the training part, refitted on all of it | grid n_estimators {500, 1000, "
                "2000} × lr {1e-3, 1e-4} × max_depth {10, 30, 50} × subsample {.5, .75, 1} × colsample {.5, .75, 1} |\n",
            np,
            R.xgb_grid == 0 ? "n_estimators 100, lr {0.1, 1e-3}, max_depth 6 (smoke test)"
            : R.xgb_grid == 1 ? "(lr, n_estimators) {(0.1, 300), (1e-3, 2000)} × max_depth {6, 50} × subsample {.75, 1}; "
                                "lr 0.1 and depth 6 added (not in the thesis' grid), colsample_bytree 1 (not "
                                "exposed by dlp_xgb)"
                              : "n_estimators {500, 1000, 2000} × lr {0.1, 1e-3, 1e-4} × max_depth {10, 30, 50} × "
                                "subsample {.5, .75, 1}; lr 0.1 added, colsample_bytree 1 (not exposed by dlp_xgb)");
    }
    sbf(&h, "| transfer | %d labels, %d epochs fine-tuning / from scratch | V100 set: 543 models |\n", R.ft_n, R.ft_epochs);
    sbf(&h, "\nThe thesis trained on an A100 with a 7,536-model supervised set of 11 timm families; here: one 2-vCPU "
            "VM, ~390 measurements of 133 torchvision-family models (20 families), so absolute numbers are not "
            "comparable — the thesis' values are printed for reference only.\n\n");
    sbf(&h, "## Data\n\n| set | file | samples | families | targets |\n|---|---|---|---|---|\n");
    for (int d = 0; d < 2; d++) {
        sbf(&h, "| %s | `%s` | %d | %d |", DS[d].label, d ? R.infer_path : R.train_path, DS[d].n, DS[d].nf);
        for (int k = 0; k < dlp_dataset_target_count(DS[d].ds); k++)
            sbf(&h, " %s", dlp_dataset_target_at(DS[d].ds, k));
        sbf(&h, " |\n");
    }
    sbf(&h, "\nMeasurement noise of these targets (`dlperf data stats data/cpu/runs.sqlite`: the same configuration "
            "measured again later, repeat CV median): step time %.1f %%, latency %.1f %%, memory %.2f %% (training) / "
            "%.2f %% (inference). A predictor's MAPE on the times cannot be expected far below ~20 %%; memory_mb "
            "includes the ~149 MB of the measuring Python+torch process.\n\n",
        R.noise_step, R.noise_lat, R.noise_mem_train, R.noise_mem_infer);
    sbf(&h, "Unlabeled corpus for pre-training: ");
#if HAVE_PRETRAIN
    if (CORP[C_CPU])
        sbf(&h, "%lld graphs (%lld sources skipped), pack `%s`.\n\n", (long long)dlp_corpus_count(CORP[C_CPU]),
            (long long)dlp_corpus_skipped(CORP[C_CPU]), pack);
    else
        sbf(&h, "not available (`%s`).\n\n", CORP_WHY[C_CPU]);
#else
    sbf(&h, "not available (library built without the corpus).\n\n");
#endif
    enc_report(&h, (const int[]){E_GAE, E_GMAE, E_RAND}, 3);
    snprintf(REP_HEAD, sizeof REP_HEAD, "%s", h.s ? h.s : "");
    free(h.s);
    double cpu_pre = CPU_ACC;
    CPU_ACC = 0;
    add_time("load data, open the corpus", t_corpus);
    CPU_ACC = cpu_pre;
    add_time("pre-train the GAE and GraphMAE encoders", t_pre);
    flush_report(0);

    if (section_on("main")) {
        section_main();
        flush_report(0);
    }
    if (section_on("ablation")) {
        section_ablation();
        flush_report(0);
    }
    if (section_on("transfer")) {
        section_transfer();
        flush_report(0);
    }
    if (section_on("pays")) {
        section_pays();
        flush_report(0);
    }
    if (section_on("help")) {
        section_help();
        flush_report(0);
    }
    flush_report(1);
    printf("bench_trappm: report %s (%.1f min)\n", R.out_md, (now_s() - T_START) / 60);
    for (int e = 0; e < E_COUNT; e++)
        if (ENC[e]) {
#if HAVE_PRETRAIN
            dlp_encoder_free(ENC[e]);
#endif
        }
    for (int s = 0; s < S_COUNT; s++) dlp_gnn_free(SRC[s]);
    for (int c = 0; c < C_COUNT; c++)
        if (CORP[c]) {
#if HAVE_PRETRAIN
            dlp_corpus_close(CORP[c]);
#endif
        }
    return 0;
}
