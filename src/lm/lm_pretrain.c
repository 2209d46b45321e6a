/*
 * lm_pretrain.c — next-token pre-training of the language model on a text
 * corpus (lmtext.h, docs/gnnlm.md).
 *
 * The corpus is every *.txt of a folder (sorted by name), cut into
 * documents at empty lines.  Document i is held out when i % 50 == 49 (with
 * fewer than 50 documents: the last one).  The tokenizer is trained on an
 * evenly spaced sample of the training documents, then each document is
 * encoded as <bos> text <eos> into one stream per side.
 *
 * Step s trains on B rows of T tokens starting at positions drawn by a
 * generator seeded from (seed, s) alone, with the learning rate of step s
 * (linear warm-up, then cosine to a tenth), AdamW and gradient clipping at
 * 1.  Nothing else carries state between steps, so a run resumed from a
 * checkpoint (model, tokenizer, Adam moments, step) takes exactly the steps
 * of a run that never stopped.  Checkpoints are written atomically.
 */
#include <cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lm/lm.h"
#include "lm/lmtext.h"
#include "util/util.h"

typedef struct {
    const char *name;
    int vocab, dim, layers, heads, kv, ffn, seq, batch;
    double lr;
} lm_size;

static const lm_size sizes[] = {
    {"tiny", 512, 32, 2, 4, 2, 88, 64, 4, 3e-3},
    {"small", 2048, 64, 2, 4, 2, 176, 128, 8, 3e-3},
    {"1m", 4096, 128, 3, 4, 2, 344, 256, 8, 2e-3},
    {"5m", 4096, 256, 5, 8, 4, 688, 256, 8, 1e-3},
};

typedef struct {
    char *text;                 /* all files, concatenated                      */
    size_t len;
    int64_t n_docs;
    size_t *doc_off, *doc_len;
    int64_t cap;
} corpus_t;

static void corpus_free(corpus_t *c) {
    free(c->text);
    free(c->doc_off);
    free(c->doc_len);
}

static int name_cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static dlp_status add_doc(corpus_t *c, size_t off, size_t len) {
    /* trim leading and trailing newlines; empty documents are dropped */
    while (len && c->text[off] == '\n') off++, len--;
    while (len && c->text[off + len - 1] == '\n') len--;
    if (!len) return DLP_OK;
    if (c->n_docs == c->cap) {
        int64_t nc = c->cap ? 2 * c->cap : 1024;
        size_t *a = realloc(c->doc_off, (size_t)nc * sizeof *a), *b;
        if (!a) return DLP_ENOMEM;
        c->doc_off = a;
        if (!(b = realloc(c->doc_len, (size_t)nc * sizeof *b))) return DLP_ENOMEM;
        c->doc_len = b;
        c->cap = nc;
    }
    c->doc_off[c->n_docs] = off;
    c->doc_len[c->n_docs++] = len;
    return DLP_OK;
}

