/*
 * test_lm_hf.c — the Hugging Face loader (src/lm/lm_hf.c, docs/gnnlm.md) on
 * the tiny LLaMA written by tools/golden/make_hf_tiny.py into
 * tests/golden/hf_tiny/ (never by this code):
 *   - bf16/: llama, untied head, BF16 weights (F16 norms), one file: the
 *     logits of the last 4 positions match the script's float64 forward of
 *     the same rounded weights, over every vocabulary row we map;
 *   - f32_sharded/: mistral, tied head, F32 in two shards + index, sliding
 *     window 32 (caps max_seq): the same with the tied reference;
 *   - the tokenizer: the sample text encodes to the script's HF ids (mapped
 *     through our2hf), decode round-trips, the counts of what was skipped;
 *   - the untied head through our .dlpm (bit-identical logits) and an old
 *     .dlpm without the untied_head field loading as tied;
 *   - truncated / corrupt safetensors, a missing tensor, a wrong shape, a bad
 *     dtype, a bias, bad configs, a SentencePiece-only folder: one-line
 *     errors naming the file, no crash (run under make sanitize).
 */
#include "tap.h"

#include <cJSON.h>
#include <stdint.h>
#include <unistd.h>

#include "lm/lm.h"
#include "dlpm/container.h"

#define HF_DIR "tests/golden/hf_tiny"

static cJSON *ref_json(void) {
    char *txt = tap_slurp(HF_DIR "/ref.json", NULL);
    cJSON *r = txt ? cJSON_Parse(txt) : NULL;
    free(txt);
    return r;
}

static int ref_int(const cJSON *r, const char *k) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(r, k);
    return cJSON_IsNumber(v) ? v->valueint : -1;
}

/* our id of each HF id (the first our id that maps to it), -1 none */
static int32_t *hf_to_ours(const dlp__lm_hf_info *in, int V) {
    int32_t *h = malloc((size_t)in->hf_vocab * sizeof *h);
    if (!h) return NULL;
    for (int i = 0; i < in->hf_vocab; i++) h[i] = -1;
    for (int r = V - 1; r >= 0; r--)
        if (in->our2hf[r] >= 0) h[in->our2hf[r]] = r;
    return h;
}

/* Logits of the script's input over our model, compared with the
 * reference rows of `key` at every mapped vocabulary entry. */
static void check_logits(dlp__lm *m, const dlp__lm_hf_info *in, const cJSON *ref, const char *key) {
    const cJSON *inp = cJSON_GetObjectItemCaseSensitive(ref, "input_ids");
    const cJSON *rows = cJSON_GetObjectItemCaseSensitive(ref, "logit_rows");
    const cJSON *lg = cJSON_GetObjectItemCaseSensitive(ref, key);
    int T = cJSON_GetArraySize(inp), V = m->c.vocab, HV = in->hf_vocab;
    CHECK(T > 1 && cJSON_GetArraySize(lg) == cJSON_GetArraySize(rows) * HV);
    int32_t *h2o = hf_to_ours(in, V);
    int32_t *tok = malloc((size_t)T * sizeof *tok);
    float *ref_v = malloc((size_t)cJSON_GetArraySize(lg) * sizeof *ref_v);
    if (!h2o || !tok || !ref_v) {
        CHECK(0);
        goto out;
    }
    for (int t = 0; t < T; t++) {
        int h = cJSON_GetArrayItem(inp, t)->valueint;
        tok[t] = h >= 0 && h < HV ? h2o[h] : -1;
        CHECK(tok[t] >= 0);
        if (tok[t] < 0) goto out;
    }
    CHECK_I64(tok[0], DLP__BPE_BOS);          /* config's bos_token_id is our <bos> */
    int i = 0;
    const cJSON *x;
    cJSON_ArrayForEach(x, lg) ref_v[i++] = (float)x->valuedouble;
    dlp__nn_ws ws = {0};
    dlp__lm_batch b = {1, T, tok, NULL, NULL};
    dlp_error err = {0};
    CHECK(dlp__lm_forward(m, &ws, &b, NULL, &err) == DLP_OK);
    double worst = 0;
    int compared = 0, shown = 0;
    for (int k = 0; k < cJSON_GetArraySize(rows); k++) {
        int t = cJSON_GetArrayItem(rows, k)->valueint;
        for (int r = 0; r < V; r++) {
            if (in->our2hf[r] < 0) continue;
            double a = m->logits[(size_t)t * V + r], e = ref_v[(size_t)k * HV + in->our2hf[r]];
            double d = fabs(a - e) / (1.0 + fabs(e));
            worst = d > worst ? d : worst;
            compared++;
            if (d > 2e-5 && shown++ < 5)
                fprintf(stderr, "  %s row %d our %d (hf %d): %.7g, expected %.7g\n", key, t, r,
                        in->our2hf[r], a, e);
        }
    }
    CHECK(worst <= 2e-5);
    CHECK(compared >= 4 * (V - 4));
    printf("# %s: %d logits compared, worst |d|/(1+|ref|) %.2e\n", key, compared, worst);
    dlp__nn_ws_free(&ws);
out:
    free(h2o);
    free(tok);
    free(ref_v);
}

