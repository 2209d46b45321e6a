/*
 * bpe.c — a byte-level BPE tokenizer trained by our own code (lm.h).
 *
 * Vocabulary: ids 0..255 are the bytes, 256..261 the special tokens
 * (<pad> <bos> <eos> <graph> </graph> <gslot>), then one id per merge in
 * the order learned.  Any byte string encodes (there is no unknown token)
 * and decodes back to itself.
 *
 * Training: the text is cut into special tokens and chunks (see
 * pretok_next), identical chunks are counted once with their frequency,
 * and each round merges the most frequent adjacent pair over all chunks
 * (ties: the smallest (left, right)).  Each round recounts the pairs over
 * the unique chunks: O(merges x symbols in unique chunks), a few seconds
 * for a few MB of text — good enough for our corpora; an incremental
 * pair index is the upgrade if it ever is not.
 *
 * Encoding a chunk applies the learned merges by rank (lowest first), the
 * standard BPE rule, so encoding the training text reproduces training.
 */
#include "lm/lm.h"

#include <cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "dlpm/container.h"
#include "util/util.h"

static const char *const SPECIAL[DLP__BPE_N_SPECIAL] = {"<pad>", "<bos>", "<eos>",
                                                         "<graph>", "</graph>", "<gslot>"};

const char *dlp__bpe_special_text(int id) {
    return id >= 256 && id < DLP__BPE_FIRST_MERGE ? SPECIAL[id - 256] : NULL;
}

/* ---- (left, right) -> value hash map, open addressing ---------------- */

struct dlp__bpe_map {
    uint64_t *key;              /* (cap) left << 32 | right, UINT64_MAX empty  */
    int64_t *val;
    size_t cap, n;
};

static uint64_t pair_key(int32_t a, int32_t b) { return (uint64_t)(uint32_t)a << 32 | (uint32_t)b; }

static size_t hash64(uint64_t k) {
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    return (size_t)k;
}

static int map_init(dlp__bpe_map *m, size_t want) {
    size_t cap = 64;
    while (cap < want * 2) cap *= 2;
    m->key = malloc(cap * sizeof *m->key);
    m->val = malloc(cap * sizeof *m->val);
    if (!m->key || !m->val) {
        free(m->key);
        free(m->val);
        m->key = NULL;
        m->val = NULL;
        return -1;
    }
    memset(m->key, 0xff, cap * sizeof *m->key);
    m->cap = cap;
    m->n = 0;
    return 0;
}

static void map_clear(dlp__bpe_map *m) {
    memset(m->key, 0xff, m->cap * sizeof *m->key);
    m->n = 0;
}

static void map_free(dlp__bpe_map *m) {
    free(m->key);
    free(m->val);
    memset(m, 0, sizeof *m);
}

static int64_t *map_slot(dlp__bpe_map *m, uint64_t k, int insert);

static int map_grow(dlp__bpe_map *m) {
    dlp__bpe_map nm;
    if (map_init(&nm, m->cap) != 0) return -1;
    for (size_t i = 0; i < m->cap; i++)
        if (m->key[i] != UINT64_MAX) *map_slot(&nm, m->key[i], 1) = m->val[i];
    map_free(m);
    *m = nm;
    return 0;
}

/* The value slot of k; insert: created (value 0) when absent, NULL on OOM;
 * else NULL when absent. */
static int64_t *map_slot(dlp__bpe_map *m, uint64_t k, int insert) {
    if (insert && (m->n + 1) * 2 > m->cap && map_grow(m) != 0) return NULL;
    size_t mask = m->cap - 1, i = hash64(k) & mask;
    while (m->key[i] != UINT64_MAX) {
        if (m->key[i] == k) return &m->val[i];
        i = (i + 1) & mask;
    }
    if (!insert) return NULL;
    m->key[i] = k;
    m->val[i] = 0;
    m->n++;
    return &m->val[i];
}

/* ---- pre-tokenization ----------------------------------------------- */

enum { C_LETTER, C_DIGIT, C_SPACE, C_WS, C_PUNCT };

