/*
 * dataset.c — training sets of feature graphs with measured targets, and
 * their .dlpd file.
 *
 * A dataset holds graphs (dlp_features, one layout for the whole set) and
 * samples that point at them: HELP measured every NAS-Bench-201 cell on
 * ~20 device/batch settings, and every setting at one batch sees the same
 * graph, so a graph is stored once and shared by its samples (19 NB201
 * settings use only 3 distinct batches).  Samples carry float targets (NaN
 * = missing), family/device/name strings (interned: the same arch string
 * on 19 devices is one string) and a device id (index into the device
 * list, in the order devices were first seen or registered).
 *
 * The fingerprint is a 64-bit hash of the logical content, chained over
 * samples in order (each sample hashes its graph's content hash, targets,
 * strings and device id), so it is independent of sharing and of the byte
 * layout, cheap to keep up to date while adding, and any single changed
 * word changes it (every step of the chain is a bijection of the state).
 *
 * File (little-endian; docs/datasets.md):
 *   header (72 bytes): "DLPD", u32 format version, layout, layout version,
 *     n_feat, n_static, n_targets, n_devices, n_strings, n_graphs, n_samples,
 *     u32 0, u64 strtab_bytes, u64 graphs_bytes, u64 fingerprint
 *   string table: n_strings x (u32 len, bytes)          (no NUL inside)
 *   target names: n_targets x u32 string id
 *   devices:      n_devices x u32 string id
 *   graphs: n_graphs x (u32 n_nodes, u32 n_edges, u32 name id, u32 0,
 *           f64 static[n_static], f32 x[n_nodes*n_feat],
 *           i32 rowptr[n_nodes+1], i32 col[n_edges])
 *   samples: n_samples x (u32 graph, u32 family id, u32 device id,
 *            u32 name id, f32 targets[n_targets])
 *   u32 CRC-32 of everything before it
 * Loading never trusts a count: every size is checked against the file's
 * length before anything is read, the CSR and every id are range-checked,
 * and the recomputed fingerprint must equal the stored one.
 */
#include <stdatomic.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error ".dlpd files are little-endian; this code memcpy's host words"
#endif

#define DLPD_VERSION 1u
#define DLPD_HDR 72
#define MAX_TARGETS 1024
#define MAX_STR (1u << 20)
#define MAX_NODES (1u << 26)
#define MAX_EDGES (1u << 28)
#define MAX_COUNT 0x7fffffff

typedef struct {
    int graph, family, device, name; /* string ids, device = index into dev[] */
} sample_t;

struct dlp_dataset {
    int layout, layout_version, n_feat;
    int n_targets;
    int *target_sid;
    /* interned strings */
    char **str;
    int n_str, cap_str;
    dlp__strmap smap;
    /* graphs */
    dlp_features **graphs;
    uint64_t *ghash;         /* content hash per graph (for the fingerprint) */
    int *gname;              /* string id of each graph's name              */
    int n_graphs, cap_graphs;
    /* devices: string ids in id order */
    int *dev_sid;
    int n_dev, cap_dev;
    /* samples; targets is (cap_samples, n_targets) */
    sample_t *samples;
    float *targets;
    int n_samples, cap_samples;
    uint64_t fp;
    /* what dlp_dataset_at points into: built on first use, swapped in
     * atomically (concurrent readers keep one copy), dropped when a sample
     * is added (its pointers into targets may move) */
    _Atomic(dlp_dataset_sample *) pub;
};

/* ---- hashing ------------------------------------------------------------ */

