/*
 * test_gnnlm.c — the GNN + LM predictor (arch gnnlm, src/learn/gnnlm.c):
 * gradients of the whole model (GIN -> graph token -> LM with LoRA / soft
 * prompt -> head) against central differences; training that learns a
 * device-dependent target and beats a constant predictor; the device text
 * changing predictions; save/load giving the same predictions bit for
 * bit; few-shot continuation with --init; stage 2 lowering the summary
 * loss; the refusals.  Data: NAS-Bench-201 cells built by dlperf's own
 * builder from random arch strings, a synthetic latency that depends on
 * the cell's FLOPs and on the device (no ../shared needed).
 */
#include "tap.h"

#include <math.h>

#include "learn/gnnlm.h"
#include "lm/lm.h"
#include "lm/lmtext.h"
#include "learn/gnn_internal.h"

#define LM_PATH "/tmp/dlperf_test_gnnlm_lm.dlpm"

static const char *const ops5[] = {"none", "skip_connect", "nor_conv_1x1", "nor_conv_3x3", "avg_pool_3x3"};
static const char *const devs[] = {"titanxp_1", "gold_6240", "pixel3"};
static const double dev_factor[] = {1.0, 4.0, 9.0};

/* A tiny LM whose tokenizer was trained on device descriptions and the
 * prompt's words, saved where the trainings read it. */
static int make_lm(void) {
    dlp__sb b = {0};
    for (int r = 0; r < 3; r++)
        for (int d = 0; d < 3; d++) {
            dlp__lm_setting_text(NULL, devs[d], &b);
            dlp__sb_printf(&b, "\nPredict the latency_ms of the graph\n");
        }
    dlp__bpe tok = {0};
    dlp__lm m;
    memset(&m, 0, sizeof m);
    int ok = b.s && dlp__bpe_train(&tok, b.s, b.len, 200, NULL) == DLP_OK;
    dlp__sb_free(&b);
    dlp__lm_config c = dlp__lm_config_default(tok.vocab, 16, 1, 2, 1, 32, 160);
    ok = ok && dlp__lm_init(&m, &c, 5, NULL) == DLP_OK;
    /* a random base has N(0, 0.02) embeddings, so its tied head's logits
     * span a fraction of a nat and no adapter on a frozen base can lower
     * the loss much; a trained base has grown them: scale them up */
    if (ok)
        for (int64_t i = 0; i < m.ps.t[m.tok_emb].numel; i++) dlp__nn_pv(&m.ps, m.tok_emb)[i] *= 40.0f;
    ok = ok && dlp__lm_save(&m, &tok, NULL, LM_PATH, NULL) == DLP_OK;
    dlp__lm_free(&m);
    dlp__bpe_free(&tok);
    return ok;
}

/* n random cells, each on every device; latency = FLOPs-driven x device. */
static dlp_dataset *make_data(int n, uint64_t seed) {
    dlp_dataset *ds = NULL;
    const char *tn[] = {"latency_ms"};
    if (dlp_dataset_new(DLP_LAYOUT_DIPPM, 1, tn, &ds, NULL) != DLP_OK) return NULL;
    for (int d = 0; d < 3; d++) dlp_dataset_add_device(ds, devs[d]);
    dlp__nn_rng r;
    dlp__nn_rng_seed(&r, seed);
    for (int i = 0; i < n; i++) {
        char arch[256];
        int o[6];
        for (int k = 0; k < 6; k++) o[k] = 1 + (int)dlp__nn_rng_below(&r, 4);
        snprintf(arch, sizeof arch, "|%s~0|+|%s~0|%s~1|+|%s~0|%s~1|%s~2|", ops5[o[0]], ops5[o[1]], ops5[o[2]], ops5[o[3]],
                 ops5[o[4]], ops5[o[5]]);
        dlp_graph *g = NULL;
        dlp_features *f = NULL;
        int gid;
        if (dlp_graph_from_nb201_mode(arch, 1, DLP_NB201_EXECUTED, &g, NULL) != DLP_OK ||
            dlp_features_build(g, DLP_LAYOUT_DIPPM, &f, NULL) != DLP_OK || dlp_dataset_add_graph(ds, f, &gid, NULL)) {
            dlp_graph_free(g);
            dlp_dataset_free(ds);
            return NULL;
        }
        double flops = f->static_f[DLP_SF_FLOPS];
        int convs = (int)f->static_f[DLP_SF_N_CONV];
        dlp_graph_free(g);
        for (int d = 0; d < 3; d++) {
            /* the phone pays more per convolution than the GPU: the device
             * changes the ranking, not only the scale */
            float y = (float)(dev_factor[d] * (0.5 + flops / 2e8) * (1 + 0.02 * d * convs));
            dlp_dataset_add_sample(ds, gid, &y, "nb201", devs[d], arch, NULL);
        }
    }
    return ds;
}