static int cls(unsigned char c) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80) return C_LETTER;
    if (c >= '0' && c <= '9') return C_DIGIT;
    if (c == ' ') return C_SPACE;
    if (c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f') return C_WS;
    return C_PUNCT;
}

/* Special token starting at s (n bytes left), or -1. */
static int special_at(const char *s, size_t n) {
    if (n < 5 || s[0] != '<') return -1;
    for (int i = 0; i < DLP__BPE_N_SPECIAL; i++) {
        size_t l = strlen(SPECIAL[i]);
        if (l <= n && memcmp(s, SPECIAL[i], l) == 0) return 256 + i;
    }
    return -1;
}

/* Chunks are cut at CHUNK_MAX bytes: encoding a chunk is quadratic in its
 * length, and a megabyte without a space must not take hours. */
#define CHUNK_MAX 64

static size_t pretok_chunk(const unsigned char *s, size_t n, int specials);

static size_t pretok_next(const unsigned char *s, size_t n, int specials) {
    size_t l = pretok_chunk(s, n, specials);
    return l > CHUNK_MAX ? CHUNK_MAX : l;
}

/* Length of the chunk at s: " "? letters+ | digit | " "? punct+ | a
 * whitespace run (its last space left to a following word / punctuation).
 * specials: a punctuation run stops before a special token. */
static size_t pretok_chunk(const unsigned char *s, size_t n, int specials) {
    int c0 = cls(s[0]);
    size_t i = 0;
    if (c0 == C_SPACE && n > 1 && (cls(s[1]) == C_LETTER || cls(s[1]) == C_PUNCT) &&
        !(specials && special_at((const char *)s + 1, n - 1) >= 0)) {
        i = 1;
        c0 = cls(s[1]);
    }
    if (c0 == C_DIGIT) return 1;
    if (c0 == C_LETTER || c0 == C_PUNCT) {
        size_t j = i;
        while (j < n && cls(s[j]) == c0) {
            if (specials && j > i && s[j] == '<' && special_at((const char *)s + j, n - j) >= 0)
                break;
            j++;
        }
        return j;
    }
    /* whitespace run */
    size_t j = 0;
    while (j < n && (cls(s[j]) == C_SPACE || cls(s[j]) == C_WS)) j++;
    if (j > 1 && j < n && s[j - 1] == ' ' && (cls(s[j]) == C_LETTER || cls(s[j]) == C_PUNCT) &&
        !(specials && special_at((const char *)s + j, n - j) >= 0))
        j--;
    return j;
}

/* ---- training -------------------------------------------------------- */

typedef struct {
    int32_t *sym;               /* symbols of the chunk                        */
    int n;
    int64_t freq;
} word;

/* unique chunks: string hash table over (offset, len) into text */
typedef struct {
    size_t *off, *len;
    int64_t *freq;
    int32_t *slot;              /* (cap) index into off/len or -1              */
    size_t cap, n, ncap;
} chunk_set;

static uint64_t fnv(const unsigned char *s, size_t n) {
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++) h = (h ^ s[i]) * 1099511628211ULL;
    return h;
}

static int chunks_add(chunk_set *cs, const char *text, size_t off, size_t len) {
    if ((cs->n + 1) * 2 > cs->cap) {
        size_t nc = cs->cap ? cs->cap * 2 : 1024;
        int32_t *ns = malloc(nc * sizeof *ns);
        if (!ns) return -1;
        memset(ns, 0xff, nc * sizeof *ns);
        for (size_t i = 0; i < cs->n; i++) {
            size_t j = fnv((const unsigned char *)text + cs->off[i], cs->len[i]) & (nc - 1);
            while (ns[j] >= 0) j = (j + 1) & (nc - 1);
            ns[j] = (int32_t)i;
        }
        free(cs->slot);
        cs->slot = ns;
        cs->cap = nc;
    }
    size_t j = fnv((const unsigned char *)text + off, len) & (cs->cap - 1);
    while (cs->slot[j] >= 0) {
        int32_t k = cs->slot[j];
        if (cs->len[k] == len && memcmp(text + cs->off[k], text + off, len) == 0) {
            cs->freq[k]++;
            return 0;
        }
        j = (j + 1) & (cs->cap - 1);
    }
    if (cs->n == cs->ncap) {
        size_t nc = cs->ncap ? cs->ncap * 2 : 1024;
        size_t *o = realloc(cs->off, nc * sizeof *o);
        if (!o) return -1;
        cs->off = o;
        size_t *l = realloc(cs->len, nc * sizeof *l);
        if (!l) return -1;
        cs->len = l;
        int64_t *f = realloc(cs->freq, nc * sizeof *f);
        if (!f) return -1;
        cs->freq = f;
        cs->ncap = nc;
    }
    cs->off[cs->n] = off;
    cs->len[cs->n] = len;
    cs->freq[cs->n] = 1;
    cs->slot[j] = (int32_t)cs->n++;
    return 0;
}