static void t_hf_bf16(void) {
    cJSON *ref = ref_json();
    CHECK(ref != NULL);
    if (!ref) return;
    dlp__lm m;
    dlp__bpe tok;
    dlp__lm_hf_info in;
    dlp_error err = {0};
    dlp_status st = dlp__lm_load_hf_ex(HF_DIR "/bf16", NULL, 7, &m, &tok, &in, &err);
    if (st != DLP_OK) fprintf(stderr, "  %s\n", err.msg);
    CHECK(st == DLP_OK);
    if (st == DLP_OK) {
        CHECK_STR(in.model_type, "llama");
        CHECK_I64(in.tied, 0);
        CHECK(m.head >= 0 && m.c.untied_head == 1);
        CHECK_I64(in.hf_vocab, ref_int(ref, "vocab_size"));
        CHECK_I64(in.hf_merges, ref_int(ref, "n_merges"));
        CHECK_I64(in.merges_kept, ref_int(ref, "n_merges"));
        CHECK_I64(in.merges_unreachable + in.merges_not_in_vocab + in.merges_duplicate, 0);
        CHECK_I64(in.tokens_dropped, 1);      /* "Ġqqqq": no merge makes it */
        CHECK_I64(in.added_tokens, 2);
        CHECK_I64(in.added_dropped, 0);       /* both are config's bos / eos */
        CHECK_I64(in.bytes_missing, 0);
        CHECK_I64(tok.vocab, DLP__BPE_FIRST_MERGE + ref_int(ref, "n_merges"));
        CHECK_I64(m.c.vocab, tok.vocab);
        CHECK_I64(m.c.max_seq, 64);
        CHECK_I64(in.our2hf[DLP__BPE_BOS], ref_int(ref, "bos"));
        CHECK_I64(in.our2hf[DLP__BPE_EOS], ref_int(ref, "eos"));
        CHECK_I64(in.our2hf[DLP__BPE_PAD], -1);
        CHECK_I64(in.our2hf[DLP__BPE_GSLOT], -1);
        check_logits(&m, &in, ref, "logits_untied");
        free(in.our2hf);
        dlp__bpe_free(&tok);
        dlp__lm_free(&m);
    }
    cJSON_Delete(ref);
}