static void opts_small(dlp_gnn_opts *o) {
    memset(o, 0, sizeof *o);
    o->arch = DLP_GNN_GNNLM;
    o->lm = LM_PATH;
    o->hidden = 16;
    o->layers = 2;
    o->lora_rank = 2;
    o->soft_tokens = 2;
    o->epochs = 12;
    o->batch_size = 16;
    o->lr = 3e-3;
    o->lm_lr = 3e-3;
    o->seed = 3;
    o->threads = 1;
}

static double mape_on(const dlp_gnn *m, const dlp_dataset *ds, const int *idx, int n) {
    float *p = malloc(sizeof *p * (size_t)n);
    double s = 0;
    if (!p || dlp_gnn_predict_dataset(m, ds, idx, n, p, NULL) != DLP_OK) {
        free(p);
        return NAN;
    }
    for (int i = 0; i < n; i++) {
        dlp_dataset_sample x;
        x = *dlp_dataset_at(ds, idx[i]);
        s += fabs(p[i] - x.targets[0]) / x.targets[0];
    }
    free(p);
    return 100 * s / n;
}

/* Central differences of the whole loss against the analytic gradient, on
 * a spread of the GIN/head tensors and of the LM's trainable ones. */
static void t_gradients(void) {
    dlp_dataset *ds = make_data(6, 1);
    CHECK(ds != NULL);
    if (!ds) return;
    int idx[18];
    for (int i = 0; i < 18; i++) idx[i] = i;
    dlp_gnn_opts o;
    opts_small(&o);
    o.epochs = 1;
    o.dropout = -1;
    dlp_gnn *m = NULL;
    dlp_error e = {0};
    CHECK(dlp_gnn_train(ds, idx, 12, NULL, 0, &o, &m, &e) == DLP_OK);
    if (!m) {
        fprintf(stderr, "  %s\n", e.msg);
        dlp_dataset_free(ds);
        return;
    }
    const dlp_features *fs[4];
    const char *dv[4];
    float t[4] = {0.3f, -0.7f, 1.1f, 0.2f};
    for (int q = 0; q < 4; q++) {
        dlp_dataset_sample s;
        s = *dlp_dataset_at(ds, idx[q * 4 % 18]);
        fs[q] = s.features;
        dv[q] = s.device;
    }
    double l0;
    CHECK(dlp__gnnlm_loss_grad(m, fs, dv, 4, t, &l0, &e) == DLP_OK);
    dlp__nn_params *stores[2] = {&m->ps, dlp__gnnlm_lm_params(m)};
    int bad = 0, n = 0, nonzero = 0;
    for (int s = 0; s < 2; s++) {
        dlp__nn_params *ps = stores[s];
        float *ag = malloc(sizeof(float) * (size_t)ps->total);
        memcpy(ag, ps->grad, sizeof(float) * (size_t)ps->total);
        for (int ti = 0; ti < ps->n; ti++) {
            if (!ps->t[ti].trainable) continue;
            int64_t step = ps->t[ti].numel / 5 + 1;
            for (int64_t k = 0; k < ps->t[ti].numel; k += step) {
                int64_t j = ps->t[ti].offset + k;
                float keep = ps->data[j];
                const double h = 1e-2;
                double lp, lm;
                ps->data[j] = keep + (float)h;
                dlp__gnnlm_loss_grad(m, fs, dv, 4, t, &lp, NULL);
                ps->data[j] = keep - (float)h;
                dlp__gnnlm_loss_grad(m, fs, dv, 4, t, &lm, NULL);
                ps->data[j] = keep;
                double fd = (lp - lm) / (2 * h);
                n++;
                nonzero += fabs(ag[j]) > 1e-7;
                if (fabs(fd - ag[j]) > 2e-3 + 0.05 * fabs(fd) && bad++ < 6)
                    fprintf(stderr, "  %s[%lld]: analytic %.6g, fd %.6g\n", ps->t[ti].name, (long long)k, ag[j], fd);
            }
        }
        free(ag);
    }
    fprintf(stderr, "  %d of %d parameters differ from central differences; %d non-zero\n", bad, n, nonzero);
    CHECK(n > 50);
    CHECK(nonzero > n / 3);
    CHECK(bad <= n / 50);
    dlp_gnn_free(m);
    dlp_dataset_free(ds);
}