static void chunks_free(chunk_set *cs) {
    free(cs->off);
    free(cs->len);
    free(cs->freq);
    free(cs->slot);
}

dlp_status dlp__bpe_train(dlp__bpe *t, const char *text, size_t len, int n_merges,
                          dlp_error *err) {
    memset(t, 0, sizeof *t);
    if (n_merges < 0) return dlp__err(err, DLP_EINVAL, "bpe: negative merge count");
    chunk_set cs = {0};
    word *w = NULL;
    dlp__bpe_map pairs = {0};
    dlp_status st = DLP_OK;
    const unsigned char *s = (const unsigned char *)text;
    for (size_t i = 0; i < len;) {
        int sp = special_at(text + i, len - i);
        if (sp >= 0) {
            i += strlen(SPECIAL[sp - 256]);
            continue;
        }
        size_t l = pretok_next(s + i, len - i, 1);
        if (l > 1 && chunks_add(&cs, text, i, l) != 0) goto oom;
        i += l;
    }
    w = calloc(cs.n ? cs.n : 1, sizeof *w);
    t->merges = malloc(((size_t)n_merges + 1) * 2 * sizeof(int32_t));
    if (!w || !t->merges || map_init(&pairs, 4096) != 0) goto oom;
    for (size_t k = 0; k < cs.n; k++) {
        w[k].n = (int)cs.len[k];
        w[k].freq = cs.freq[k];
        w[k].sym = malloc(cs.len[k] * sizeof(int32_t));
        if (!w[k].sym) goto oom;
        for (size_t j = 0; j < cs.len[k]; j++) w[k].sym[j] = s[cs.off[k] + j];
    }
    for (int r = 0; r < n_merges; r++) {
        map_clear(&pairs);
        for (size_t k = 0; k < cs.n; k++)
            for (int j = 0; j + 1 < w[k].n; j++) {
                int64_t *v = map_slot(&pairs, pair_key(w[k].sym[j], w[k].sym[j + 1]), 1);
                if (!v) goto oom;
                *v += w[k].freq;
            }
        uint64_t best = UINT64_MAX;
        int64_t bc = 0;
        for (size_t i = 0; i < pairs.cap; i++)
            if (pairs.key[i] != UINT64_MAX &&
                (pairs.val[i] > bc || (pairs.val[i] == bc && pairs.key[i] < best))) {
                bc = pairs.val[i];
                best = pairs.key[i];
            }
        if (bc < 2) break;
        int32_t a = (int32_t)(best >> 32), b = (int32_t)(best & 0xffffffffu);
        int32_t id = DLP__BPE_FIRST_MERGE + r;
        t->merges[2 * r] = a;
        t->merges[2 * r + 1] = b;
        t->n_merges = r + 1;
        for (size_t k = 0; k < cs.n; k++) {
            int o = 0;
            for (int j = 0; j < w[k].n; j++) {
                if (j + 1 < w[k].n && w[k].sym[j] == a && w[k].sym[j + 1] == b) {
                    w[k].sym[o++] = id;
                    j++;
                } else {
                    w[k].sym[o++] = w[k].sym[j];
                }
            }
            w[k].n = o;
        }
    }
    st = dlp__bpe_build(t, err);
    goto done;
oom:
    st = dlp__err(err, DLP_ENOMEM, "bpe: out of memory while training");
done:
    if (w)
        for (size_t k = 0; k < cs.n; k++) free(w[k].sym);
    free(w);
    chunks_free(&cs);
    map_free(&pairs);
    if (st != DLP_OK) dlp__bpe_free(t);
    return st;
}