static void t_hf_sharded_tied(void) {
    cJSON *ref = ref_json();
    CHECK(ref != NULL);
    if (!ref) return;
    dlp__lm m;
    dlp__lm_hf_info in;
    dlp_error err = {0};
    dlp_status st = dlp__lm_load_hf_ex(HF_DIR "/f32_sharded", NULL, 7, &m, NULL, &in, &err);
    if (st != DLP_OK) fprintf(stderr, "  %s\n", err.msg);
    CHECK(st == DLP_OK);
    if (st == DLP_OK) {
        CHECK_STR(in.model_type, "mistral");
        CHECK_I64(in.tied, 1);
        CHECK_I64(m.head, -1);
        CHECK_I64(in.n_files, 2);
        CHECK_I64(in.window, 32);
        CHECK_I64(m.c.max_seq, 32);           /* the sliding window caps it */
        CHECK_I64(in.merges_kept, ref_int(ref, "n_merges"));   /* [a, b] merges */
        check_logits(&m, &in, ref, "logits_tied");
        free(in.our2hf);
        dlp__lm_free(&m);
    }
    cJSON_Delete(ref);
}

static void t_hf_tokenizer(void) {
    cJSON *ref = ref_json();
    CHECK(ref != NULL);
    if (!ref) return;
    dlp__lm m;
    dlp__bpe tok;
    dlp__lm_hf_info in;
    dlp_error err = {0};
    CHECK(dlp__lm_load_hf_ex(HF_DIR "/bf16", NULL, 7, &m, &tok, &in, &err) == DLP_OK);
    const char *text = cJSON_GetObjectItemCaseSensitive(ref, "sample_text")->valuestring;
    const cJSON *want = cJSON_GetObjectItemCaseSensitive(ref, "sample_ids");
    int32_t *ids = NULL;
    int n = 0;
    CHECK(dlp__bpe_encode(&tok, text, strlen(text), 0, &ids, &n, &err) == DLP_OK);
    CHECK_I64(n, cJSON_GetArraySize(want));
    for (int i = 0; i < n && i < cJSON_GetArraySize(want); i++)
        if (in.our2hf[ids[i]] != cJSON_GetArrayItem(want, i)->valueint) {
            fprintf(stderr, "  token %d: our %d = hf %d, expected hf %d\n", i, ids[i],
                    in.our2hf[ids[i]], cJSON_GetArrayItem(want, i)->valueint);
            CHECK(0);
            break;
        }
    char *back = NULL;
    size_t bl = 0;
    CHECK(dlp__bpe_decode(&tok, ids, n, &back, &bl, &err) == DLP_OK);
    CHECK(back && bl == strlen(text) && memcmp(back, text, bl) == 0);
    free(back);
    free(ids);
    /* any bytes round-trip */
    unsigned char raw[300];
    uint64_t s = 12345;
    for (int round = 0; round < 50; round++) {
        int len = (int)(s % 300);
        for (int i = 0; i < len; i++) {
            s = s * 6364136223846793005ULL + 1442695040888963407ULL;
            raw[i] = (unsigned char)(s >> 56);
            if (s >> 63) raw[i] = (unsigned char)"the predictor lazy fox "[(s >> 40) % 23];
        }
        CHECK(dlp__bpe_encode(&tok, (const char *)raw, (size_t)len, 0, &ids, &n, &err) == DLP_OK);
        CHECK(dlp__bpe_decode(&tok, ids, n, &back, &bl, &err) == DLP_OK);
        CHECK(back && bl == (size_t)len && memcmp(back, raw, bl) == 0);
        free(back);
        free(ids);
    }
    free(in.our2hf);
    dlp__bpe_free(&tok);
    dlp__lm_free(&m);
    cJSON_Delete(ref);
}