static int progress_last(void *u, const dlp_gnn_progress *p) {
    double *l = u;
    if (p->epoch == 1) l[0] = p->train_loss;
    l[1] = p->train_loss;
    return 0;
}

static void t_train_and_file(void) {
    dlp_dataset *ds = make_data(60, 2);
    CHECK(ds != NULL);
    if (!ds) return;
    /* cells 0..44 train, 45..59 test, every device */
    int tr[135], te[45], ntr = 0, nte = 0;
    for (int i = 0; i < 180; i++) {
        if (i / 3 < 45) tr[ntr++] = i;
        else te[nte++] = i;
    }
    dlp_gnn_opts o;
    opts_small(&o);
    double curve[2] = {NAN, NAN};
    o.progress = progress_last;
    o.progress_user = curve;
    dlp_gnn *m = NULL;
    dlp_error e = {0};
    CHECK(dlp_gnn_train(ds, tr, ntr, NULL, 0, &o, &m, &e) == DLP_OK);
    if (!m) {
        fprintf(stderr, "  %s\n", e.msg);
        dlp_dataset_free(ds);
        return;
    }
    /* a constant predictor at the training geometric mean */
    double lsum = 0;
    for (int i = 0; i < ntr; i++) {
        dlp_dataset_sample s;
        s = *dlp_dataset_at(ds, tr[i]);
        lsum += log(s.targets[0]);
    }
    double gm = exp(lsum / ntr), cm = 0;
    for (int i = 0; i < nte; i++) {
        dlp_dataset_sample s;
        s = *dlp_dataset_at(ds, te[i]);
        cm += fabs(gm - s.targets[0]) / s.targets[0];
    }
    cm = 100 * cm / nte;
    double mm = mape_on(m, ds, te, nte);
    fprintf(stderr, "  test MAPE %.1f %% vs %.1f %% for a constant; loss %.3f -> %.3f\n", mm, cm, curve[0], curve[1]);
    CHECK(curve[1] < 0.5 * curve[0]);
    CHECK(mm < 0.5 * cm);
    CHECK_STR(dlp_gnn_device(m), "titanxp_1");   /* ties go to the first device seen */
    CHECK(dlp_gnn_stage(m) == DLP_GNNLM_STAGE_PREDICT);
    /* the device in the prompt moves the prediction the right way */
    dlp_dataset_sample s;
    s = *dlp_dataset_at(ds, te[0]);
    float pg, pp, pt, pl[2];
    CHECK(dlp_gnn_predict_on(m, s.features, "titanxp_1", &pg, NULL) == DLP_OK);
    CHECK(dlp_gnn_predict_on(m, s.features, "pixel3", &pp, NULL) == DLP_OK);
    CHECK(dlp_gnn_predict_on(m, s.features, "Raspberry Pi 4, 4x Cortex-A72 1.5 GHz, fp32", &pt, NULL) == DLP_OK);
    CHECK(pp > 3 * pg);
    CHECK(isfinite(pt) && pt > 0);
    /* the file: same predictions bit for bit, and the device default */
    const char *path = "/tmp/dlperf_test_gnnlm.dlpm";
    CHECK(dlp_gnn_save(m, path, &e) == DLP_OK);
    dlp_gnn *l = NULL;
    CHECK(dlp_gnn_load(path, &l, &e) == DLP_OK);
    if (l) {
        float a[45], b[45];
        CHECK(dlp_gnn_predict_dataset(m, ds, te, nte, a, NULL) == DLP_OK);
        CHECK(dlp_gnn_predict_dataset(l, ds, te, nte, b, NULL) == DLP_OK);
        CHECK(memcmp(a, b, sizeof a) == 0);
        CHECK(dlp_gnn_predict_on(l, s.features, NULL, &pl[0], NULL) == DLP_OK);
        CHECK(dlp_gnn_predict_on(l, s.features, "titanxp_1", &pl[1], NULL) == DLP_OK);
        CHECK(pl[0] == pl[1] && pl[1] == pg);
        dlp_gnn_info in;
        dlp_gnn_info_get(l, &in);
        CHECK(in.arch == DLP_GNN_GNNLM);
    }
    /* a truncated file is refused with a message, not a crash */
    FILE *f = fopen(path, "rb");
    long sz = 0;
    char *buf = NULL;
    if (f) {
        fseek(f, 0, SEEK_END);
        sz = ftell(f);
        fseek(f, 0, SEEK_SET);
        buf = malloc((size_t)sz);
        CHECK(buf && fread(buf, 1, (size_t)sz, f) == (size_t)sz);
        fclose(f);
    }
    dlp_gnn *bad = NULL;
    dlp_error be = {0};
    CHECK(buf && dlp_gnn_load_mem(buf, (size_t)sz / 2, "half.dlpm", &bad, &be) != DLP_OK && bad == NULL);
    CHECK(strstr(be.msg, "half.dlpm") != NULL);
    free(buf);

    /* few-shot: continue on 16 samples of the phone only, from the model */
    int ph[16], n_ph = 0;
    for (int i = 0; i < ntr && n_ph < 16; i++) {
        dlp_dataset_sample x;
        x = *dlp_dataset_at(ds, tr[i]);
        if (!strcmp(x.device, "pixel3")) ph[n_ph++] = tr[i];
    }
    int tph[15], nt = 0;
    for (int i = 0; i < nte; i++) {
        dlp_dataset_sample x;
        x = *dlp_dataset_at(ds, te[i]);
        if (!strcmp(x.device, "pixel3")) tph[nt++] = te[i];
    }
    dlp_gnn_opts fo;
    memset(&fo, 0, sizeof fo);
    fo.arch = DLP_GNN_GNNLM;
    fo.init = l;
    fo.epochs = 5;
    fo.seed = 4;
    fo.threads = 1;
    dlp_gnn *fs = NULL;
    CHECK(l && dlp_gnn_train(ds, ph, n_ph, NULL, 0, &fo, &fs, &e) == DLP_OK);
    if (fs) {
        double before = mape_on(l, ds, tph, nt), after = mape_on(fs, ds, tph, nt);
        fprintf(stderr, "  few-shot on the phone: %.1f %% -> %.1f %%\n", before, after);
        CHECK(isfinite(after));
        CHECK_STR(dlp_gnn_device(fs), "pixel3");
    }
    dlp_gnn_free(fs);
    dlp_gnn_free(l);
    dlp_gnn_free(m);
    dlp_dataset_free(ds);
}