/* ---- tables ---------------------------------------------------------- */

dlp_status dlp__bpe_build(dlp__bpe *t, dlp_error *err) {
    free(t->tok_off);
    free(t->tok_len);
    free(t->tok_bytes);
    if (t->map) {
        map_free(t->map);
        free(t->map);
    }
    t->tok_off = t->tok_len = NULL;
    t->tok_bytes = NULL;
    t->map = NULL;
    int V = DLP__BPE_FIRST_MERGE + t->n_merges;
    t->vocab = V;
    t->tok_off = calloc((size_t)V, sizeof *t->tok_off);
    t->tok_len = calloc((size_t)V, sizeof *t->tok_len);
    t->map = calloc(1, sizeof *t->map);
    if (!t->tok_off || !t->tok_len || !t->map || map_init(t->map, (size_t)t->n_merges + 1) != 0)
        return dlp__err(err, DLP_ENOMEM, "bpe: out of memory");
    size_t total = 0;
    for (int i = 0; i < V; i++) {
        if (i < 256) t->tok_len[i] = 1;
        else if (i < DLP__BPE_FIRST_MERGE) t->tok_len[i] = (uint32_t)strlen(SPECIAL[i - 256]);
        else {
            int32_t a = t->merges[2 * (i - DLP__BPE_FIRST_MERGE)];
            int32_t b = t->merges[2 * (i - DLP__BPE_FIRST_MERGE) + 1];
            /* merges combine bytes or earlier merges, never specials */
            if (a < 0 || b < 0 || a >= i || b >= i || (a >= 256 && a < DLP__BPE_FIRST_MERGE) ||
                (b >= 256 && b < DLP__BPE_FIRST_MERGE))
                return dlp__err(err, DLP_EFORMAT, "bpe: merge %d (%d, %d) names an undefined "
                                "token", i - DLP__BPE_FIRST_MERGE, a, b);
            uint64_t l = (uint64_t)t->tok_len[a] + t->tok_len[b];
            if (l > CHUNK_MAX)
                return dlp__err(err, DLP_EFORMAT, "bpe: merge %d makes a token of %llu bytes "
                                "(chunks have at most %d)", i - DLP__BPE_FIRST_MERGE,
                                (unsigned long long)l, CHUNK_MAX);
            t->tok_len[i] = (uint32_t)l;
            int64_t *v = map_slot(t->map, pair_key(a, b), 1);
            if (!v) return dlp__err(err, DLP_ENOMEM, "bpe: out of memory");
            if (*v) return dlp__err(err, DLP_EFORMAT, "bpe: merge (%d, %d) listed twice", a, b);
            *v = i - DLP__BPE_FIRST_MERGE + 1; /* rank + 1: 0 is "absent" */
        }
        t->tok_off[i] = (uint32_t)total;
        total += t->tok_len[i];
        if (total > UINT32_MAX) return dlp__err(err, DLP_EFORMAT, "bpe: vocabulary too large");
    }
    t->tok_bytes = malloc(total ? total : 1);
    if (!t->tok_bytes) return dlp__err(err, DLP_ENOMEM, "bpe: out of memory");
    for (int i = 0; i < V; i++) {
        uint8_t *d = t->tok_bytes + t->tok_off[i];
        if (i < 256) d[0] = (uint8_t)i;
        else if (i < DLP__BPE_FIRST_MERGE) memcpy(d, SPECIAL[i - 256], t->tok_len[i]);
        else {
            int32_t a = t->merges[2 * (i - DLP__BPE_FIRST_MERGE)];
            int32_t b = t->merges[2 * (i - DLP__BPE_FIRST_MERGE) + 1];
            memcpy(d, t->tok_bytes + t->tok_off[a], t->tok_len[a]);
            memcpy(d + t->tok_len[a], t->tok_bytes + t->tok_off[b], t->tok_len[b]);
        }
    }
    return DLP_OK;
}