/* the untied head through our checkpoint; an old file (no untied_head) */
static void t_hf_dlpm(void) {
    char path[] = "/tmp/dlp_lmhf_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd < 0) return;
    close(fd);
    dlp__lm m, m2;
    dlp__bpe tok, tok2;
    dlp_error err = {0};
    dlp__nn_ws ws = {0};
    int32_t in[6] = {DLP__BPE_BOS, 'T', 'h', 'e', 300, 301};
    dlp__lm_batch b = {1, 6, in, NULL, NULL};
    CHECK(dlp__lm_load_hf(HF_DIR "/bf16", NULL, 7, &m, &tok, &err) == DLP_OK);
    CHECK(dlp__lm_save(&m, &tok, NULL, path, &err) == DLP_OK);
    CHECK(dlp__lm_load(path, NULL, 9, &m2, &tok2, NULL, &err) == DLP_OK);
    CHECK_I64(m2.c.untied_head, 1);
    CHECK_I64(tok2.vocab, tok.vocab);
    CHECK(dlp__lm_forward(&m, &ws, &b, NULL, &err) == DLP_OK);
    size_t nl = (size_t)6 * m.c.vocab;
    float *l1 = malloc(nl * sizeof *l1);
    if (l1) memcpy(l1, m.logits, nl * sizeof *l1);
    dlp__nn_ws_reset(&ws);
    CHECK(dlp__lm_forward(&m2, &ws, &b, NULL, &err) == DLP_OK);
    CHECK(l1 && memcmp(l1, m2.logits, nl * sizeof *l1) == 0);
    free(l1);
    dlp__lm_free(&m2);
    dlp__bpe_free(&tok2);
    dlp__bpe_free(&tok);
    dlp__lm_free(&m);

    /* a tied model saved, its header's untied_head removed (a file from
     * before the field): loads, tied */
    dlp__lm_config c = dlp__lm_config_default(300, 8, 1, 2, 1, 8, 8);
    CHECK(dlp__lm_init(&m, &c, 1, &err) == DLP_OK);
    CHECK(dlp__lm_save(&m, NULL, NULL, path, &err) == DLP_OK);
    size_t fl = 0;
    char *img = tap_slurp(path, &fl);
    const char *h;
    size_t hl;
    const uint8_t *pl;
    uint64_t pn;
    CHECK(img && dlp__dlpm_unpack(img, fl, path, &h, &hl, &pl, &pn, &err) == DLP_OK);
    cJSON *hj = img ? cJSON_ParseWithLength(h, hl) : NULL;
    cJSON *co = cJSON_GetObjectItemCaseSensitive(hj, "config");
    CHECK(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(co, "untied_head")));
    cJSON_DeleteItemFromObjectCaseSensitive(co, "untied_head");
    char *nh = hj ? cJSON_PrintUnformatted(hj) : NULL;
    void *nb = NULL;
    size_t nn = 0;
    CHECK(nh && dlp__dlpm_pack(nh, strlen(nh), pl, pn, &nb, &nn, &err) == DLP_OK);
    FILE *f = fopen(path, "wb");
    CHECK(f && fwrite(nb, 1, nn, f) == nn);
    if (f) fclose(f);
    CHECK(dlp__lm_load(path, NULL, 1, &m2, NULL, NULL, &err) == DLP_OK);
    CHECK_I64(m2.c.untied_head, 0);
    CHECK_I64(m2.head, -1);
    dlp__lm_free(&m2);
    dlp__lm_free(&m);
    free(nb);
    free(nh);
    cJSON_Delete(hj);
    free(img);
    dlp__nn_ws_free(&ws);
    unlink(path);
}

/* ---- errors ----------------------------------------------------------- */

static char tmpdir[64];

static void put(const char *name, const void *data, size_t n) {
    char p[256];
    snprintf(p, sizeof p, "%s/%s", tmpdir, name);
    FILE *f = fopen(p, "wb");
    if (f) {
        fwrite(data, 1, n, f);
        fclose(f);
    }
}

static void rm(const char *name) {
    char p[256];
    snprintf(p, sizeof p, "%s/%s", tmpdir, name);
    unlink(p);
}

/* the bf16 variant copied into tmpdir, then the safetensors header edited
 * by fn (NULL: as is) and the bytes cut to keep (0: all) */
typedef void (*hdr_fn)(cJSON *h);