static void t_adapt(void) {
    dlp_dataset *ds = make_data(24, 3);
    CHECK(ds != NULL);
    if (!ds) return;
    int idx[72];
    for (int i = 0; i < 72; i++) idx[i] = i;
    dlp_gnn_opts o;
    opts_small(&o);
    o.stage = DLP_GNNLM_STAGE_ADAPT;
    o.epochs = 25;
    o.lm_lr = 1e-2;
    o.batch_size = 8;
    double curve[2] = {NAN, NAN};
    o.progress = progress_last;
    o.progress_user = curve;
    dlp_gnn *m = NULL;
    dlp_error e = {0};
    CHECK(dlp_gnn_train(ds, idx, 72, NULL, 0, &o, &m, &e) == DLP_OK);
    fprintf(stderr, "  graph-to-text loss %.3f -> %.3f\n", curve[0], curve[1]);
    CHECK(curve[1] < 0.8 * curve[0]);
    CHECK(m && dlp_gnn_stage(m) == DLP_GNNLM_STAGE_ADAPT);
    /* stage 3 from it */
    dlp_gnn_opts p;
    memset(&p, 0, sizeof p);
    p.arch = DLP_GNN_GNNLM;
    p.init = m;
    p.epochs = 2;
    p.threads = 1;
    dlp_gnn *s3 = NULL;
    CHECK(m && dlp_gnn_train(ds, idx, 72, NULL, 0, &p, &s3, &e) == DLP_OK);
    CHECK(s3 && dlp_gnn_stage(s3) == DLP_GNNLM_STAGE_PREDICT);
    dlp_gnn_free(s3);
    dlp_gnn_free(m);
    dlp_dataset_free(ds);
}