void dlp__bpe_free(dlp__bpe *t) {
    if (!t) return;
    free(t->merges);
    free(t->tok_off);
    free(t->tok_len);
    free(t->tok_bytes);
    if (t->map) {
        map_free(t->map);
        free(t->map);
    }
    memset(t, 0, sizeof *t);
}

/* ---- encode / decode ------------------------------------------------- */

/* Merge the symbols sym[0..n) in place by rank; returns the new count. */
static int encode_chunk(const dlp__bpe *t, int32_t *sym, int n) {
    while (n > 1) {
        int64_t best = INT64_MAX;
        for (int j = 0; j + 1 < n; j++) {
            int64_t *v = map_slot(t->map, pair_key(sym[j], sym[j + 1]), 0);
            if (v && *v < best) best = *v;
        }
        if (best == INT64_MAX) break;
        int32_t id = (int32_t)(DLP__BPE_FIRST_MERGE + best - 1);
        int32_t a = t->merges[2 * (best - 1)], b = t->merges[2 * (best - 1) + 1];
        int o = 0;
        for (int j = 0; j < n; j++) {
            if (j + 1 < n && sym[j] == a && sym[j + 1] == b) {
                sym[o++] = id;
                j++;
            } else {
                sym[o++] = sym[j];
            }
        }
        n = o;
    }
    return n;
}

dlp_status dlp__bpe_encode(const dlp__bpe *t, const char *text, size_t len, int specials,
                           int32_t **ids, int *n, dlp_error *err) {
    *ids = NULL;
    *n = 0;
    if (!t->map) return dlp__err(err, DLP_EINVAL, "bpe: tokenizer not built");
    if (len > (size_t)INT32_MAX) return dlp__err(err, DLP_EINVAL, "bpe: text too long");
    int32_t *out = malloc((len ? len : 1) * sizeof *out);
    if (!out) return dlp__err(err, DLP_ENOMEM, "bpe: out of memory (%zu bytes of text)", len);
    const unsigned char *s = (const unsigned char *)text;
    int o = 0;
    for (size_t i = 0; i < len;) {
        int sp = specials ? special_at(text + i, len - i) : -1;
        if (sp >= 0) {
            out[o++] = sp;
            i += strlen(SPECIAL[sp - 256]);
            continue;
        }
        size_t l = pretok_next(s + i, len - i, specials);
        for (size_t j = 0; j < l; j++) out[o + j] = s[i + j];
        o += encode_chunk(t, out + o, (int)l);
        i += l;
    }
    *ids = out;
    *n = o;
    return DLP_OK;
}

dlp_status dlp__bpe_decode(const dlp__bpe *t, const int32_t *ids, int n, char **out,
                           size_t *len, dlp_error *err) {
    *out = NULL;
    if (len) *len = 0;
    size_t total = 0;
    for (int i = 0; i < n; i++) {
        if (ids[i] < 0 || ids[i] >= t->vocab)
            return dlp__err(err, DLP_EINVAL, "bpe: token id %d outside the vocabulary (%d)",
                            ids[i], t->vocab);
        total += t->tok_len[ids[i]];
    }
    char *b = malloc(total + 1);
    if (!b) return dlp__err(err, DLP_ENOMEM, "bpe: out of memory");
    size_t o = 0;
    for (int i = 0; i < n; i++) {
        memcpy(b + o, t->tok_bytes + t->tok_off[ids[i]], t->tok_len[ids[i]]);
        o += t->tok_len[ids[i]];
    }
    b[o] = 0;
    *out = b;
    if (len) *len = o;
    return DLP_OK;
}

/* ---- files ----------------------------------------------------------- */