static dlp_status corpus_read(const char *dir, corpus_t *c, dlp_error *err) {
    memset(c, 0, sizeof *c);
    DIR *d = opendir(dir);
    if (!d) return dlp__err(err, DLP_EIO, "%s: cannot open the corpus folder (%s)", dir, strerror(errno));
    char **names = NULL;
    int n = 0, cap = 0;
    struct dirent *de;
    dlp_status st = DLP_OK;
    while ((de = readdir(d))) {
        size_t l = strlen(de->d_name);
        if (de->d_name[0] == '.' || l < 5 || strcmp(de->d_name + l - 4, ".txt")) continue;
        if (dlp__grow((void **)&names, n + 1, &cap, sizeof *names) || !(names[n] = strdup(de->d_name))) {
            st = dlp__err(err, DLP_ENOMEM, "%s: out of memory", dir);
            break;
        }
        n++;
    }
    closedir(d);
    if (st == DLP_OK && n == 0) st = dlp__err(err, DLP_EINVAL, "%s: no .txt files in the corpus folder", dir);
    if (st == DLP_OK) qsort(names, (size_t)n, sizeof *names, name_cmp);
    for (int i = 0; i < n && st == DLP_OK; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        dlp__mapped mp;
        if ((st = dlp__map_file(path, &mp, err)) != DLP_OK) break;
        const void *nul = memchr(mp.data, 0, mp.len);
        if (nul) {
            st = dlp__err(err, DLP_EFORMAT, "%s: not a text file (NUL byte at offset %zu)", path,
                          (size_t)((const uint8_t *)nul - (const uint8_t *)mp.data));
            dlp__unmap_file(&mp);
            break;
        }
        char *nt = realloc(c->text, c->len + mp.len + 3);
        if (!nt) {
            dlp__unmap_file(&mp);
            st = dlp__err(err, DLP_ENOMEM, "%s: out of memory", path);
            break;
        }
        c->text = nt;
        size_t base = c->len;
        if (mp.len) memcpy(c->text + base, mp.data, mp.len);
        c->len += mp.len;
        c->text[c->len++] = '\n';   /* a file ends a document */
        c->text[c->len++] = '\n';
        c->text[c->len] = 0;
        dlp__unmap_file(&mp);
        /* documents: runs separated by an empty line */
        size_t s = base;
        for (size_t p = base; p + 1 < c->len; p++) {
            if (c->text[p] == '\n' && c->text[p + 1] == '\n') {
                if (p > s && (st = add_doc(c, s, p - s)) != DLP_OK) break;
                while (p + 1 < c->len && c->text[p + 1] == '\n') p++;
                s = p + 1;
            }
        }
        if (st == DLP_OK && s < c->len) st = add_doc(c, s, c->len - s);
        if (st != DLP_OK) dlp__err(err, st, "%s: out of memory", path);
    }
    for (int i = 0; i < n; i++) free(names[i]);
    free(names);
    if (st == DLP_OK && c->n_docs < 2)
        st = dlp__err(err, DLP_EINVAL, "%s: the corpus has %lld documents; at least 2 are needed (one is held out)",
                      dir, (long long)c->n_docs);
    if (st != DLP_OK) corpus_free(c);
    return st;
}

static int held_out(int64_t i, int64_t n) { return n < 50 ? i == n - 1 : i % 50 == 49; }

typedef struct {
    int32_t *ids;
    int64_t n, cap;
    int64_t bytes;
} stream_t;

static dlp_status stream_add(stream_t *s, const int32_t *ids, int n) {
    if (s->n + n + 2 > s->cap) {
        int64_t nc = s->cap ? s->cap : 1 << 16;
        while (nc < s->n + n + 2) nc *= 2;
        int32_t *p = realloc(s->ids, (size_t)nc * sizeof *p);
        if (!p) return DLP_ENOMEM;
        s->ids = p;
        s->cap = nc;
    }
    s->ids[s->n++] = DLP__BPE_BOS;
    memcpy(s->ids + s->n, ids, (size_t)n * sizeof *ids);
    s->n += n;
    s->ids[s->n++] = DLP__BPE_EOS;
    return DLP_OK;
}

static double lr_at(int64_t s, int64_t steps, int64_t warmup, double lr) {
    if (s < warmup) return lr * (double)(s + 1) / (double)warmup;
    double p = steps > warmup ? (double)(s - warmup) / (double)(steps - warmup) : 1.0;
    if (p > 1) p = 1;
    double lo = 0.1 * lr;
    return lo + 0.5 * (lr - lo) * (1.0 + cos(3.14159265358979323846 * p));
}

/* Rows of step s: starts in [0, n - T - 1]. */
static void fill_batch(const stream_t *tr, uint64_t seed, int64_t s, int B, int T, int32_t *tok, int32_t *tgt) {
    dlp__nn_rng r;
    dlp__nn_rng_seed(&r, seed * 0x9E3779B97F4A7C15ull + (uint64_t)s + 1);
    uint64_t span = (uint64_t)(tr->n - T - 1) + 1;
    for (int b = 0; b < B; b++) {
        uint64_t st = dlp__nn_rng_u64(&r) % span;
        for (int t = 0; t < T; t++) {
            tok[b * T + t] = tr->ids[st + (uint64_t)t];
            tgt[b * T + t] = tr->ids[st + (uint64_t)t + 1];
        }
    }
}