static void stage(hdr_fn fn, size_t keep) {
    const char *files[] = {"config.json", "tokenizer.json"};
    for (int i = 0; i < 2; i++) {
        char p[128];
        size_t n = 0;
        snprintf(p, sizeof p, HF_DIR "/bf16/%s", files[i]);
        char *d = tap_slurp(p, &n);
        if (d) put(files[i], d, n);
        free(d);
    }
    size_t n = 0;
    char *st = tap_slurp(HF_DIR "/bf16/model.safetensors", &n);
    if (!st || n < 8) {
        free(st);
        return;
    }
    if (fn) {
        uint64_t hl = 0;
        for (int i = 7; i >= 0; i--) hl = hl << 8 | (uint8_t)st[i];
        cJSON *h = cJSON_ParseWithLength(st + 8, (size_t)hl);
        fn(h);
        char *nh = cJSON_PrintUnformatted(h);
        size_t nl = strlen(nh), dl = n - 8 - (size_t)hl;
        char *out = malloc(8 + nl + dl);
        for (int i = 0; i < 8; i++) out[i] = (char)((uint64_t)nl >> (8 * i));
        memcpy(out + 8, nh, nl);
        memcpy(out + 8 + nl, st + 8 + hl, dl);
        put("model.safetensors", out, keep ? keep : 8 + nl + dl);
        free(out);
        free(nh);
        cJSON_Delete(h);
    } else {
        put("model.safetensors", st, keep ? keep : n);
    }
    free(st);
}

static void no_norm(cJSON *h) { cJSON_DeleteItemFromObjectCaseSensitive(h, "model.norm.weight"); }

static void bad_shape(cJSON *h) {
    cJSON *t = cJSON_GetObjectItemCaseSensitive(h, "model.layers.1.self_attn.k_proj.weight");
    cJSON_ReplaceItemInArray(cJSON_GetObjectItemCaseSensitive(t, "shape"), 0, cJSON_CreateNumber(9));
}

static void bad_dtype(cJSON *h) {
    cJSON *t = cJSON_GetObjectItemCaseSensitive(h, "model.layers.0.mlp.up_proj.weight");
    cJSON_ReplaceItemInObjectCaseSensitive(t, "dtype", cJSON_CreateString("I8"));
}

static void bad_offsets(cJSON *h) {
    cJSON *t = cJSON_GetObjectItemCaseSensitive(h, "model.layers.0.mlp.up_proj.weight");
    cJSON_ReplaceItemInArray(cJSON_GetObjectItemCaseSensitive(t, "data_offsets"), 1,
                             cJSON_CreateNumber(1e9));
}

static void add_bias(cJSON *h) {
    cJSON *t = cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(h, "model.norm.weight"), 1);
    cJSON_AddItemToObject(h, "model.layers.0.self_attn.q_proj.bias", t);
}

static void add_alien(cJSON *h) {
    cJSON *t = cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(h, "model.norm.weight"), 1);
    cJSON_AddItemToObject(h, "model.layers.0.self_attn.q_norm.weight", t);
}

/* loading tmpdir fails with a one-line message holding `want` */
static void expect_fail(const char *what, const char *want) {
    dlp__lm m;
    dlp__bpe tok;
    dlp_error err = {0};
    dlp_status st = dlp__lm_load_hf(tmpdir, NULL, 1, &m, &tok, &err);
    int ok = st != DLP_OK && err.msg[0] && !strchr(err.msg, '\n') && strstr(err.msg, want) &&
             strstr(err.msg, tmpdir) && m.ps.n == 0 && tok.vocab == 0;
    if (!ok) fprintf(stderr, "  %s: status %d, message '%s' (want '%s')\n", what, st, err.msg, want);
    else printf("# %s: %s\n", what, err.msg);
    CHECK(ok);
    if (st == DLP_OK) {
        dlp__lm_free(&m);
        dlp__bpe_free(&tok);
    }
}

