/*
 * corpus.c — unlabeled graphs for pre-training, converted once into a pack
 * file (.dlpc) and read back one graph at a time (docs/pretrain.md).
 *
 * Why a pack: ONNX parsing and feature building cost far more than one
 * training epoch over the features, and a corpus of thousands of graphs
 * does not fit in memory as features.  Conversion streams: each graph is
 * built, serialised and appended to a temp file, then freed; only the index
 * (offset, length, CRC, nodes, family, name per graph) stays in memory.
 *
 * .dlpc layout (little-endian):
 *   header  64 bytes: "DLPC", u32 version, u32 layout, u32 layout_version,
 *           u64 source hash (sources, their files' sizes and mtimes, options),
 *           zero padding, u32 CRC-32 of bytes 0..59 at 60
 *   records the .dlpg bytes of each graph, back to back
 *   index   per graph: u64 offset, u64 length, u32 CRC-32 of the record,
 *           u32 n_nodes, u16 family length, u16 name length, family, name
 *   trailer 48 bytes: u64 index offset, u64 index length, u64 graphs,
 *           u64 skipped sources, u32 CRC-32 of the index, u32 CRC-32 of the
 *           trailer's first 36 bytes, "DLPCEND\0"
 * The trailer is written last, so a truncated file has no valid trailer.
 */
#include <cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dlperf.h"
#include "features/features_internal.h"
#include "util/util.h"

#define DLPC_VERSION 1u
#define DLPC_HDR 64
#define DLPC_TRAILER 48
#define NB201_CELLS 15625
#define MAX_DEPTH 32

typedef struct {
    uint64_t off, len;
    uint32_t crc, nodes;
    const char *family, *name;
} pack_entry;

struct dlp_corpus {
    int fd;
    char *path;
    int layout, layout_version;
    uint64_t src_hash;
    int64_t n, skipped;
    pack_entry *ix;
    dlp__arena strings;
};

/* ---- little-endian helpers -------------------------------------------- */