/* Mean loss over up to max_rows non-overlapping rows of the held-out stream. */
static dlp_status evaluate(dlp__lm *m, dlp__nn_ws *ws, const stream_t *ho, int B, int T, int64_t max_rows,
                           double *loss, int64_t *tokens, dlp_error *err) {
    int64_t rows = (ho->n - 1) / T;
    if (rows > max_rows) rows = max_rows;
    int32_t *tok = malloc((size_t)B * T * sizeof *tok), *tgt = malloc((size_t)B * T * sizeof *tgt);
    if (!tok || !tgt) {
        free(tok);
        free(tgt);
        return dlp__err(err, DLP_ENOMEM, "evaluate: out of memory");
    }
    double sum = 0;
    int64_t cnt = 0;
    dlp_status st = DLP_OK;
    for (int64_t r0 = 0; r0 < rows && st == DLP_OK; r0 += B) {
        int nb = (int)(rows - r0 < B ? rows - r0 : B);
        for (int b = 0; b < nb; b++)
            for (int t = 0; t < T; t++) {
                tok[b * T + t] = ho->ids[(r0 + b) * T + t];
                tgt[b * T + t] = ho->ids[(r0 + b) * T + t + 1];
            }
        dlp__nn_ws_reset(ws);
        dlp__lm_batch bt = {nb, T, tok, tgt, NULL};
        double l;
        if ((st = dlp__lm_forward(m, ws, &bt, &l, err)) != DLP_OK) break;
        sum += l * nb * T;
        cnt += (int64_t)nb * T;
    }
    free(tok);
    free(tgt);
    *loss = cnt ? sum / (double)cnt : NAN;
    *tokens = cnt;
    return st;
}