static void t_refusals(void) {
    dlp_dataset *ds = make_data(4, 4);
    CHECK(ds != NULL);
    if (!ds) return;
    int idx[12];
    for (int i = 0; i < 12; i++) idx[i] = i;
    dlp_gnn_opts o;
    opts_small(&o);
    dlp_gnn *m = NULL;
    dlp_error e = {0};
    o.lm = "/nonexistent/lm.dlpm";
    CHECK(dlp_gnn_train(ds, idx, 12, NULL, 0, &o, &m, &e) != DLP_OK && !m);
    CHECK(strstr(e.msg, "/nonexistent/lm.dlpm") != NULL);
    /* a SAGE model is no gnnlm init */
    dlp_gnn_opts so;
    memset(&so, 0, sizeof so);
    so.hidden = 8;
    so.epochs = 1;
    dlp_gnn *sage = NULL;
    CHECK(dlp_gnn_train(ds, idx, 12, NULL, 0, &so, &sage, NULL) == DLP_OK);
    opts_small(&o);
    o.lm = NULL;
    o.init = sage;
    CHECK(dlp_gnn_train(ds, idx, 12, NULL, 0, &o, &m, &e) == DLP_EINVAL && !m);
    CHECK(strstr(e.msg, "gnnlm") != NULL);
    dlp_gnn_free(sage);
    /* an option out of range is named (as the base GNN's are) */
    opts_small(&o);
    o.lm_lr = -1;
    CHECK(dlp_gnn_train(ds, idx, 12, NULL, 0, &o, &m, &e) == DLP_EINVAL && !m);
    CHECK(strstr(e.msg, "option lm_lr is out of range") != NULL);
    opts_small(&o);
    o.dropout = 1;
    CHECK(dlp_gnn_train(ds, idx, 12, NULL, 0, &o, &m, &e) == DLP_EINVAL && !m);
    CHECK(strstr(e.msg, "option dropout is out of range") != NULL);
    dlp_dataset_free(ds);
}

/* Table 7.2's alternatives: the graph written as text or JSON in the
 * prompt (no GIN) train, predict finite values, survive the file, and
 * stage adapt refuses them (it trains the graph token). */
static void t_text_inputs(void) {
    dlp_dataset *ds = make_data(20, 6);
    CHECK(ds != NULL);
    if (!ds) return;
    int idx[60];
    for (int i = 0; i < 60; i++) idx[i] = i;
    for (int in = DLP_GNNLM_INPUT_TEXT; in <= DLP_GNNLM_INPUT_JSON; in++) {
        dlp_gnn_opts o;
        opts_small(&o);
        o.graph_input = in;
        o.epochs = 3;
        dlp_gnn *m = NULL, *l = NULL;
        dlp_error e = {0};
        CHECK(dlp_gnn_train(ds, idx, 60, NULL, 0, &o, &m, &e) == DLP_OK);
        if (!m) {
            fprintf(stderr, "  %s\n", e.msg);
            continue;
        }
        float a[60], b[60];
        CHECK(dlp_gnn_predict_dataset(m, ds, idx, 60, a, NULL) == DLP_OK);
        int fin = 1;
        for (int i = 0; i < 60; i++) fin &= isfinite(a[i]) && a[i] > 0;
        CHECK(fin);
        const char *path = "/tmp/dlperf_test_gnnlm_text.dlpm";
        CHECK(dlp_gnn_save(m, path, NULL) == DLP_OK && dlp_gnn_load(path, &l, NULL) == DLP_OK);
        CHECK(l && dlp_gnn_predict_dataset(l, ds, idx, 60, b, NULL) == DLP_OK && !memcmp(a, b, sizeof a));
        remove(path);
        dlp_gnn_free(l);
        dlp_gnn_free(m);
        o.stage = DLP_GNNLM_STAGE_ADAPT;
        m = NULL;
        CHECK(dlp_gnn_train(ds, idx, 60, NULL, 0, &o, &m, &e) == DLP_EINVAL && !m);
    }
    CHECK(dlp_gnnlm_input_parse("json") == DLP_GNNLM_INPUT_JSON && dlp_gnnlm_input_parse("xml") == -1);
    dlp_dataset_free(ds);
}

/* Numeric tokens: the LM writes the latency's digits.  Teacher-forced
 * loss falls, greedy answers parse as positive numbers, the file keeps the
 * output kind, and a text input or two targets are refused. */