static uint64_t fmix(uint64_t h) {
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

/* Word-at-a-time: ~1 multiply per 8 bytes, so hashing a 2 GB set is a
 * fraction of a second.  Each step is a bijection of the state. */
static uint64_t hmem(uint64_t h, const void *p, size_t n) {
    const uint8_t *s = p;
    h ^= (uint64_t)n * 0x9e3779b97f4a7c15ULL;
    h = fmix(h);
    while (n >= 8) {
        uint64_t w;
        memcpy(&w, s, 8);
        h = (h ^ w) * 0xbf58476d1ce4e5b9ULL;
        h ^= h >> 31;
        s += 8;
        n -= 8;
    }
    if (n) {
        uint64_t w = 0;
        memcpy(&w, s, n);
        h = (h ^ w) * 0x94d049bb133111ebULL;
        h ^= h >> 29;
    }
    return fmix(h);
}

static uint64_t hstr(uint64_t h, const char *s) { return hmem(h, s, strlen(s)); }

/* NaN payloads differ between producers; every missing value is one NaN. */
static float canon(float v) { return isnan(v) ? NAN : v; }

static uint64_t graph_hash(const dlp_features *f) {
    uint32_t head[2] = {(uint32_t)f->n_nodes, (uint32_t)f->n_edges};
    uint64_t h = hmem(0x6772617068ULL, head, sizeof head);
    h = hmem(h, f->static_f, sizeof f->static_f);
    h = hmem(h, f->x, sizeof(float) * (size_t)f->n_nodes * (size_t)f->n_feat);
    h = hmem(h, f->rowptr, sizeof(int32_t) * ((size_t)f->n_nodes + 1));
    h = hmem(h, f->col, sizeof(int32_t) * (size_t)f->n_edges);
    return hstr(h, f->name);
}

static uint64_t seed_hash(const dlp_dataset *ds) {
    uint32_t head[5] = {(uint32_t)ds->layout, (uint32_t)ds->layout_version, (uint32_t)ds->n_feat,
                        DLP_SF_COUNT, (uint32_t)ds->n_targets};
    uint64_t h = hmem(0x646c7064ULL, head, sizeof head);
    for (int k = 0; k < ds->n_targets; k++) h = hstr(h, ds->str[ds->target_sid[k]]);
    return h;
}

static uint64_t chain_sample(const dlp_dataset *ds, uint64_t fp, int i) {
    const sample_t *s = &ds->samples[i];
    uint64_t rec[4] = {ds->ghash[s->graph], hstr(0, ds->str[s->family]),
                       hstr(1, ds->str[ds->dev_sid[s->device]]), hstr(2, ds->str[s->name])};
    fp = hmem(fp, rec, sizeof rec);
    uint32_t dev = (uint32_t)s->device;
    fp = hmem(fp, &dev, sizeof dev);
    const float *t = ds->targets + (size_t)i * (size_t)ds->n_targets;
    for (int k = 0; k < ds->n_targets; k++) {
        float v = canon(t[k]);
        fp = hmem(fp, &v, sizeof v);
    }
    return fp;
}

/* ---- construction --------------------------------------------------------- */

static int intern(dlp_dataset *ds, const char *s) {
    if (!s) s = "";
    int id = dlp__strmap_get(&ds->smap, s);
    if (id >= 0) return id;
    if (ds->n_str >= MAX_COUNT - 1 || dlp__grow((void **)&ds->str, ds->n_str, &ds->cap_str, sizeof(char *)))
        return -1;
    char *c = strdup(s);
    if (!c) return -1;
    if (dlp__strmap_put(&ds->smap, c, ds->n_str)) {
        free(c);
        return -1;
    }
    ds->str[ds->n_str] = c;
    return ds->n_str++;
}

void dlp_dataset_free(dlp_dataset *ds) {
    if (!ds) return;
    for (int i = 0; i < ds->n_str; i++) free(ds->str[i]);
    free(ds->str);
    dlp__strmap_free(&ds->smap);
    for (int i = 0; i < ds->n_graphs; i++) dlp_features_free(ds->graphs[i]);
    free(ds->graphs);
    free(ds->ghash);
    free(ds->gname);
    free(ds->target_sid);
    free(ds->dev_sid);
    free(ds->samples);
    free(ds->targets);
    free(atomic_load(&ds->pub));
    free(ds);
}

static dlp_status new_empty(int layout, int n_targets, dlp_dataset **out, dlp_error *err) {
    *out = NULL;
    if (!dlp_layout_width(layout)) return dlp__err(err, DLP_EINVAL, "dataset: unknown feature layout %d", layout);
    if (n_targets < 0 || n_targets > MAX_TARGETS)
        return dlp__err(err, DLP_EINVAL, "dataset: %d targets (at most %d)", n_targets, MAX_TARGETS);
    dlp_dataset *ds = calloc(1, sizeof *ds);
    if (!ds) return dlp__err(err, DLP_ENOMEM, "out of memory");
    ds->layout = layout;
    ds->layout_version = layout == DLP_LAYOUT_TRAPPM ? DLP_LAYOUT_TRAPPM_VERSION : DLP_LAYOUT_DIPPM_VERSION;
    ds->n_feat = dlp_layout_width(layout);
    ds->n_targets = n_targets;
    ds->target_sid = calloc((size_t)n_targets + 1, sizeof(int));
    if (!ds->target_sid || dlp__strmap_init(&ds->smap, 64)) {
        dlp_dataset_free(ds);
        return dlp__err(err, DLP_ENOMEM, "out of memory");
    }
    *out = ds;
    return DLP_OK;
}

dlp_status dlp_dataset_new(dlp_layout layout, int n_targets, const char *const *target_names,
                           dlp_dataset **out, dlp_error *err) {
    if (!out) return dlp__err(err, DLP_EINVAL, "dlp_dataset_new: out is NULL");
    dlp_status st = new_empty(layout, n_targets, out, err);
    if (st) return st;
    dlp_dataset *ds = *out;
    for (int k = 0; k < n_targets && !st; k++) {
        const char *nm = target_names ? target_names[k] : NULL;
        if (!nm || !*nm || strlen(nm) > 256) {
            st = dlp__err(err, DLP_EINVAL, "dataset: target %d has no name (or one over 256 bytes)", k);
            break;
        }
        for (int j = 0; j < k; j++)
            if (!strcmp(target_names[j], nm)) st = dlp__err(err, DLP_EINVAL, "dataset: target '%s' given twice", nm);
        if (!st && (ds->target_sid[k] = intern(ds, nm)) < 0) st = dlp__err(err, DLP_ENOMEM, "out of memory");
    }
    if (st) {
        dlp_dataset_free(ds);
        *out = NULL;
        return st;
    }
    ds->fp = seed_hash(ds);
    return DLP_OK;
}

/* A graph the file can hold and the loader will accept: checked here so that
 * a saved set always loads. */
static dlp_status check_graph(const dlp_dataset *ds, const dlp_features *f, dlp_error *err) {
    if (f->layout != ds->layout || f->layout_version != ds->layout_version || f->n_feat != ds->n_feat)
        return dlp__err(err, DLP_EINVAL, "dataset: graph '%.128s' is %s v%d (%d wide), the dataset is %s v%d",
                        f->name, dlp_layout_name(f->layout), f->layout_version, f->n_feat,
                        dlp_layout_name(ds->layout), ds->layout_version);
    if (f->n_nodes < 0 || (uint32_t)f->n_nodes > MAX_NODES || f->n_edges < 0 || (uint32_t)f->n_edges > MAX_EDGES)
        return dlp__err(err, DLP_EINVAL, "dataset: graph '%.128s' has %d nodes and %d edges (limits %u, %u)",
                        f->name, f->n_nodes, f->n_edges, MAX_NODES, MAX_EDGES);
    int bad = !f->rowptr || (f->n_nodes && !f->x) || (f->n_edges && !f->col) || f->rowptr[0] != 0 ||
              f->rowptr[f->n_nodes] != f->n_edges;
    for (int i = 0; i < f->n_nodes && !bad; i++) bad = f->rowptr[i] > f->rowptr[i + 1];
    for (int e = 0; e < f->n_edges && !bad; e++) bad = f->col[e] < 0 || f->col[e] >= f->n_nodes;
    if (bad) return dlp__err(err, DLP_EINVAL, "dataset: graph '%.128s' has an inconsistent CSR adjacency", f->name);
    return DLP_OK;
}

/* Arrays grow together so that cap_* is valid for each of them. */
static int grow_graphs(dlp_dataset *ds) {
    if (ds->n_graphs < ds->cap_graphs) return 0;
    if (ds->n_graphs >= MAX_COUNT / 2) return -1;
    size_t cap = ds->cap_graphs ? (size_t)ds->cap_graphs * 2 : 64;
    void *a = realloc(ds->graphs, cap * sizeof *ds->graphs);
    if (!a) return -1;
    ds->graphs = a;
    void *b = realloc(ds->ghash, cap * sizeof *ds->ghash);
    if (!b) return -1;
    ds->ghash = b;
    void *c = realloc(ds->gname, cap * sizeof *ds->gname);
    if (!c) return -1;
    ds->gname = c;
    ds->cap_graphs = (int)cap;
    return 0;
}

/* The records of dlp_dataset_at are stale once samples change. */
static void drop_records(dlp_dataset *ds) { free(atomic_exchange(&ds->pub, NULL)); }

/* Room for `need` samples. */
static int reserve_samples(dlp_dataset *ds, size_t need) {
    drop_records(ds);
    if (need <= (size_t)ds->cap_samples) return 0;
    if (need > MAX_COUNT / 2) return -1;
    size_t cap = ds->cap_samples ? (size_t)ds->cap_samples * 2 : 256;
    if (cap < need) cap = need;
    void *a = realloc(ds->samples, cap * sizeof *ds->samples);
    if (!a) return -1;
    ds->samples = a;
    void *b = realloc(ds->targets, cap * (size_t)(ds->n_targets ? ds->n_targets : 1) * sizeof(float));
    if (!b) return -1;
    ds->targets = b;
    ds->cap_samples = (int)cap;
    return 0;
}

dlp_status dlp_dataset_add_graph(dlp_dataset *ds, dlp_features *f, int *graph_id, dlp_error *err) {
    dlp_status st = DLP_OK;
    int sid = -1;
    if (!ds || !f) st = dlp__err(err, DLP_EINVAL, "dlp_dataset_add_graph: NULL dataset or features");
    else if (!(st = check_graph(ds, f, err)) && (grow_graphs(ds) || (sid = intern(ds, f->name)) < 0))
        st = dlp__err(err, DLP_ENOMEM, "dataset: out of memory (%d graphs)", ds->n_graphs);
    if (st) {
        dlp_features_free(f);
        return st;
    }
    ds->gname[ds->n_graphs] = sid;
    ds->ghash[ds->n_graphs] = graph_hash(f);
    ds->graphs[ds->n_graphs] = f;
    if (graph_id) *graph_id = ds->n_graphs;
    ds->n_graphs++;
    return DLP_OK;
}

int dlp_dataset_add_device(dlp_dataset *ds, const char *device) {
    if (!ds) return -1;
    if (!device) device = "";
    if (strlen(device) > MAX_STR) return -1;
    int sid = intern(ds, device);
    if (sid < 0) return -1;
    for (int d = 0; d < ds->n_dev; d++)
        if (ds->dev_sid[d] == sid) return d;
    if (dlp__grow((void **)&ds->dev_sid, ds->n_dev, &ds->cap_dev, sizeof(int))) return -1;
    ds->dev_sid[ds->n_dev] = sid;
    return ds->n_dev++;
}

dlp_status dlp_dataset_add_sample(dlp_dataset *ds, int graph_id, const float *targets,
                                  const char *family, const char *device, const char *name,
                                  dlp_error *err) {
    if (!ds) return dlp__err(err, DLP_EINVAL, "dlp_dataset_add_sample: NULL dataset");
    if (graph_id < 0 || graph_id >= ds->n_graphs)
        return dlp__err(err, DLP_EINVAL, "dataset: sample on graph %d, the dataset has %d", graph_id, ds->n_graphs);
    const char *strs[3] = {family, device, name};
    for (int k = 0; k < 3; k++)
        if (strs[k] && strlen(strs[k]) > MAX_STR)
            return dlp__err(err, DLP_EINVAL, "dataset: a string of over %u bytes", MAX_STR);
    int fam = intern(ds, family), nm = intern(ds, name), dev = dlp_dataset_add_device(ds, device);
    if (fam < 0 || nm < 0 || dev < 0 || reserve_samples(ds, (size_t)ds->n_samples + 1))
        return dlp__err(err, DLP_ENOMEM, "dataset: out of memory (%d samples)", ds->n_samples);
    int i = ds->n_samples;
    ds->samples[i] = (sample_t){graph_id, fam, dev, nm};
    float *t = ds->targets + (size_t)i * (size_t)ds->n_targets;
    for (int k = 0; k < ds->n_targets; k++) t[k] = canon(targets ? targets[k] : NAN);
    ds->n_samples++;
    drop_records(ds);
    ds->fp = chain_sample(ds, ds->fp, i);
    return DLP_OK;
}

dlp_status dlp_dataset_add(dlp_dataset *ds, dlp_features *f, const float *targets,
                           const char *family, const char *device, const char *name,
                           dlp_error *err) {
    int gid;
    dlp_status st = dlp_dataset_add_graph(ds, f, &gid, err);
    if (st) return st;
    st = dlp_dataset_add_sample(ds, gid, targets, family, device, name, err);
    if (st) { /* keep "one graph with one sample" atomic */
        ds->n_graphs--;
        dlp_features_free(ds->graphs[ds->n_graphs]);
    }
    return st;
}

/* Append every sample of src (its graphs copied once each) to dst: the
 * layouts must match and src's targets must all be dst's (by name, in any
 * order; a dst target src lacks is NaN).  On failure dst keeps what was
 * appended so far: callers build into a fresh dataset and drop it then. */
static dlp_features *features_copy(const dlp_features *f) {
    dlp_features *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    *c = *f;
    c->x = malloc(sizeof(float) * ((size_t)f->n_nodes * (size_t)f->n_feat + 1));
    c->rowptr = malloc(sizeof(int32_t) * ((size_t)f->n_nodes + 1));
    c->col = malloc(sizeof(int32_t) * ((size_t)f->n_edges + 1));
    if (!c->x || !c->rowptr || !c->col) {
        dlp_features_free(c);
        return NULL;
    }
    if (f->n_nodes) memcpy(c->x, f->x, sizeof(float) * (size_t)f->n_nodes * (size_t)f->n_feat);
    memcpy(c->rowptr, f->rowptr, sizeof(int32_t) * ((size_t)f->n_nodes + 1));
    if (f->n_edges) memcpy(c->col, f->col, sizeof(int32_t) * (size_t)f->n_edges);
    return c;
}

dlp_status dlp_dataset_append(dlp_dataset *dst, const dlp_dataset *src, dlp_error *err) {
    if (!dst || !src) return dlp__err(err, DLP_EINVAL, "dlp_dataset_append: NULL dataset");
    if (dst->layout != src->layout || dst->layout_version != src->layout_version)
        return dlp__err(err, DLP_EINVAL, "dataset: cannot append a %s dataset to a %s one",
                        dlp_layout_name(src->layout), dlp_layout_name(dst->layout));
    int *tmap = malloc(sizeof(int) * ((size_t)dst->n_targets + 1));
    int *gmap = malloc(sizeof(int) * ((size_t)src->n_graphs + 1));
    float *t = malloc(sizeof(float) * ((size_t)dst->n_targets + 1));
    dlp_status st = DLP_OK;
    if (!tmap || !gmap || !t) st = dlp__err(err, DLP_ENOMEM, "dataset: out of memory");
    /* tmap[k]: src's column of dst's target k, -1 if src lacks it */
    for (int k = 0; !st && k < dst->n_targets; k++)
        tmap[k] = dlp_dataset_target_index(src, dst->str[dst->target_sid[k]]);
    for (int k = 0; !st && k < src->n_targets; k++)
        if (dlp_dataset_target_index(dst, src->str[src->target_sid[k]]) < 0)
            st = dlp__err(err, DLP_EINVAL, "dataset: target '%s' is not one of the first dataset's",
                          src->str[src->target_sid[k]]);
    for (int g = 0; !st && g < src->n_graphs; g++) gmap[g] = -1;
    for (int i = 0; !st && i < src->n_samples; i++) {
        const sample_t *s = &src->samples[i];
        if (gmap[s->graph] < 0) {
            dlp_features *c = features_copy(src->graphs[s->graph]);
            if (!c) st = dlp__err(err, DLP_ENOMEM, "dataset: out of memory copying graph %d", s->graph);
            else st = dlp_dataset_add_graph(dst, c, &gmap[s->graph], err);
            if (st) break;
        }
        const float *st_t = src->targets + (size_t)i * (size_t)src->n_targets;
        for (int k = 0; k < dst->n_targets; k++) t[k] = tmap[k] >= 0 ? st_t[tmap[k]] : NAN;
        st = dlp_dataset_add_sample(dst, gmap[s->graph], t, src->str[s->family],
                                    src->str[src->dev_sid[s->device]], src->str[s->name], err);
    }
    free(tmap);
    free(gmap);
    free(t);
    return st;
}

/* ---- queries ------------------------------------------------------------- */

int dlp_dataset_count(const dlp_dataset *ds) { return ds ? ds->n_samples : 0; }
int dlp_dataset_graph_count(const dlp_dataset *ds) { return ds ? ds->n_graphs : 0; }
int dlp_dataset_layout(const dlp_dataset *ds) { return ds ? ds->layout : 0; }
int dlp_dataset_target_count(const dlp_dataset *ds) { return ds ? ds->n_targets : 0; }
int dlp_dataset_device_count(const dlp_dataset *ds) { return ds ? ds->n_dev : 0; }

const char *dlp_dataset_target_at(const dlp_dataset *ds, int k) {
    return ds && k >= 0 && k < ds->n_targets ? ds->str[ds->target_sid[k]] : NULL;
}

int dlp_dataset_target_index(const dlp_dataset *ds, const char *name) {
    for (int k = 0; ds && name && k < ds->n_targets; k++)
        if (!strcmp(ds->str[ds->target_sid[k]], name)) return k;
    return -1;
}

const char *dlp_dataset_device_at(const dlp_dataset *ds, int id) {
    return ds && id >= 0 && id < ds->n_dev ? ds->str[ds->dev_sid[id]] : NULL;
}

const dlp_features *dlp_dataset_graph_at(const dlp_dataset *ds, int g) {
    return ds && g >= 0 && g < ds->n_graphs ? ds->graphs[g] : NULL;
}

static void fill_sample(const dlp_dataset *ds, int i, dlp_dataset_sample *out) {
    const sample_t *s = &ds->samples[i];
    out->features = ds->graphs[s->graph];
    out->graph = s->graph;
    out->targets = ds->targets + (size_t)i * (size_t)ds->n_targets;
    out->family = ds->str[s->family];
    out->device = ds->str[ds->dev_sid[s->device]];
    out->name = ds->str[s->name];
    out->device_id = s->device;
    out->batch = (int64_t)out->features->static_f[DLP_SF_BATCH];
}

const dlp_dataset_sample *dlp_dataset_at(const dlp_dataset *ds, int i) {
    if (!ds || i < 0 || i >= ds->n_samples) return NULL;
    dlp_dataset_sample *have = atomic_load(&ds->pub);
    if (!have) {
        /* every reader that finds none builds a copy; the first offer stays */
        dlp_dataset_sample *mine = malloc(sizeof *mine * (size_t)ds->n_samples);
        if (!mine) return NULL;
        for (int k = 0; k < ds->n_samples; k++) fill_sample(ds, k, &mine[k]);
        if (atomic_compare_exchange_strong(&((dlp_dataset *)ds)->pub, &have, mine)) have = mine;
        else free(mine);
    }
    return &have[i];
}

uint64_t dlp_dataset_fingerprint(const dlp_dataset *ds) { return ds ? ds->fp : 0; }

/* ---- save ---------------------------------------------------------------- */

static size_t graph_bytes(const dlp_features *f) {
    return 16 + 8 * (size_t)DLP_SF_COUNT + 4 * (size_t)f->n_nodes * (size_t)f->n_feat +
           4 * ((size_t)f->n_nodes + 1) + 4 * (size_t)f->n_edges;
}

static uint8_t *put(uint8_t *p, const void *src, size_t n) {
    if (n) memcpy(p, src, n);
    return p + n;
}

static uint8_t *put_u32(uint8_t *p, uint32_t v) { return put(p, &v, 4); }
static uint8_t *put_u64(uint8_t *p, uint64_t v) { return put(p, &v, 8); }

dlp_status dlp_dataset_save(const dlp_dataset *ds, const char *path, dlp_error *err) {
    if (!ds || !path) return dlp__err(err, DLP_EINVAL, "dlp_dataset_save: NULL argument");
    size_t strtab = 0, graphs = 0;
    for (int i = 0; i < ds->n_str; i++) strtab += 4 + strlen(ds->str[i]);
    for (int g = 0; g < ds->n_graphs; g++) graphs += graph_bytes(ds->graphs[g]);
    size_t rec = 16 + 4 * (size_t)ds->n_targets;
    size_t total = DLPD_HDR + strtab + 4 * (size_t)ds->n_targets + 4 * (size_t)ds->n_dev + graphs +
                   (size_t)ds->n_samples * rec + 4;
    uint8_t *buf = malloc(total), *p = buf;
    if (!buf) return dlp__err(err, DLP_ENOMEM, "%s: out of memory (%zu bytes)", path, total);
    uint32_t n_strings = (uint32_t)ds->n_str;
    p = put(p, "DLPD", 4);
    uint32_t h[11] = {DLPD_VERSION, (uint32_t)ds->layout, (uint32_t)ds->layout_version, (uint32_t)ds->n_feat,
                      DLP_SF_COUNT, (uint32_t)ds->n_targets, (uint32_t)ds->n_dev, n_strings,
                      (uint32_t)ds->n_graphs, (uint32_t)ds->n_samples, 0};
    p = put(p, h, sizeof h);
    p = put_u64(p, strtab);
    p = put_u64(p, graphs);
    p = put_u64(p, ds->fp);
    for (int i = 0; i < ds->n_str; i++) {
        size_t n = strlen(ds->str[i]);
        p = put_u32(p, (uint32_t)n);
        p = put(p, ds->str[i], n);
    }
    for (int k = 0; k < ds->n_targets; k++) p = put_u32(p, (uint32_t)ds->target_sid[k]);
    for (int d = 0; d < ds->n_dev; d++) p = put_u32(p, (uint32_t)ds->dev_sid[d]);
    for (int g = 0; g < ds->n_graphs; g++) {
        const dlp_features *f = ds->graphs[g];
        uint32_t gh[4] = {(uint32_t)f->n_nodes, (uint32_t)f->n_edges, (uint32_t)ds->gname[g], 0};
        p = put(p, gh, sizeof gh);
        p = put(p, f->static_f, 8 * (size_t)DLP_SF_COUNT);
        p = put(p, f->x, 4 * (size_t)f->n_nodes * (size_t)f->n_feat);
        p = put(p, f->rowptr, 4 * ((size_t)f->n_nodes + 1));
        p = put(p, f->col, 4 * (size_t)f->n_edges);
    }
    for (int i = 0; i < ds->n_samples; i++) {
        const sample_t *s = &ds->samples[i];
        uint32_t sh[4] = {(uint32_t)s->graph, (uint32_t)s->family, (uint32_t)s->device, (uint32_t)s->name};
        p = put(p, sh, sizeof sh);
        p = put(p, ds->targets + (size_t)i * (size_t)ds->n_targets, 4 * (size_t)ds->n_targets);
    }
    p = put_u32(p, dlp__crc32(0, buf, (size_t)(p - buf)));
    dlp_status st = (size_t)(p - buf) == total ? dlp__write_file_atomic(path, buf, total, err)
                                               : dlp__err(err, DLP_EINTERNAL, "%s: size mismatch writing", path);
    free(buf);
    return st;
}

/* ---- load ---------------------------------------------------------------- */

/* Bounded reader over the mapped file: every take() checks what is left. */
typedef struct {
    const uint8_t *p, *end;
} rd_t;

static const uint8_t *take(rd_t *r, uint64_t n) {
    if ((uint64_t)(r->end - r->p) < n) return NULL;
    const uint8_t *q = r->p;
    r->p += n;
    return q;
}

static int get_u32(rd_t *r, uint32_t *v) {
    const uint8_t *q = take(r, 4);
    if (!q) return -1;
    memcpy(v, q, 4);
    return 0;
}

dlp_status dlp_dataset_load(const char *path, dlp_dataset **out, dlp_error *err) {
    if (!out || !path) return dlp__err(err, DLP_EINVAL, "dlp_dataset_load: NULL argument");
    *out = NULL;
    dlp__mapped m;
    dlp_status st = dlp__map_file(path, &m, err);
    if (st) return st;
    const uint8_t *b = m.data;
    dlp_dataset *ds = NULL;
    int *smap = NULL; /* file string id -> interned id */
#define FAIL(code, ...)                                                                               do {                                                                                                  st = dlp__err(err, code, __VA_ARGS__);                                                            goto done;                                                                                    } while (0)
    if (m.len < 4 || memcmp(b, "DLPD", 4)) FAIL(DLP_EFORMAT, "%s: not a .dlpd dataset file", path);
    if (m.len < DLPD_HDR + 4) FAIL(DLP_EFORMAT, "%s: truncated .dlpd header (%zu bytes)", path, m.len);
    uint32_t h[11];
    uint64_t strtab, gbytes, fp;
    memcpy(h, b + 4, sizeof h);
    memcpy(&strtab, b + 48, 8);
    memcpy(&gbytes, b + 56, 8);
    memcpy(&fp, b + 64, 8);
    if (h[0] != DLPD_VERSION)
        FAIL(DLP_EVERSION, "%s: .dlpd format version %u, this dlperf reads version %u", path, h[0], DLPD_VERSION);
    uint32_t layout = h[1], lver = h[2], nf = h[3], ns = h[4], nt = h[5], nd = h[6], nstr = h[7], ng = h[8],
             nsamp = h[9];
    if (!dlp_layout_width((int)layout) || nf != (uint32_t)dlp_layout_width((int)layout) || ns != DLP_SF_COUNT ||
        nt > MAX_TARGETS || nd > MAX_COUNT || nstr > MAX_COUNT || ng > MAX_COUNT || nsamp > MAX_COUNT || h[10])
        FAIL(DLP_EFORMAT, "%s: bad .dlpd header (layout %u, %u features, %u static, %u targets)", path, layout, nf,
             ns, nt);
    /* every count bounded above, so these sums cannot overflow 64 bits */
    uint64_t need = (uint64_t)DLPD_HDR + 4 * (uint64_t)nt + 4 * (uint64_t)nd +
                    (uint64_t)nsamp * (16 + 4 * (uint64_t)nt) + 4;
    if (strtab > m.len || gbytes > m.len || need + strtab + gbytes != m.len)
        FAIL(DLP_EFORMAT, "%s: .dlpd is %zu bytes, its header says %llu (truncated?)", path, m.len,
             (unsigned long long)(strtab <= m.len && gbytes <= m.len ? need + strtab + gbytes : 0));
    uint32_t crc;
    memcpy(&crc, b + m.len - 4, 4);
    if (crc != dlp__crc32(0, b, m.len - 4)) FAIL(DLP_ECHECKSUM, "%s: checksum mismatch (corrupted file)", path);
    int expect_ver = layout == DLP_LAYOUT_TRAPPM ? DLP_LAYOUT_TRAPPM_VERSION : DLP_LAYOUT_DIPPM_VERSION;
    if ((int)lver != expect_ver)
        FAIL(DLP_EVERSION, "%s: %s layout version %u, this dlperf builds version %d", path,
             dlp_layout_name((int)layout), lver, expect_ver);
    if ((st = new_empty((int)layout, (int)nt, &ds, err))) goto done;
    rd_t r = {b + DLPD_HDR, b + DLPD_HDR + strtab};
    smap = malloc(sizeof(int) * ((size_t)nstr + 1));
    if (!smap) FAIL(DLP_ENOMEM, "%s: out of memory", path);
    char *tmp = NULL;
    for (uint32_t i = 0; i < nstr; i++) {
        uint32_t n;
        const uint8_t *q;
        if (get_u32(&r, &n) || n > MAX_STR || !(q = take(&r, n)))
            FAIL(DLP_EFORMAT, "%s: string %u runs past the string table", path, i);
        if (memchr(q, 0, n)) FAIL(DLP_EFORMAT, "%s: string %u contains a NUL byte", path, i);
        tmp = malloc((size_t)n + 1);
        if (!tmp) FAIL(DLP_ENOMEM, "%s: out of memory", path);
        memcpy(tmp, q, n);
        tmp[n] = 0;
        smap[i] = intern(ds, tmp);
        free(tmp);
        if (smap[i] < 0) FAIL(DLP_ENOMEM, "%s: out of memory", path);
    }
    if (r.p != r.end) FAIL(DLP_EFORMAT, "%s: string table has %zu bytes left over", path, (size_t)(r.end - r.p));
    r.end = b + m.len - 4;
    for (uint32_t k = 0; k < nt; k++) {
        uint32_t sid = 0;
        get_u32(&r, &sid); /* sizes were checked against the length above */
        if (sid >= nstr) FAIL(DLP_EFORMAT, "%s: target %u names string %u of %u", path, k, sid, nstr);
        ds->target_sid[k] = smap[sid];
        for (uint32_t j = 0; j < k; j++)
            if (ds->target_sid[j] == ds->target_sid[k]) FAIL(DLP_EFORMAT, "%s: target '%s' twice", path, ds->str[smap[sid]]);
    }
    for (uint32_t d = 0; d < nd; d++) {
        uint32_t sid = 0;
        get_u32(&r, &sid);
        if (sid >= nstr) FAIL(DLP_EFORMAT, "%s: device %u names string %u of %u", path, d, sid, nstr);
        if (dlp_dataset_add_device(ds, ds->str[smap[sid]]) != (int)d)
            FAIL(DLP_EFORMAT, "%s: device '%s' listed twice (or out of memory)", path, ds->str[smap[sid]]);
    }
    ds->fp = seed_hash(ds);
    const uint8_t *gend = r.p + gbytes;
    r.end = gend;
    for (uint32_t g = 0; g < ng; g++) {
        uint32_t gh[4];
        const uint8_t *q = take(&r, 16);
        if (!q) FAIL(DLP_EFORMAT, "%s: graph %u runs past the graph section", path, g);
        memcpy(gh, q, 16);
        uint32_t nn = gh[0], ne = gh[1], sid = gh[2];
        if (nn > MAX_NODES || ne > MAX_EDGES || sid >= nstr || gh[3])
            FAIL(DLP_EFORMAT, "%s: graph %u has %u nodes, %u edges, name %u (out of range)", path, g, nn, ne, sid);
        uint64_t body = 8 * (uint64_t)ns + 4 * (uint64_t)nn * nf + 4 * ((uint64_t)nn + 1) + 4 * (uint64_t)ne;
        if (!(q = take(&r, body))) FAIL(DLP_EFORMAT, "%s: graph %u runs past the graph section", path, g);
        dlp_features *f = calloc(1, sizeof *f);
        if (!f) FAIL(DLP_ENOMEM, "%s: out of memory", path);
        f->layout = (int)layout;
        f->layout_version = (int)lver;
        f->n_nodes = (int)nn;
        f->n_feat = (int)nf;
        f->n_edges = (int)ne;
        snprintf(f->name, sizeof f->name, "%s", ds->str[smap[sid]]);
        f->x = malloc(4 * (size_t)nn * nf + 4);
        f->rowptr = malloc(4 * ((size_t)nn + 1));
        f->col = malloc(4 * (size_t)ne + 4);
        if (!f->x || !f->rowptr || !f->col) {
            dlp_features_free(f);
            FAIL(DLP_ENOMEM, "%s: out of memory", path);
        }
        memcpy(f->static_f, q, 8 * (size_t)ns);
        q += 8 * (size_t)ns;
        memcpy(f->x, q, 4 * (size_t)nn * nf);
        q += 4 * (size_t)nn * nf;
        memcpy(f->rowptr, q, 4 * ((size_t)nn + 1));
        q += 4 * ((size_t)nn + 1);
        memcpy(f->col, q, 4 * (size_t)ne);
        dlp_error e2 = {0};
        if ((st = dlp_dataset_add_graph(ds, f, NULL, &e2))) { /* checks the CSR; frees f on failure */
            if (st == DLP_EINVAL) FAIL(DLP_EFORMAT, "%s: graph %u: %s", path, g, e2.msg);
            FAIL(st, "%s: %s", path, e2.msg);
        }
    }
    if (r.p != gend) FAIL(DLP_EFORMAT, "%s: graph section has %zu bytes left over", path, (size_t)(gend - r.p));
    r.end = b + m.len - 4;
    if (reserve_samples(ds, nsamp)) FAIL(DLP_ENOMEM, "%s: out of memory", path);
    for (uint32_t i = 0; i < nsamp; i++) {
        uint32_t sh[4];
        const uint8_t *q = take(&r, 16 + 4 * (uint64_t)nt);
        if (!q) FAIL(DLP_EFORMAT, "%s: sample %u runs past the file", path, i);
        memcpy(sh, q, 16);
        if (sh[0] >= ng || sh[1] >= nstr || sh[2] >= nd || sh[3] >= nstr)
            FAIL(DLP_EFORMAT, "%s: sample %u refers to graph %u / string %u / device %u / string %u (out of range)",
                 path, i, sh[0], sh[1], sh[2], sh[3]);
        sample_t *s = &ds->samples[i];
        *s = (sample_t){(int)sh[0], smap[sh[1]], (int)sh[2], smap[sh[3]]};
        memcpy(ds->targets + (size_t)i * nt, q + 16, 4 * (size_t)nt);
        ds->n_samples = (int)i + 1;
        ds->fp = chain_sample(ds, ds->fp, (int)i);
    }
    if (ds->fp != fp)
        FAIL(DLP_EFORMAT, "%s: content fingerprint %016llx differs from the header's %016llx", path,
             (unsigned long long)ds->fp, (unsigned long long)fp);
#undef FAIL
done:
    free(smap);
    dlp__unmap_file(&m);
    if (st) {
        dlp_dataset_free(ds);
        return st;
    }
    *out = ds;
    return DLP_OK;
}