static void note(const dlp__lm_pretrain_opts *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(const dlp__lm_pretrain_opts *o, const char *fmt, ...) {
    if (!o->note) return;
    char m[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m, sizeof m, fmt, ap);
    va_end(ap);
    o->note(o->note_user, m);
}

typedef struct {
    int64_t step, steps, warmup, ckpt_every;
    double lr;
    int batch, seq;
    uint64_t seed;
    int64_t docs, bytes;
} train_state;

static char *state_json(const train_state *t) {
    char *s = malloc(512);
    if (!s) return NULL;
    snprintf(s, 512,
             "{\"step\":%lld,\"steps\":%lld,\"warmup\":%lld,\"lr\":%.17g,\"batch\":%d,\"seq\":%d,"
             "\"seed\":\"%llu\",\"corpus_docs\":%lld,\"corpus_bytes\":%lld}",
             (long long)t->step, (long long)t->steps, (long long)t->warmup, t->lr, t->batch, t->seq,
             (unsigned long long)t->seed, (long long)t->docs, (long long)t->bytes);
    return s;
}

static int state_parse(const char *js, train_state *t) {
    cJSON *r = cJSON_Parse(js);
    if (!r) return -1;
    const char *keys[] = {"step", "steps", "warmup", "lr", "batch", "seq", "corpus_docs", "corpus_bytes"};
    double v[8];
    int ok = 1;
    for (int i = 0; i < 8; i++) {
        const cJSON *x = cJSON_GetObjectItemCaseSensitive(r, keys[i]);
        if (!cJSON_IsNumber(x)) ok = 0;
        else v[i] = x->valuedouble;
    }
    const cJSON *sd = cJSON_GetObjectItemCaseSensitive(r, "seed");
    if (!cJSON_IsString(sd)) ok = 0;
    if (ok) {
        t->step = (int64_t)v[0];
        t->steps = (int64_t)v[1];
        t->warmup = (int64_t)v[2];
        t->lr = v[3];
        t->batch = (int)v[4];
        t->seq = (int)v[5];
        t->docs = (int64_t)v[6];
        t->bytes = (int64_t)v[7];
        t->seed = strtoull(sd->valuestring, NULL, 10);
    }
    cJSON_Delete(r);
    return ok ? 0 : -1;
}

static dlp_status save_ckpt(const dlp__lm *m, const dlp__bpe *tok, const dlp__nn_adam *opt, const train_state *t,
                            const char *path, dlp_error *err) {
    char *js = state_json(t);
    if (!js) return dlp__err(err, DLP_ENOMEM, "checkpoint: out of memory");
    dlp_status st = dlp__lm_save_ex(m, tok, opt, js, path, err);
    free(js);
    return st;
}

/* A pre-training run's state across the steps below. */
typedef struct {
    const dlp__lm_pretrain_opts *o;
    dlp__lm_pretrain_report *rep;
    const lm_size *sz;
    corpus_t c;
    dlp__lm m;
    dlp__bpe tok;
    dlp__nn_adam opt;
    dlp__nn_ws ws;
    stream_t tr, ho;            /* training and held-out token streams */
    int32_t *btok, *btgt;       /* a batch's tokens and next tokens */
    train_state ts;
    double t_start, t_train, t_pace, budget;
    double loss_win[20];        /* the losses of the last 20 steps */
    int nwin;
    int64_t first;              /* the step this run started at */
} pretrainer;

/* Continue from the checkpoint: its training state, which must be of this
 * corpus, the model, its tokenizer and the optimiser's state. */
static dlp_status resume(pretrainer *P, dlp_error *err) {
    const dlp__lm_pretrain_opts *o = P->o;
    char *js = NULL;
    dlp_status st = dlp__lm_train_state(o->checkpoint, &js, err);
    if (st != DLP_OK) return st;
    train_state fs;
    int bad = !js || state_parse(js, &fs) != 0;
    free(js);
    if (bad) return dlp__err(err, DLP_EFORMAT, "%s: not a pre-training checkpoint (no training state)", o->checkpoint);
    if (fs.docs != P->ts.docs || fs.bytes != P->ts.bytes)
        return dlp__err(err, DLP_EINVAL, "%s: checkpoint of a corpus of %lld documents / %lld bytes, %s has %lld / %lld",
                        o->checkpoint, (long long)fs.docs, (long long)fs.bytes, o->corpus, (long long)P->ts.docs,
                        (long long)P->ts.bytes);
    if ((st = dlp__lm_load(o->checkpoint, NULL, 0, &P->m, &P->tok, &P->opt, err)) != DLP_OK) return st;
    if (P->opt.n == 0) return dlp__err(err, DLP_EFORMAT, "%s: the checkpoint has no optimizer state", o->checkpoint);
    P->ts = fs;
    note(o, "resumed %s at step %lld of %lld", o->checkpoint, (long long)P->ts.step, (long long)P->ts.steps);
    return DLP_OK;
}

/* The tokenizer, trained on an evenly spaced sample of the training
 * documents (bpe_bytes of them, 2 MB by default). */
static dlp_status train_tokenizer(pretrainer *P, dlp_error *err) {
    const corpus_t *c = &P->c;
    size_t want = P->o->bpe_bytes ? P->o->bpe_bytes : (size_t)2 << 20, train_bytes = 0;
    for (int64_t i = 0; i < c->n_docs; i++)
        if (!held_out(i, c->n_docs)) train_bytes += c->doc_len[i] + 2;
    int64_t stride = (int64_t)(train_bytes / want) + 1;
    dlp__sb sample = {0};
    for (int64_t i = 0, k = 0; i < c->n_docs; i++) {
        if (held_out(i, c->n_docs)) continue;
        if (k++ % stride == 0) dlp__sb_printf(&sample, "%.*s\n\n", (int)c->doc_len[i], c->text + c->doc_off[i]);
    }
    if (sample.oom) {
        dlp__sb_free(&sample);
        return dlp__err(err, DLP_ENOMEM, "tokenizer: out of memory");
    }
    double t0 = dlp__now_s();
    dlp_status st = dlp__bpe_train(&P->tok, sample.s, sample.len, P->sz->vocab - DLP__BPE_FIRST_MERGE, err);
    note(P->o, "tokenizer: %d merges from %.2f MB of text in %.1f s", P->tok.n_merges, sample.len / 1e6,
         dlp__now_s() - t0);
    dlp__sb_free(&sample);
    return st;
}

/* A new run: the tokenizer, the model of the config's size, the training
 * state from the options (or the config's defaults) and the optimiser. */
static dlp_status start_fresh(pretrainer *P, dlp_error *err) {
    const dlp__lm_pretrain_opts *o = P->o;
    const lm_size *sz = P->sz;
    dlp_status st = train_tokenizer(P, err);
    if (st) return st;
    dlp__lm_config mc = dlp__lm_config_default(P->tok.vocab, sz->dim, sz->layers, sz->heads, sz->kv, sz->ffn,
                                               o->seq > 0 ? o->seq : sz->seq);
    if ((st = dlp__lm_init(&P->m, &mc, o->seed + 1, err)) != DLP_OK) return st;
    train_state *ts = &P->ts;
    ts->lr = o->lr > 0 ? o->lr : sz->lr;
    ts->batch = o->batch > 0 ? o->batch : sz->batch;
    ts->seq = mc.max_seq;
    ts->seed = o->seed;
    ts->steps = o->steps;
    ts->warmup = o->warmup;
    if ((st = dlp__nn_adam_init(&P->opt, &P->m.ps, (float)ts->lr, 0.9f, 0.95f, 1e-8f, 0.1f, 1)) != DLP_OK)
        return dlp__err(err, st, "pretrain: out of memory for the optimizer");
    return DLP_OK;
}

/* Every document encoded into the training or the held-out stream. */
static dlp_status encode_corpus(pretrainer *P, dlp_error *err) {
    const corpus_t *c = &P->c;
    double t0 = dlp__now_s();
    for (int64_t i = 0; i < c->n_docs; i++) {
        int32_t *ids;
        int n;
        dlp_status st = dlp__bpe_encode(&P->tok, c->text + c->doc_off[i], c->doc_len[i], 0, &ids, &n, err);
        if (st != DLP_OK) return st;
        stream_t *s = held_out(i, c->n_docs) ? &P->ho : &P->tr;
        st = stream_add(s, ids, n);
        s->bytes += (int64_t)c->doc_len[i];
        free(ids);
        if (st) return dlp__err(err, st, "pretrain: out of memory encoding the corpus");
        if (held_out(i, c->n_docs)) P->rep->heldout_docs++;
    }
    note(P->o, "corpus: %lld documents (%lld held out), %.2f MB; %lld training tokens, %lld held-out tokens "
               "(%.2f bytes/token), encoded in %.1f s",
         (long long)c->n_docs, (long long)P->rep->heldout_docs, c->len / 1e6, (long long)P->tr.n, (long long)P->ho.n,
         (double)P->tr.bytes / (double)(P->tr.n ? P->tr.n : 1), dlp__now_s() - t0);
    return DLP_OK;
}

/* Enough tokens for a row, the batch buffers, the clocks, and a length:
 * steps or a time budget. */
static dlp_status prepare_steps(pretrainer *P, dlp_error *err) {
    const dlp__lm_pretrain_opts *o = P->o;
    int B = P->ts.batch, T = P->ts.seq;
    if (P->tr.n < T + 2)
        return dlp__err(err, DLP_EINVAL, "%s: %lld training tokens, fewer than one row of %d", o->corpus,
                        (long long)P->tr.n, T + 1);
    if (P->ho.n < T + 1)
        note(o, "held-out side has %lld tokens, less than one row of %d: no held-out loss", (long long)P->ho.n, T + 1);
    P->btok = malloc((size_t)B * T * sizeof *P->btok);
    P->btgt = malloc((size_t)B * T * sizeof *P->btgt);
    if (!P->btok || !P->btgt) return dlp__err(err, DLP_ENOMEM, "pretrain: out of memory");
    P->budget = o->minutes > 0 ? o->minutes * 60.0 : INFINITY;
    P->t_train = P->t_pace = dlp__now_s();
    P->first = P->ts.step;
    if (P->ts.steps <= 0 && !(o->minutes > 0))
        return dlp__err(err, DLP_EINVAL, "pretrain: give a number of steps or a time budget");
    return DLP_OK;
}

/* The learning rate of the next step.  With only a time budget the
 * schedule's length is fixed from the pace of steps 2-4 of this run (the
 * first one grows the arena); the warm-up is 2 % of it unless given. */
static double next_lr(pretrainer *P) {
    train_state *ts = &P->ts;
    if (ts->steps <= 0 && ts->step - P->first == 1) P->t_pace = dlp__now_s();
    if (ts->steps <= 0 && ts->step - P->first == 4) {
        double per = (dlp__now_s() - P->t_pace) / 3.0;
        ts->steps = ts->step + (int64_t)((P->budget - (dlp__now_s() - P->t_start)) / per);
        if (ts->steps < ts->step + 1) ts->steps = ts->step + 1;
        note(P->o, "schedule: %lld steps in the %.1f-minute budget (%.0f ms per step)", (long long)ts->steps,
             P->o->minutes, 1e3 * per);
    }
    if (ts->warmup <= 0 && ts->steps > 0) {
        ts->warmup = ts->steps / 50;
        if (ts->warmup < 1) ts->warmup = 1;
    }
    int64_t wu = ts->warmup > 0 ? ts->warmup : 1;
    return lr_at(ts->step, ts->steps > 0 ? ts->steps : ts->step + 1000000, wu, ts->lr);
}

/* One optimiser step, its progress report and, when due (or stopping),
 * the checkpoint; *done at the schedule's end or a stop. */
static dlp_status train_step(pretrainer *P, int *done, dlp_error *err) {
    const dlp__lm_pretrain_opts *o = P->o;
    train_state *ts = &P->ts;
    if (ts->steps > 0 && ts->step >= ts->steps) {
        *done = 1;
        return DLP_OK;
    }
    int B = ts->batch, T = ts->seq;
    double lr = next_lr(P);
    fill_batch(&P->tr, ts->seed, ts->step, B, T, P->btok, P->btgt);
    dlp__nn_ws_reset(&P->ws);
    dlp__lm_batch bt = {B, T, P->btok, P->btgt, NULL};
    double loss;
    dlp_status st = dlp__lm_forward(&P->m, &P->ws, &bt, &loss, err);
    if (st != DLP_OK) return st;
    dlp__nn_zero_grad(&P->m.ps);
    if ((st = dlp__lm_backward(&P->m, &P->ws, NULL, NULL)) != DLP_OK)
        return dlp__err(err, st, "pretrain: backward failed");
    dlp__nn_clip_grad_norm(&P->m.ps, 1.0);
    P->opt.lr = (float)lr;
    dlp__nn_adam_step(&P->opt, &P->m.ps);
    ts->step++;
    P->rep->tokens_seen += (int64_t)B * T;
    P->loss_win[P->nwin++ % 20] = loss;
    double el = dlp__now_s() - P->t_train;
    int stop = o->progress && o->progress(o->progress_user, ts->step, ts->steps, loss, lr,
                                          (double)P->rep->tokens_seen / (el > 0 ? el : 1e-9), el);
    if (dlp__now_s() - P->t_start >= P->budget) stop = 1;
    if (o->stop_after > 0 && ts->step - P->first >= o->stop_after) stop = 1;
    int last = ts->steps > 0 && ts->step >= ts->steps;
    if ((stop || last || ts->step % ts->ckpt_every == 0) &&
        (st = save_ckpt(&P->m, &P->tok, &P->opt, ts, o->checkpoint, err)) != DLP_OK)
        return st;
    if (stop && !last) {
        P->rep->stopped = 1;
        *done = 1;
    }
    return DLP_OK;
}

/* The report (pace, recent training loss, the held-out loss, perplexity
 * and bits per byte) and the model written. */
static dlp_status finish(pretrainer *P, dlp_error *err) {
    dlp__lm_pretrain_report *rep = P->rep;
    rep->seconds = dlp__now_s() - P->t_train;
    rep->tokens_per_s = rep->seconds > 0 ? (double)rep->tokens_seen / rep->seconds : 0;
    int k = P->nwin < 20 ? P->nwin : 20;
    double s = 0;
    for (int i = 0; i < k; i++) s += P->loss_win[i];
    rep->train_loss = k ? s / k : NAN;
    dlp_status st;
    int T = P->ts.seq;
    if (P->ho.n >= T + 1) {
        int64_t ntok = 0;
        double l = NAN;
        st = evaluate(&P->m, &P->ws, &P->ho, P->ts.batch, T, P->o->eval_rows > 0 ? P->o->eval_rows : 64, &l, &ntok,
                      err);
        if (st != DLP_OK) return st;
        rep->heldout_loss = l;
        rep->heldout_ppl = exp(l);
        /* bits per byte: the evaluated tokens' share of the held-out bytes */
        double bytes_per_tok = (double)P->ho.bytes / (double)P->ho.n;
        rep->heldout_bpb = l / log(2.0) / bytes_per_tok;
        rep->heldout_tokens = ntok;
    }
    if ((st = dlp__lm_save(&P->m, &P->tok, NULL, P->o->out, err)) != DLP_OK) return st;
    rep->params = P->m.ps.total;
    rep->vocab = P->m.c.vocab;
    rep->steps_done = P->ts.step;
    rep->steps = P->ts.steps;
    rep->train_tokens = P->tr.n;
    rep->docs = P->c.n_docs;
    return DLP_OK;
}

dlp_status dlp__lm_pretrain(const dlp__lm_pretrain_opts *o, dlp__lm_pretrain_report *rep, dlp_error *err) {
    memset(rep, 0, sizeof *rep);
    rep->heldout_loss = rep->heldout_ppl = rep->heldout_bpb = rep->train_loss = NAN;
    const lm_size *sz = NULL;
    const char *cfg = o->config ? o->config : "1m";
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        if (!strcmp(sizes[i].name, cfg)) sz = &sizes[i];
    if (!sz) return dlp__err(err, DLP_EINVAL, "config '%s': expected tiny, small, 1m or 5m", cfg);
    if (!o->checkpoint || !o->out) return dlp__err(err, DLP_EINVAL, "pretrain: out and checkpoint are required");
    pretrainer P = {.o = o, .rep = rep, .sz = sz, .t_start = dlp__now_s()};
    dlp_status st = corpus_read(o->corpus, &P.c, err);
    if (st) return st;
    P.ts.docs = P.c.n_docs;
    P.ts.bytes = (int64_t)P.c.len;
    st = o->resume && access(o->checkpoint, F_OK) == 0 ? resume(&P, err) : start_fresh(&P, err);
    if (!st) {
        for (int i = 0; i < P.m.ps.n; i++)   /* (not in the file: set the same way on resume) */
            if (strstr(P.m.ps.t[i].name, "norm")) P.m.ps.t[i].no_decay = 1;
        P.ts.ckpt_every = o->checkpoint_every > 0 ? o->checkpoint_every : 200;
        st = encode_corpus(&P, err);
    }
    if (!st) st = prepare_steps(&P, err);
    for (int done = 0; !st && !done;) st = train_step(&P, &done, err);
    if (!st) st = finish(&P, err);
    free(P.btok);
    free(P.btgt);
    free(P.tr.ids);
    free(P.ho.ids);
    dlp__nn_ws_free(&P.ws);
    dlp__nn_adam_free(&P.opt);
    dlp__bpe_free(&P.tok);
    dlp__lm_free(&P.m);
    corpus_free(&P.c);
    return st;
}