static void put_config(const char *from, const char *to) {
    char *c = tap_slurp(HF_DIR "/bf16/config.json", NULL);
    if (!c) return;
    char *p = strstr(c, from);
    if (p) {
        size_t a = (size_t)(p - c), fl = strlen(from), tl = strlen(to), n = strlen(c);
        char *o = malloc(n - fl + tl + 1);
        memcpy(o, c, a);
        memcpy(o + a, to, tl);
        memcpy(o + a + tl, p + fl, n - a - fl + 1);
        put("config.json", o, strlen(o));
        free(o);
    }
    CHECK(p != NULL);
    free(c);
}

/* LLaMA-3.1 RoPE scaling: the bf16 variant's config given the script's
 * rope_scaling; the logits match its reference, which differs from the
 * unscaled one; the scaling survives our .dlpm */
static void t_hf_llama3(void) {
    cJSON *ref = ref_json();
    const cJSON *sc = cJSON_GetObjectItemCaseSensitive(ref, "rope_scaling_llama3");
    CHECK(cJSON_IsObject(sc));
    if (!cJSON_IsObject(sc)) {
        cJSON_Delete(ref);
        return;
    }
    char *scs = cJSON_PrintUnformatted(sc), rs[512];
    snprintf(rs, sizeof rs, "\"rope_scaling\": %s", scs);
    free(scs);
    stage(NULL, 0);
    put_config("\"rope_scaling\": null", rs);
    dlp__lm m, m2;
    dlp__lm_hf_info in;
    dlp_error err = {0};
    dlp_status st = dlp__lm_load_hf_ex(tmpdir, NULL, 7, &m, NULL, &in, &err);
    if (st != DLP_OK) fprintf(stderr, "  %s\n", err.msg);
    CHECK(st == DLP_OK);
    if (st == DLP_OK) {
        CHECK_NEAR(m.c.rope_factor, 8, 0);
        CHECK_NEAR(m.c.rope_low_freq, 1, 0);
        CHECK_NEAR(m.c.rope_high_freq, 4, 0);
        CHECK_I64(m.c.rope_orig_max, 128);
        check_logits(&m, &in, ref, "logits_llama3");
        /* the scaling changes the reference: the check above is sensitive */
        const cJSON *a = cJSON_GetObjectItemCaseSensitive(ref, "logits_llama3");
        const cJSON *b = cJSON_GetObjectItemCaseSensitive(ref, "logits_untied");
        double md = 0;
        for (int i = 0; i < cJSON_GetArraySize(a) && i < cJSON_GetArraySize(b); i++)
            md = fmax(md, fabs(cJSON_GetArrayItem(a, i)->valuedouble -
                               cJSON_GetArrayItem(b, i)->valuedouble));
        printf("# llama3 scaling moves the reference logits by up to %.3g\n", md);
        CHECK(md > 1e-2);
        /* through our checkpoint */
        char path[96];
        snprintf(path, sizeof path, "%s/l3.dlpm", tmpdir);
        CHECK(dlp__lm_save(&m, NULL, NULL, path, &err) == DLP_OK);
        CHECK(dlp__lm_load(path, NULL, 1, &m2, NULL, NULL, &err) == DLP_OK);
        CHECK_NEAR(m2.c.rope_factor, 8, 0);
        CHECK_I64(m2.c.rope_orig_max, 128);
        int32_t tok[5] = {DLP__BPE_BOS, 'a', 300, 'b', 310};
        dlp__lm_batch bt = {1, 5, tok, NULL, NULL};
        dlp__nn_ws ws = {0};
        size_t nl = (size_t)5 * m.c.vocab;
        float *l1 = malloc(nl * sizeof *l1);
        CHECK(dlp__lm_forward(&m, &ws, &bt, NULL, &err) == DLP_OK);
        if (l1) memcpy(l1, m.logits, nl * sizeof *l1);
        dlp__nn_ws_reset(&ws);
        CHECK(dlp__lm_forward(&m2, &ws, &bt, NULL, &err) == DLP_OK);
        CHECK(l1 && memcmp(l1, m2.logits, nl * sizeof *l1) == 0);
        free(l1);
        dlp__nn_ws_free(&ws);
        dlp__lm_free(&m2);
        unlink(path);
        free(in.our2hf);
        dlp__lm_free(&m);
    }
    put_config("\"rope_scaling\": null", "\"rope_scaling\": {\"rope_type\": \"llama3\", "
               "\"factor\": 8, \"low_freq_factor\": 4, \"high_freq_factor\": 1, "
               "\"original_max_position_embeddings\": 128}");
    expect_fail("llama3 high <= low", "rope_scaling llama3 needs");
    cJSON_Delete(ref);
}