cJSON *dlp__bpe_to_json(const dlp__bpe *t) {
    cJSON *o = cJSON_CreateObject();
    if (!o) return NULL;
    cJSON *sp = cJSON_AddArrayToObject(o, "specials");
    for (int i = 0; i < DLP__BPE_N_SPECIAL; i++)
        cJSON_AddItemToArray(sp, cJSON_CreateString(SPECIAL[i]));
    cJSON *mg = cJSON_AddArrayToObject(o, "merges");
    for (int i = 0; i < 2 * t->n_merges; i++) cJSON_AddItemToArray(mg, cJSON_CreateNumber(t->merges[i]));
    return o;
}

dlp_status dlp__bpe_from_json(const cJSON *o, const char *name, dlp__bpe *t, dlp_error *err) {
    memset(t, 0, sizeof *t);
    const cJSON *sp = cJSON_GetObjectItemCaseSensitive(o, "specials");
    const cJSON *mg = cJSON_GetObjectItemCaseSensitive(o, "merges");
    if (!cJSON_IsArray(sp) || cJSON_GetArraySize(sp) != DLP__BPE_N_SPECIAL ||
        !cJSON_IsArray(mg) || cJSON_GetArraySize(mg) % 2)
        return dlp__err(err, DLP_EFORMAT, "%s: tokenizer needs 'specials' (%d) and an even "
                        "'merges' array", name, DLP__BPE_N_SPECIAL);
    for (int i = 0; i < DLP__BPE_N_SPECIAL; i++) {
        const cJSON *e = cJSON_GetArrayItem(sp, i);
        if (!cJSON_IsString(e) || strcmp(e->valuestring, SPECIAL[i]) != 0)
            return dlp__err(err, DLP_EFORMAT, "%s: tokenizer special token %d is not '%s'", name,
                            256 + i, SPECIAL[i]);
    }
    int nm = cJSON_GetArraySize(mg);
    t->n_merges = nm / 2;
    t->merges = malloc(((size_t)nm + 2) * sizeof(int32_t));
    if (!t->merges) return dlp__err(err, DLP_ENOMEM, "%s: out of memory", name);
    int i = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, mg) {
        if (!cJSON_IsNumber(e) || e->valuedouble != (double)(int32_t)e->valuedouble) {
            dlp__bpe_free(t);
            return dlp__err(err, DLP_EFORMAT, "%s: tokenizer merge entry %d is not an integer",
                            name, i);
        }
        t->merges[i++] = (int32_t)e->valuedouble;
    }
    dlp_error be = {0};
    dlp_status st = dlp__bpe_build(t, &be);
    if (st != DLP_OK) {
        dlp__bpe_free(t);
        return dlp__err(err, st, "%s: %s", name, be.msg);
    }
    return DLP_OK;
}

dlp_status dlp__bpe_save(const dlp__bpe *t, const char *path, dlp_error *err) {
    cJSON *o = dlp__bpe_to_json(t);
    if (!o) return dlp__err(err, DLP_ENOMEM, "bpe save: out of memory");
    cJSON_AddStringToObject(o, "kind", "bpe");
    char *h = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    if (!h) return dlp__err(err, DLP_ENOMEM, "bpe save: out of memory");
    void *buf;
    size_t n;
    dlp_status st = dlp__dlpm_pack(h, strlen(h), NULL, 0, &buf, &n, err);
    free(h);
    if (st != DLP_OK) return st;
    st = dlp__write_file_atomic(path, buf, n, err);
    free(buf);
    return st;
}

dlp_status dlp__bpe_load(const char *path, dlp__bpe *t, dlp_error *err) {
    memset(t, 0, sizeof *t);
    dlp__mapped mp;
    dlp_status st = dlp__map_file(path, &mp, err);
    if (st != DLP_OK) return st;
    cJSON *root;
    const uint8_t *pl;
    uint64_t pn;
    st = dlp__dlpm_open(mp.data, mp.len, path, &root, &pl, &pn, err);
    if (st == DLP_OK) {
        const char *k = dlp__dlpm_kind(root);
        if (strcmp(k, "bpe") != 0)
            st = dlp__err(err, DLP_EFORMAT, "%s: not a tokenizer file (kind '%s')", path, *k ? k : "?");
        else st = dlp__bpe_from_json(root, path, t, err);
        cJSON_Delete(root);
    }
    dlp__unmap_file(&mp);
    return st;
}