static void put32(uint8_t *p, uint32_t v) {
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static void put64(uint8_t *p, uint64_t v) {
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static uint32_t get32(const uint8_t *p) {
    uint32_t v = 0;
    for (int i = 3; i >= 0; i--) v = v << 8 | p[i];
    return v;
}
static uint64_t get64(const uint8_t *p) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

static int read_at(int fd, void *buf, size_t n, uint64_t off) {
    uint8_t *p = buf;
    while (n) {
        ssize_t r = pread(fd, p, n, (off_t)off);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return -1;
        p += r;
        n -= (size_t)r;
        off += (uint64_t)r;
    }
    return 0;
}

static int write_all(int fd, const void *buf, size_t n) {
    const uint8_t *p = buf;
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

static int norm_layout(int layout) { return layout ? layout : DLP_LAYOUT_TRAPPM; }
static int layout_version_of(int layout) {
    return layout == DLP_LAYOUT_TRAPPM ? DLP_LAYOUT_TRAPPM_VERSION : DLP_LAYOUT_DIPPM_VERSION;
}

/* ---- reading a pack ---------------------------------------------------- */

void dlp_corpus_close(dlp_corpus *c) {
    if (!c) return;
    if (c->fd >= 0) close(c->fd);
    free(c->path);
    free(c->ix);
    dlp__arena_free(&c->strings);
    free(c);
}

static dlp_status damaged(dlp_error *err, const char *path, const char *why) {
    return dlp__err(err, DLP_EFORMAT, "%s: damaged corpus pack (%s); delete it or rebuild it from its sources",
                    path, why);
}

/* Open and validate a pack: header, trailer, index CRC and every entry's
 * bounds.  Records are checked when read. */
static dlp_status pack_open(const char *path, dlp_corpus **out, dlp_error *err) {
    *out = NULL;
    struct stat sb;
    int fd = dlp__open_regular(path, &sb, err);
    if (fd < 0) return DLP_EIO;
    dlp_corpus *c = calloc(1, sizeof *c);
    uint8_t *ib = NULL;
    dlp_status st = DLP_OK;
    if (!c || !(c->path = strdup(path))) {
        close(fd);
        free(c);
        return dlp__err(err, DLP_ENOMEM, "%s: out of memory", path);
    }
    c->fd = fd;
    uint8_t h[DLPC_HDR], t[DLPC_TRAILER];
    uint64_t size = (uint64_t)sb.st_size;
    if (size < DLPC_HDR || read_at(fd, h, DLPC_HDR, 0) || memcmp(h, "DLPC", 4)) {
        st = dlp__err(err, DLP_EFORMAT, "%s: not a corpus pack (.dlpc)", path);
        goto fail;
    }
    if (get32(h + 4) != DLPC_VERSION) {
        st = dlp__err(err, DLP_EVERSION, "%s: corpus pack version %u, this dlperf reads version %u", path,
                      get32(h + 4), DLPC_VERSION);
        goto fail;
    }
    if (get32(h + 60) != dlp__crc32(0, h, 60)) {
        st = damaged(err, path, "header checksum mismatch");
        goto fail;
    }
    c->layout = (int)get32(h + 8);
    c->layout_version = (int)get32(h + 12);
    c->src_hash = get64(h + 16);
    if (!dlp_layout_width(c->layout)) {
        st = damaged(err, path, "unknown layout");
        goto fail;
    }
    if (size < DLPC_HDR + DLPC_TRAILER || read_at(fd, t, DLPC_TRAILER, size - DLPC_TRAILER) ||
        memcmp(t + 40, "DLPCEND", 8) || get32(t + 36) != dlp__crc32(0, t, 36)) {
        st = damaged(err, path, "no valid trailer: truncated or unfinished");
        goto fail;
    }
    uint64_t ioff = get64(t), ilen = get64(t + 8), ng = get64(t + 16);
    c->skipped = (int64_t)get64(t + 24);
    if (ioff < DLPC_HDR || ilen > size || ioff + ilen + DLPC_TRAILER != size || ng > ilen / 28 ||
        c->skipped < 0) {
        st = damaged(err, path, "index out of the file");
        goto fail;
    }
    ib = malloc(ilen ? ilen : 1);
    c->ix = calloc(ng ? ng : 1, sizeof *c->ix);
    if (!ib || !c->ix) {
        st = dlp__err(err, DLP_ENOMEM, "%s: out of memory", path);
        goto fail;
    }
    if (read_at(fd, ib, ilen, ioff)) {
        st = dlp__err(err, DLP_EIO, "%s: read failed", path);
        goto fail;
    }
    if (dlp__crc32(0, ib, ilen) != get32(t + 32)) {
        st = dlp__err(err, DLP_ECHECKSUM, "%s: corpus pack index checksum mismatch (damaged pack)", path);
        goto fail;
    }
    const uint8_t *p = ib, *end = ib + ilen;
    for (uint64_t i = 0; i < ng; i++) {
        if (end - p < 28) {
            st = damaged(err, path, "short index");
            goto fail;
        }
        pack_entry *e = &c->ix[i];
        e->off = get64(p);
        e->len = get64(p + 8);
        e->crc = get32(p + 16);
        e->nodes = get32(p + 20);
        size_t fl = (size_t)(p[24] | p[25] << 8), nl = (size_t)(p[26] | p[27] << 8);
        p += 28;
        if ((size_t)(end - p) < fl + nl || e->off < DLPC_HDR || e->len > ioff || e->off > ioff - e->len) {
            st = damaged(err, path, "index entry out of bounds");
            goto fail;
        }
        e->family = dlp__arena_strndup(&c->strings, (const char *)p, fl);
        e->name = dlp__arena_strndup(&c->strings, (const char *)p + fl, nl);
        if (!e->family || !e->name) {
            st = dlp__err(err, DLP_ENOMEM, "%s: out of memory", path);
            goto fail;
        }
        p += fl + nl;
    }
    if (p != end) {
        st = damaged(err, path, "index size mismatch");
        goto fail;
    }
    c->n = (int64_t)ng;
    free(ib);
    *out = c;
    return DLP_OK;
fail:
    free(ib);
    dlp_corpus_close(c);
    return st;
}

dlp_status dlp_corpus_open(const char *pack_path, dlp_corpus **out, dlp_error *err) {
    return pack_open(pack_path, out, err);
}

int64_t dlp_corpus_count(const dlp_corpus *c) { return c ? c->n : 0; }
int dlp_corpus_layout(const dlp_corpus *c) { return c ? c->layout : 0; }
int64_t dlp_corpus_skipped(const dlp_corpus *c) { return c ? c->skipped : 0; }
const char *dlp_corpus_name(const dlp_corpus *c, int64_t i) {
    return c && i >= 0 && i < c->n ? c->ix[i].name : NULL;
}
const char *dlp_corpus_family(const dlp_corpus *c, int64_t i) {
    return c && i >= 0 && i < c->n ? c->ix[i].family : NULL;
}
int64_t dlp_corpus_nodes(const dlp_corpus *c, int64_t i) {
    return c && i >= 0 && i < c->n ? (int64_t)c->ix[i].nodes : -1;
}

dlp_status dlp_corpus_read(const dlp_corpus *c, int64_t i, dlp_features **out, dlp_error *err) {
    *out = NULL;
    if (!c || i < 0 || i >= c->n)
        return dlp__err(err, DLP_EINVAL, "%s: graph %lld out of range (%lld graphs)", c ? c->path : "corpus",
                        (long long)i, c ? (long long)c->n : 0LL);
    const pack_entry *e = &c->ix[i];
    uint8_t *buf = malloc(e->len ? e->len : 1);
    if (!buf) return dlp__err(err, DLP_ENOMEM, "%s: graph %lld: out of memory", c->path, (long long)i);
    if (read_at(c->fd, buf, e->len, e->off)) {
        free(buf);
        return dlp__err(err, DLP_EIO, "%s: graph %lld (%s): read failed", c->path, (long long)i, e->name);
    }
    if (dlp__crc32(0, buf, e->len) != e->crc) {
        free(buf);
        return dlp__err(err, DLP_ECHECKSUM,
                        "%s: graph %lld (%s): record checksum mismatch (damaged pack; delete it to rebuild)",
                        c->path, (long long)i, e->name);
    }
    char name[256];
    snprintf(name, sizeof name, "%s: graph %lld (%s)", c->path, (long long)i, e->name);
    dlp_status st = dlp__features_load_mem(buf, e->len, name, out, err);
    free(buf);
    if (st) return st;
    if ((*out)->n_nodes != (int)e->nodes || (*out)->layout != c->layout) {
        dlp_features_free(*out);
        *out = NULL;
        return dlp__err(err, DLP_EFORMAT, "%s: record does not match the pack's index", name);
    }
    return DLP_OK;
}

/* ---- sources ------------------------------------------------------------ */

enum { SRC_ONNX, SRC_DLPG, SRC_DLPD, SRC_NB201 };

typedef struct {
    int kind;
    char *path;              /* NULL for help-nb201                         */
    const char *family;      /* from a manifest, or ""                      */
    const char *name;        /* manifest variant, or NULL (file stem)       */
} src_item;

typedef struct {
    src_item *v;
    int n, cap;
    dlp__arena a;            /* strings of items and manifests               */
    uint64_t hash;
} src_list;

static void hash_mix(uint64_t *h, const void *p, size_t n) { *h = dlp__hash_bytes(p, n, *h); }
static void hash_str(uint64_t *h, const char *s) { hash_mix(h, s, strlen(s) + 1); }
static void hash_stat(uint64_t *h, const struct stat *sb) {
    int64_t v[3] = {(int64_t)sb->st_size, (int64_t)sb->st_mtim.tv_sec, (int64_t)sb->st_mtim.tv_nsec};
    hash_mix(h, v, sizeof v);
}

static int kind_of(const char *path) {
    size_t n = strlen(path);
    if (n > 5 && !strcmp(path + n - 5, ".onnx")) return SRC_ONNX;
    if (n > 5 && !strcmp(path + n - 5, ".dlpg")) return SRC_DLPG;
    if (n > 5 && !strcmp(path + n - 5, ".dlpd")) return SRC_DLPD;
    return -1;
}

static int add_item(src_list *L, int kind, const char *path, const char *family, const char *name) {
    if (dlp__grow((void **)&L->v, L->n, &L->cap, sizeof *L->v)) return -1;
    src_item *it = &L->v[L->n];
    it->kind = kind;
    it->path = path ? dlp__arena_strdup(&L->a, path) : NULL;
    it->family = family ? family : "";
    it->name = name;
    if (path && !it->path) return -1;
    L->n++;
    return 0;
}

/* manifest.jsonl of dlperf-profile --unlabeled: stem -> (family, variant). */
typedef struct {
    const char *family, *variant;
} manifest_row;
typedef struct {
    dlp__strmap map;
    manifest_row *rows;
    int n, cap;
} manifest;

static void manifest_free(manifest *m) {
    dlp__strmap_free(&m->map);
    free(m->rows);
}

static int manifest_read(src_list *L, const char *path, manifest *m) {
    memset(m, 0, sizeof *m);
    if (dlp__strmap_init(&m->map, 64)) return -1;
    FILE *f = dlp__fopen_regular(path, NULL);
    if (!f) return 0;   /* unreadable manifest: files keep their stems */
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, f) > 0) {
        cJSON *j = cJSON_Parse(line);
        if (!j) continue;   /* a torn last line after a kill */
        const cJSON *hj = cJSON_GetObjectItemCaseSensitive(j, "hash");
        const cJSON *fj = cJSON_GetObjectItemCaseSensitive(j, "file");
        const cJSON *famj = cJSON_GetObjectItemCaseSensitive(j, "family");
        const cJSON *vj = cJSON_GetObjectItemCaseSensitive(j, "variant");
        char stem[512] = "";
        if (cJSON_IsString(fj) && fj->valuestring[0]) {
            snprintf(stem, sizeof stem, "%s", fj->valuestring);
            char *dot = strrchr(stem, '.');
            if (dot) *dot = 0;
        } else if (cJSON_IsString(hj) && hj->valuestring[0]) {
            snprintf(stem, sizeof stem, "%s", hj->valuestring);
        }
        if (stem[0] && dlp__strmap_get(&m->map, stem) < 0) {
            const char *k = dlp__arena_strdup(&L->a, stem);
            const char *fa = dlp__arena_strdup(&L->a, cJSON_IsString(famj) ? famj->valuestring : "");
            const char *va = cJSON_IsString(vj) && vj->valuestring[0] ? dlp__arena_strdup(&L->a, vj->valuestring) : NULL;
            if (!k || !fa || dlp__grow((void **)&m->rows, m->n, &m->cap, sizeof *m->rows)) goto oom;
            m->rows[m->n] = (manifest_row){fa, va};
            if (dlp__strmap_put(&m->map, k, m->n)) goto oom;
            m->n++;
        }
        cJSON_Delete(j);
        continue;
    oom:
        cJSON_Delete(j);
        free(line);
        fclose(f);
        return -1;
    }
    free(line);
    fclose(f);
    return 0;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Files of a directory, recursively, names sorted (byte order) so that the
 * corpus order does not depend on the file system. */
static dlp_status walk_dir(src_list *L, const char *dir, int depth, dlp_error *err) {
    if (depth > MAX_DEPTH) return DLP_OK;
    DIR *d = opendir(dir);
    if (!d) return dlp__err(err, DLP_EIO, "%s: cannot read folder: %s", dir, strerror(errno));
    char **names = NULL;
    int n = 0, cap = 0;
    dlp_status st = DLP_OK;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.') continue;
        char *s = strdup(de->d_name);
        if (!s || dlp__grow((void **)&names, n, &cap, sizeof *names)) {
            free(s);
            st = dlp__err(err, DLP_ENOMEM, "%s: out of memory", dir);
            break;
        }
        names[n++] = s;
    }
    closedir(d);
    if (!st) qsort(names, (size_t)n, sizeof *names, cmp_str);
    manifest m = {0};
    int have_manifest = 0;
    size_t dl = strlen(dir);
    char *path = malloc(dl + 1024 + 2);
    if (!st && !path) st = dlp__err(err, DLP_ENOMEM, "%s: out of memory", dir);
    for (int i = 0; i < n && !st; i++)
        if (!strcmp(names[i], "manifest.jsonl")) {
            snprintf(path, dl + 1026, "%s/%s", dir, names[i]);
            struct stat sb;
            if (stat(path, &sb) == 0) {
                hash_str(&L->hash, path);
                hash_stat(&L->hash, &sb);
            }
            if (manifest_read(L, path, &m)) st = dlp__err(err, DLP_ENOMEM, "%s: out of memory", path);
            have_manifest = 1;
        }
    for (int i = 0; i < n && !st; i++) {
        if (strlen(names[i]) > 1000) continue;
        snprintf(path, dl + 1026, "%s/%s", dir, names[i]);
        struct stat sb;
        if (stat(path, &sb) != 0) continue;
        if (S_ISDIR(sb.st_mode)) {
            st = walk_dir(L, path, depth + 1, err);
            continue;
        }
        int k = kind_of(names[i]);
        if (k < 0 || !S_ISREG(sb.st_mode)) continue;
        hash_str(&L->hash, path);
        hash_stat(&L->hash, &sb);
        const char *fam = NULL, *var = NULL;
        if (have_manifest) {
            char stem[1024];
            snprintf(stem, sizeof stem, "%s", names[i]);
            char *dot = strrchr(stem, '.');
            if (dot) *dot = 0;
            int mi = dlp__strmap_get(&m.map, stem);
            if (mi >= 0) {
                fam = m.rows[mi].family;
                var = m.rows[mi].variant;
            }
        }
        if (add_item(L, k, path, fam, var)) st = dlp__err(err, DLP_ENOMEM, "%s: out of memory", dir);
    }
    if (have_manifest) manifest_free(&m);
    free(path);
    for (int i = 0; i < n; i++) free(names[i]);
    free(names);
    return st;
}

static dlp_status list_sources(const char *const *sources, int n_sources, src_list *L, dlp_error *err) {
    for (int s = 0; s < n_sources; s++) {
        const char *src = sources[s];
        hash_str(&L->hash, "\x01source");
        hash_str(&L->hash, src);
        if (!strcmp(src, "help-nb201")) {
            if (add_item(L, SRC_NB201, NULL, "nb201", NULL)) return dlp__err(err, DLP_ENOMEM, "out of memory");
            continue;
        }
        struct stat sb;
        if (stat(src, &sb) != 0)
            return dlp__err(err, DLP_EIO, "%s: cannot read corpus source: %s", src, strerror(errno));
        if (S_ISDIR(sb.st_mode)) {
            dlp_status st = walk_dir(L, src, 0, err);
            if (st) return st;
            continue;
        }
        int k = kind_of(src);
        if (k < 0)
            return dlp__err(err, DLP_EINVAL,
                            "%s: not a corpus source (expected .onnx, .dlpg, .dlpd, a folder or help-nb201)", src);
        hash_stat(&L->hash, &sb);
        if (add_item(L, k, src, NULL, NULL)) return dlp__err(err, DLP_ENOMEM, "out of memory");
    }
    return DLP_OK;
}

/* ---- writing a pack ----------------------------------------------------- */

/* NB201 cell strings in a fixed scrambled order: the k-th cell is cell
 * number (k * 9657) mod 15625, whose base-5 digits (most significant first)
 * are the ops of the six edges.  9657 (about 15625 / golden ratio) is prime
 * to 5, so this is a permutation, and a prefix (--max-graphs) spreads over
 * the space: the first 20 cells already use every op on every edge, where
 * plain counting would vary only the last two edges. */
static const char *const nb201_ops[5] = {"none", "skip_connect", "nor_conv_1x1", "nor_conv_3x3",
                                         "avg_pool_3x3"};
static void nb201_arch(int k, char *buf, size_t n) {
    int c = (int)(((int64_t)k * 9657) % NB201_CELLS), d[6];
    for (int e = 5; e >= 0; e--) {
        d[e] = c % 5;
        c /= 5;
    }
    snprintf(buf, n, "|%s~0|+|%s~0|%s~1|+|%s~0|%s~1|%s~2|", nb201_ops[d[0]], nb201_ops[d[1]], nb201_ops[d[2]],
             nb201_ops[d[3]], nb201_ops[d[4]], nb201_ops[d[5]]);
}

typedef struct {
    const dlp_corpus_opts *o;
    int layout;
    int fd;
    const char *tmp;
    uint64_t pos;
    uint8_t *index;          /* growing index bytes */
    size_t ilen, icap;
    int64_t n, skipped, too_big;
} pack_writer;

static void warnf(const dlp_corpus_opts *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warnf(const dlp_corpus_opts *o, const char *fmt, ...) {
    if (!o->warn) return;
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    o->warn(o->warn_user, msg);
}

static int done_writing(const pack_writer *w) { return w->o->max_graphs > 0 && w->n >= w->o->max_graphs; }

/* Append one graph (not consumed).  Errors are write errors: fatal. */
static dlp_status put_graph(pack_writer *w, const dlp_features *f, const char *family, const char *name,
                            dlp_error *err) {
    if (w->o->max_nodes > 0 && f->n_nodes > w->o->max_nodes) {
        w->too_big++;
        return DLP_OK;
    }
    uint8_t *buf;
    size_t len;
    dlp_status st = dlp__features_save_mem(f, name, &buf, &len, err);
    if (st) return st;
    uint32_t crc = dlp__crc32(0, buf, len);
    int wr = write_all(w->fd, buf, len);
    free(buf);
    if (wr) return dlp__err(err, DLP_EIO, "%s: write failed: %s", w->tmp, strerror(errno));
    size_t fl = strlen(family), nl = strlen(name);
    if (fl > 65535) fl = 65535;
    if (nl > 65535) nl = 65535;
    size_t need = w->ilen + 28 + fl + nl;
    if (need > w->icap) {
        size_t nc = w->icap ? w->icap * 2 : 4096;
        while (nc < need) nc *= 2;
        uint8_t *ni = realloc(w->index, nc);
        if (!ni) return dlp__err(err, DLP_ENOMEM, "%s: out of memory", w->tmp);
        w->index = ni;
        w->icap = nc;
    }
    uint8_t *p = w->index + w->ilen;
    put64(p, w->pos);
    put64(p + 8, len);
    put32(p + 16, crc);
    put32(p + 20, (uint32_t)f->n_nodes);
    p[24] = (uint8_t)fl;
    p[25] = (uint8_t)(fl >> 8);
    p[26] = (uint8_t)nl;
    p[27] = (uint8_t)(nl >> 8);
    memcpy(p + 28, family, fl);
    memcpy(p + 28 + fl, name, nl);
    w->ilen = need;
    w->pos += len;
    w->n++;
    return DLP_OK;
}

static void stem_of(const char *path, char *buf, size_t n) {
    snprintf(buf, n, "%s", dlp__basename(path));
    char *dot = strrchr(buf, '.');
    if (dot && dot != buf) *dot = 0;
}

static int layout_ok(pack_writer *w, const char *path, int layout) {
    if (layout == w->layout) return 1;
    w->skipped++;
    warnf(w->o, "%s: skipped: %s layout, the corpus is %s", path, dlp_layout_name(layout),
          dlp_layout_name(w->layout));
    return 0;
}

static dlp_status convert_item(pack_writer *w, const src_item *it, dlp_error *err) {
    dlp_error e = {0};
    dlp_status st = DLP_OK;
    char stem[256];
    if (it->kind == SRC_NB201) {
        char arch[160];
        for (int k = 0; k < NB201_CELLS && !done_writing(w) && !st; k++) {
            nb201_arch(k, arch, sizeof arch);
            dlp_graph *g = NULL;
            dlp_features *f = NULL;
            if (dlp_graph_from_nb201_mode(arch, w->o->batch > 0 ? w->o->batch : 1, DLP_NB201_EXECUTED, &g, &e) ||
                dlp_features_build(g, w->layout, &f, &e)) {
                dlp_graph_free(g);
                w->skipped++;
                warnf(w->o, "help-nb201 %s: skipped: %s", arch, e.msg);
                continue;
            }
            dlp_graph_free(g);
            st = put_graph(w, f, "nb201", arch, err);
            dlp_features_free(f);
        }
        return st;
    }
    stem_of(it->path, stem, sizeof stem);
    const char *name = it->name ? it->name : stem;
    if (it->kind == SRC_ONNX || it->kind == SRC_DLPG) {
        dlp_features *f = NULL;
        if (it->kind == SRC_ONNX) {
            dlp_load_opts lo = {.batch = w->o->batch > 0 ? w->o->batch : 1};
            dlp_graph *g = NULL;
            if (dlp_graph_load(it->path, &lo, &g, &e) || dlp_features_build(g, w->layout, &f, &e)) {
                dlp_graph_free(g);
                w->skipped++;
                warnf(w->o, "%s: skipped: %s", it->path, e.msg);
                return DLP_OK;
            }
            dlp_graph_free(g);
        } else {
            if (dlp_features_load(it->path, &f, &e)) {
                w->skipped++;
                warnf(w->o, "%s: skipped: %s", it->path, e.msg);
                return DLP_OK;
            }
            if (!layout_ok(w, it->path, f->layout)) {
                dlp_features_free(f);
                return DLP_OK;
            }
        }
        st = put_graph(w, f, it->family, name, err);
        dlp_features_free(f);
        return st;
    }
    /* .dlpd: every graph, named and classed by the first sample using it */
    dlp_dataset *ds = NULL;
    if (dlp_dataset_load(it->path, &ds, &e)) {
        w->skipped++;
        warnf(w->o, "%s: skipped: %s", it->path, e.msg);
        return DLP_OK;
    }
    if (!layout_ok(w, it->path, dlp_dataset_layout(ds))) {
        dlp_dataset_free(ds);
        return DLP_OK;
    }
    int ng = dlp_dataset_graph_count(ds), ns = dlp_dataset_count(ds);
    int *first = malloc(sizeof *first * (size_t)(ng ? ng : 1));
    if (!first) {
        dlp_dataset_free(ds);
        return dlp__err(err, DLP_ENOMEM, "%s: out of memory", it->path);
    }
    for (int g = 0; g < ng; g++) first[g] = -1;
    for (int s = 0; s < ns; s++) {
        const dlp_dataset_sample *sm = dlp_dataset_at(ds, s);
        if (sm && sm->graph >= 0 && sm->graph < ng && first[sm->graph] < 0) first[sm->graph] = s;
    }
    for (int g = 0; g < ng && !st && !done_writing(w); g++) {
        char gname[300];
        const char *fam = it->family;
        const dlp_dataset_sample *sm = first[g] >= 0 ? dlp_dataset_at(ds, first[g]) : NULL;
        if (sm) {
            fam = sm->family && sm->family[0] ? sm->family : it->family;
            snprintf(gname, sizeof gname, "%s", sm->name && sm->name[0] ? sm->name : "");
        } else {
            gname[0] = 0;
        }
        if (!gname[0]) snprintf(gname, sizeof gname, "%s#%d", name, g);
        st = put_graph(w, dlp_dataset_graph_at(ds, g), fam, gname, err);
    }
    free(first);
    dlp_dataset_free(ds);
    return st;
}

static dlp_status pack_build(const src_list *L, const char *pack_path, const dlp_corpus_opts *o, int layout,
                             dlp_error *err) {
    size_t pl = strlen(pack_path);
    char *tmp = malloc(pl + 32);
    if (!tmp) return dlp__err(err, DLP_ENOMEM, "%s: out of memory", pack_path);
    snprintf(tmp, pl + 32, "%s.tmp.%ld", pack_path, (long)getpid());
    pack_writer w = {.o = o, .layout = layout, .tmp = tmp, .pos = DLPC_HDR};
    w.fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (w.fd < 0) {
        dlp_status s = dlp__err(err, DLP_EIO, "%s: cannot create: %s", pack_path, strerror(errno));
        free(tmp);
        return s;
    }
    uint8_t h[DLPC_HDR] = {0}, t[DLPC_TRAILER] = {0};
    memcpy(h, "DLPC", 4);
    put32(h + 4, DLPC_VERSION);
    put32(h + 8, (uint32_t)layout);
    put32(h + 12, (uint32_t)layout_version_of(layout));
    put64(h + 16, L->hash);
    put32(h + 60, dlp__crc32(0, h, 60));
    dlp_status st = DLP_OK;
    if (write_all(w.fd, h, DLPC_HDR)) st = dlp__err(err, DLP_EIO, "%s: write failed: %s", tmp, strerror(errno));
    for (int i = 0; i < L->n && !st && !done_writing(&w); i++) st = convert_item(&w, &L->v[i], err);
    if (!st && w.too_big)
        warnf(o, "%lld graph%s with more than %lld nodes left out", (long long)w.too_big, w.too_big == 1 ? "" : "s",
              (long long)o->max_nodes);
    if (!st && w.n == 0)
        st = dlp__err(err, DLP_EINVAL, "%s: no graph to pack: %lld source file%s could not be read%s", pack_path,
                      (long long)w.skipped, w.skipped == 1 ? "" : "s",
                      w.too_big ? ", the others are over --max-nodes" : "");
    if (!st) {
        put64(t, w.pos);
        put64(t + 8, w.ilen);
        put64(t + 16, (uint64_t)w.n);
        put64(t + 24, (uint64_t)w.skipped);
        put32(t + 32, dlp__crc32(0, w.index, w.ilen));
        put32(t + 36, dlp__crc32(0, t, 36));
        memcpy(t + 40, "DLPCEND", 8);
        if (write_all(w.fd, w.index, w.ilen) || write_all(w.fd, t, DLPC_TRAILER) || fsync(w.fd) != 0)
            st = dlp__err(err, DLP_EIO, "%s: write failed: %s", tmp, strerror(errno));
    }
    if (close(w.fd) != 0 && !st) st = dlp__err(err, DLP_EIO, "%s: write failed: %s", tmp, strerror(errno));
    if (!st && rename(tmp, pack_path) != 0)
        st = dlp__err(err, DLP_EIO, "%s: cannot replace: %s", pack_path, strerror(errno));
    if (st) unlink(tmp);
    free(tmp);
    free(w.index);
    return st;
}

dlp_status dlp_corpus_pack(const char *const *sources, int n_sources, const char *pack_path,
                           const dlp_corpus_opts *opts, dlp_corpus **out, dlp_error *err) {
    *out = NULL;
    dlp_corpus_opts o = {0};
    if (opts) o = *opts;
    if (!pack_path || !*pack_path) return dlp__err(err, DLP_EINVAL, "corpus: no pack file given");
    if (n_sources <= 0) return dlp_corpus_open(pack_path, out, err);
    int layout = norm_layout(o.layout);
    if (!dlp_layout_width(layout)) return dlp__err(err, DLP_EINVAL, "corpus: unknown layout %d", o.layout);
    if (o.max_graphs < 0 || o.max_nodes < 0 || o.batch < 0)
        return dlp__err(err, DLP_EINVAL, "corpus: negative batch, max_graphs or max_nodes");
    src_list L = {0};
    L.hash = 0x636f727075730001ull;   /* bump the low bits when conversion changes */
    int64_t opt[5] = {layout, layout_version_of(layout), o.batch > 0 ? o.batch : 1, o.max_graphs, o.max_nodes};
    hash_mix(&L.hash, opt, sizeof opt);
    dlp_status st = list_sources(sources, n_sources, &L, err);
    if (!st) {
        dlp_corpus *c = NULL;
        dlp_error e2 = {0};
        /* reuse a pack built from the same sources with the same options;
         * anything else (absent, damaged, stale) is rebuilt */
        if (!pack_open(pack_path, &c, &e2) && c->src_hash == L.hash && c->layout == layout &&
            c->layout_version == layout_version_of(layout)) {
            *out = c;
        } else {
            dlp_corpus_close(c);
            st = pack_build(&L, pack_path, &o, layout, err);
            if (!st) st = pack_open(pack_path, out, err);
        }
    }
    free(L.v);
    dlp__arena_free(&L.a);
    return st;
}