static void t_hf_errors(void) {
    /* sanity: the staged copy loads */
    stage(NULL, 0);
    dlp__lm m;
    dlp_error err = {0};
    CHECK(dlp__lm_load_hf(tmpdir, NULL, 1, &m, NULL, &err) == DLP_OK);
    dlp__lm_free(&m);

    /* merges we cannot use are skipped and counted; the model is unchanged */
    char *tj = tap_slurp(HF_DIR "/bf16/tokenizer.json", NULL);
    cJSON *tr = tj ? cJSON_Parse(tj) : NULL;
    cJSON *mg = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(tr, "model"),
                                                 "merges");
    CHECK(cJSON_IsArray(mg) && cJSON_GetArraySize(mg) > 1);
    if (cJSON_IsArray(mg) && cJSON_GetArraySize(mg) > 1) {
        cJSON_AddItemToArray(mg, cJSON_CreateString("\xc4\xa0qq q"));  /* "Ġqq" never made */
        cJSON_AddItemToArray(mg, cJSON_CreateString("{ }"));             /* "{}" not a token */
        cJSON_AddItemToArray(mg, cJSON_Duplicate(cJSON_GetArrayItem(mg, 0), 1));
        char *o = cJSON_PrintUnformatted(tr);
        put("tokenizer.json", o, strlen(o));
        free(o);
        dlp__lm_hf_info in;
        cJSON *ref = ref_json();
        CHECK(dlp__lm_load_hf_ex(tmpdir, NULL, 1, &m, NULL, &in, &err) == DLP_OK);
        if (ref && m.ps.n) {
            CHECK_I64(in.merges_unreachable, 1);
            CHECK_I64(in.merges_not_in_vocab, 1);
            CHECK_I64(in.merges_duplicate, 1);
            CHECK_I64(in.merges_kept, ref_int(ref, "n_merges"));
            CHECK_I64(in.hf_merges, ref_int(ref, "n_merges") + 3);
            check_logits(&m, &in, ref, "logits_untied");
            free(in.our2hf);
            dlp__lm_free(&m);
        }
        cJSON_Delete(ref);
    }
    cJSON_Delete(tr);
    free(tj);

    stage(NULL, 5);
    expect_fail("5 bytes", "truncated safetensors");
    stage(NULL, 200);
    expect_fail("header cut", "does not fit the file");
    stage(NULL, 30000);
    expect_fail("data cut", "do not hold");
    size_t n = 0;
    char *st = tap_slurp(HF_DIR "/bf16/model.safetensors", &n);
    if (st) {
        st[8] = '[';                        /* the header's opening brace */
        put("model.safetensors", st, n);
        expect_fail("header not an object", "not a JSON object");
        st[8] = '{';
        st[7] = 0x40;                       /* an absurd header length */
        put("model.safetensors", st, n);
        expect_fail("header length", "does not fit the file");
        free(st);
    }
    /* 300 random byte changes in the header and the first data: an error
     * of one line or a model, never a crash (ASan / valgrind) */
    st = tap_slurp(HF_DIR "/bf16/model.safetensors", &n);
    if (st) {
        char *cp = malloc(n);
        uint64_t hl = 0, s = 99;
        for (int i = 7; i >= 0; i--) hl = hl << 8 | (uint8_t)st[i];
        int failed = 0, bad = 0;
        for (int k = 0; k < 300 && cp; k++) {
            memcpy(cp, st, n);
            s = s * 6364136223846793005ULL + 1442695040888963407ULL;
            size_t at = (size_t)((s >> 33) % (8 + hl + 64));
            cp[at] = (char)(s >> 13);
            put("model.safetensors", cp, n);
            dlp__lm mm;
            dlp_error e2 = {0};
            if (dlp__lm_load_hf(tmpdir, NULL, 1, &mm, NULL, &e2) == DLP_OK) {
                dlp__lm_free(&mm);
                continue;
            }
            failed++;
            bad += !e2.msg[0] || strchr(e2.msg, '\n') != NULL || !strstr(e2.msg, tmpdir);
        }
        printf("# corruptions: %d of 300 refused, all with one line naming the folder\n", failed);
        CHECK_I64(bad, 0);
        CHECK(failed > 100);
        free(cp);
        free(st);
    }
    stage(no_norm, 0);
    expect_fail("missing tensor", "'model.norm.weight' is missing");
    stage(bad_shape, 0);
    expect_fail("wrong shape", "has shape [9, 16], expected [8, 16]");
    stage(bad_dtype, 0);
    expect_fail("dtype", "dtype I8");
    stage(bad_offsets, 0);
    expect_fail("offsets", "data_offsets");
    stage(add_bias, 0);
    expect_fail("bias", "bias");
    stage(add_alien, 0);
    expect_fail("unknown tensor", "q_norm.weight' is not part of");

    stage(NULL, 0);
    put_config("\"llama\"", "\"gpt2\"");
    expect_fail("model_type", "model_type 'gpt2' is not supported");
    put_config("\"hidden_size\"", "\"hidden_sizes\"");
    expect_fail("no hidden_size", "field 'hidden_size' is missing");
    put_config("\"rope_scaling\": null",
               "\"rope_scaling\": {\"rope_type\": \"yarn\", \"factor\": 8.0}");
    expect_fail("rope_scaling", "rope_scaling of type 'yarn' is not implemented");
    put_config("\"num_key_value_heads\": 2", "\"num_key_value_heads\": 3");
    expect_fail("kv heads", "num_key_value_heads 3");
    put_config("\"vocab_size\": ", "\"vocab_size\": 1");    /* 458 -> 1458 rows expected */
    expect_fail("vocab_size", "has shape [458, 16], expected [1458, 16]");
    put("config.json", "{\"model_type\": ", strlen("{\"model_type\": "));
    expect_fail("config not JSON", "config.json: not a JSON object");

    stage(NULL, 0);
    const char *uni = "{\"model\": {\"type\": \"Unigram\"}}";
    put("tokenizer.json", uni, strlen(uni));
    expect_fail("unigram", "model type 'Unigram'");
    const char *sp = "{\"model\": {\"type\": \"BPE\", \"byte_fallback\": true}}";
    put("tokenizer.json", sp, strlen(sp));
    expect_fail("sentencepiece bpe", "SentencePiece-style");
    rm("tokenizer.json");
    put("tokenizer.model", "x", 1);
    expect_fail("tokenizer.model", "SentencePiece tokenizers (LLaMA-2) are not supported");
    rm("tokenizer.model");
    expect_fail("no tokenizer", "no tokenizer.json");
    stage(NULL, 0);
    rm("model.safetensors");
    expect_fail("no weights", "no model.safetensors");

}

int main(void) {
    snprintf(tmpdir, sizeof tmpdir, "/tmp/dlp_hf_XXXXXX");
    if (!mkdtemp(tmpdir)) {
        printf("FAIL mkdtemp\n");
        return 1;
    }
    RUN(t_hf_bf16);
    RUN(t_hf_sharded_tied);
    RUN(t_hf_tokenizer);
    RUN(t_hf_dlpm);
    RUN(t_hf_llama3);
    RUN(t_hf_errors);
    const char *left[] = {"config.json", "tokenizer.json", "model.safetensors", "tokenizer.model"};
    for (int i = 0; i < 4; i++) rm(left[i]);
    rmdir(tmpdir);
    return TAP_DONE();
}