static void t_numeric_tokens(void) {
    dlp_dataset *ds = make_data(20, 7);
    CHECK(ds != NULL);
    if (!ds) return;
    int idx[60];
    for (int i = 0; i < 60; i++) idx[i] = i;
    dlp_gnn_opts o;
    opts_small(&o);
    o.output = DLP_GNNLM_OUTPUT_TOKENS;
    o.epochs = 15;
    o.lm_lr = 1e-2;
    double curve[2] = {NAN, NAN};
    o.progress = progress_last;
    o.progress_user = curve;
    dlp_gnn *m = NULL, *l = NULL;
    dlp_error e = {0};
    CHECK(dlp_gnn_train(ds, idx, 60, NULL, 0, &o, &m, &e) == DLP_OK);
    if (!m) {
        fprintf(stderr, "  %s\n", e.msg);
        dlp_dataset_free(ds);
        return;
    }
    fprintf(stderr, "  digit loss %.3f -> %.3f\n", curve[0], curve[1]);
    CHECK(curve[1] < 0.7 * curve[0]);
    float a[60], b[60];
    CHECK(dlp_gnn_predict_dataset(m, ds, idx, 60, a, NULL) == DLP_OK);
    int ok = 1;
    for (int i = 0; i < 60; i++) ok &= isfinite(a[i]) && a[i] > 0;
    CHECK(ok);
    const char *path = "/tmp/dlperf_test_gnnlm_tok.dlpm";
    CHECK(dlp_gnn_save(m, path, NULL) == DLP_OK && dlp_gnn_load(path, &l, NULL) == DLP_OK);
    CHECK(l && dlp_gnn_predict_dataset(l, ds, idx, 60, b, NULL) == DLP_OK && !memcmp(a, b, sizeof a));
    remove(path);
    dlp_gnn_free(l);
    dlp_gnn_free(m);
    m = NULL;
    o.progress = NULL;
    o.graph_input = DLP_GNNLM_INPUT_TEXT;
    CHECK(dlp_gnn_train(ds, idx, 60, NULL, 0, &o, &m, &e) == DLP_EINVAL && !m && strstr(e.msg, "numeric-token"));
    dlp_dataset_free(ds);
}

/* --split-by name: a cell's samples on every device land in one part,
 * and the test cells do not depend on which devices are selected. */
static void t_split_by_name(void) {
    dlp_dataset *ds = make_data(40, 5);
    CHECK(ds != NULL);
    if (!ds) return;
    dlp_split_spec one = {.kind = DLP_SPLIT_RANDOM, .train_frac = 0.6, .val_frac = 0.2, .devices = "pixel3",
                          .by_name = 1},
                    all = one;
    all.devices = NULL;
    dlp_split_parts a, b;
    CHECK(dlp_dataset_split(ds, &one, 7, &a, NULL) == DLP_OK);
    CHECK(dlp_dataset_split(ds, &all, 7, &b, NULL) == DLP_OK);
    CHECK(a.n_train + a.n_val + a.n_test == 40 && b.n_train + b.n_val + b.n_test == 120);
    CHECK(b.n_test == 3 * a.n_test && b.n_train == 3 * a.n_train);
    int ok = 1;
    for (int i = 0; i < b.n_test; i++) {
        dlp_dataset_sample x;
        x = *dlp_dataset_at(ds, b.test[i]);
        int found = 0;
        for (int j = 0; j < a.n_test && !found; j++) {
            dlp_dataset_sample y;
            y = *dlp_dataset_at(ds, a.test[j]);
            found = !strcmp(x.name, y.name);
        }
        ok &= found;
    }
    CHECK(ok);
    dlp_split_parts_clear(&a);
    dlp_split_parts_clear(&b);
    one.kind = DLP_SPLIT_KFOLD;
    one.k = 5;
    CHECK(dlp_dataset_split(ds, &one, 7, &a, NULL) == DLP_EINVAL);
    dlp_dataset_free(ds);
}

int main(void) {
    if (!make_lm()) {
        CHECK(0);
        return TAP_DONE();
    }
    RUN(t_gradients);
    RUN(t_train_and_file);
    RUN(t_adapt);
    RUN(t_refusals);
    RUN(t_split_by_name);
    RUN(t_text_inputs);
    RUN(t_numeric_tokens);
    remove(LM_PATH);
    return TAP_DONE();
}
