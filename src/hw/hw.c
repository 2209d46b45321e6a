/*
 * hw.c — the hardware database: loads data/devices.json (built in, or a
 * file), validates it strictly, and answers lookups by id/name/alias, "did
 * you mean" suggestions, peak throughput per dtype and grid carbon intensity.
 *
 * Why strict validation: every prediction dlperf makes is scaled by these
 * numbers, so a typo'd key or a string where a number belongs must stop the
 * load with a message that names the file, the device and the field, rather
 * than silently becoming 0.  Unknown keys are rejected for the same reason.
 *
 * The parsed cJSON tree is dropped after loading; every string and array the
 * public structs point to lives in the database's arena.
 */
#include "hw/hw.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cJSON.h>

#define SCHEMA_ID "dlperf-devices/1"
#define MAX_KEY 128            /* longest id/name/alias, normalised or not */

/* ---- error context ---------------------------------------------------- */

typedef struct {
    const char *file;          /* path or DLP__BUILTIN_DEVICES_NAME            */
    char where[160];           /* "device 'a100-40gb'", "carbon", ...          */
    dlp_error *err;
} vctx;

/* One line: "<file>: <where>: field '<field>' <what>". */
static dlp_status bad(vctx *v, const char *field, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static dlp_status bad(vctx *v, const char *field, const char *fmt, ...) {
    char what[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (field)
        return dlp__err(v->err, DLP_EFORMAT, "%s: %s: field '%s' %s", v->file, v->where, field, what);
    return dlp__err(v->err, DLP_EFORMAT, "%s: %s: %s", v->file, v->where, what);
}

/* Short description of a JSON value for messages ("a string", "-3"). */
static const char *jdesc(const cJSON *x, char *buf, size_t n) {
    if (!x) return "nothing";
    if (cJSON_IsNull(x)) return "null";
    if (cJSON_IsBool(x)) return cJSON_IsTrue(x) ? "true" : "false";
    if (cJSON_IsNumber(x)) {
        snprintf(buf, n, "%g", x->valuedouble);
        return buf;
    }
    if (cJSON_IsString(x)) {
        snprintf(buf, n, "\"%.40s\"", x->valuestring);
        return buf;
    }
    if (cJSON_IsArray(x)) return "an array";
    if (cJSON_IsObject(x)) return "an object";
    return "an invalid value";
}

/* Reject keys outside `allowed` (NULL-terminated) and duplicate keys: a typo
 * such as "sm_cout" would otherwise leave the real field "missing" with a
 * confusing message, and cJSON silently keeps the first of two duplicates. */
static dlp_status check_keys(vctx *v, const cJSON *obj, const char *const *allowed) {
    for (const cJSON *c = obj->child; c; c = c->next) {
        int ok = 0;
        for (const char *const *a = allowed; *a; a++)
            if (!strcmp(c->string, *a)) ok = 1;
        if (!ok) return bad(v, c->string, "is not a known field (typo?)");
        for (const cJSON *d = c->next; d; d = d->next)
            if (!strcmp(c->string, d->string)) return bad(v, c->string, "appears twice");
    }
    return DLP_OK;
}

/* ---- typed field readers ---------------------------------------------- */

/* Number in [lo, hi]; integer when is_int; null -> 0 when nullable. */
static dlp_status get_num(vctx *v, const cJSON *obj, const char *key, int nullable, int is_int,
                          double lo, double hi, double *out) {
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(obj, key);
    char b[64];
    if (!x) return bad(v, key, "is missing");
    if (cJSON_IsNull(x)) {
        if (!nullable) return bad(v, key, "must be a number, got null");
        *out = 0;
        return DLP_OK;
    }
    if (!cJSON_IsNumber(x) || !isfinite(x->valuedouble))
        return bad(v, key, "must be a number, got %s", jdesc(x, b, sizeof b));
    double d = x->valuedouble;
    if (is_int && d != floor(d)) return bad(v, key, "must be an integer, got %g", d);
    if (d < lo || d > hi) return bad(v, key, "must be in [%g, %g], got %g", lo, hi, d);
    *out = d;
    return DLP_OK;
}

/* String (copied to the arena); null/absent -> "" when optional. */
static dlp_status get_str(vctx *v, dlp__arena *a, const cJSON *obj, const char *key, int optional,
                          const char **out) {
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(obj, key);
    char b[64];
    if (!x || cJSON_IsNull(x)) {
        if (!optional) return bad(v, key, "%s", x ? "must be a string, got null" : "is missing");
        *out = "";
        return DLP_OK;
    }
    if (!cJSON_IsString(x)) return bad(v, key, "must be a string, got %s", jdesc(x, b, sizeof b));
    if (!optional && !x->valuestring[0]) return bad(v, key, "must not be empty");
    if (!(*out = dlp__arena_strdup(a, x->valuestring)))
        return dlp__err(v->err, DLP_ENOMEM, "%s: out of memory", v->file);
    return DLP_OK;
}

/* ---- normalisation for lookup ----------------------------------------- */

int dlp__hw_norm(const char *s, char *out, size_t cap) {
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (!isalnum(*p)) continue;        /* spaces, '-', '_', '.', '(', ... */
        if (n + 1 >= cap) return -1;
        out[n++] = (char)tolower(*p);
    }
    out[n] = 0;
    /* Brand words that torch/nvidia-smi/rocm-smi put in front of the model:
     * "NVIDIA GeForce RTX 4090" and "RTX 4090" name the same GPU.  "Quadro"
     * stays: "RTX 6000" (Ada) and "Quadro RTX 6000" (Turing) differ. */
    static const char *const brands[] = {"nvidia", "geforce", "tesla", "amd", "instinct", "radeon"};
    for (int again = 1; again;) {
        again = 0;
        for (size_t i = 0; i < sizeof brands / sizeof brands[0]; i++) {
            size_t bl = strlen(brands[i]);
            if (n > bl && !strncmp(out, brands[i], bl)) {
                memmove(out, out + bl, n - bl + 1);
                n -= bl;
                again = 1;
            }
        }
    }
    return (int)n;
}

/* ---- device parsing ---------------------------------------------------- */

typedef struct {
    const char *key;
    size_t off;
    int is_int, nullable;
    double lo, hi;
} numfield;

#define POS 1e-9               /* "strictly positive" lower bound */
#define DF(k, nul, lo, hi) {#k, offsetof(dlp_device, k), 0, nul, lo, hi}
#define IF(k, nul, lo, hi) {#k, offsetof(dlp_device, k), 1, nul, lo, hi}

/* Ranges are generous sanity bounds (they catch unit mistakes such as TFLOPS
 * written into a GFLOPS field), not claims about real hardware. */
static const numfield NUMFIELDS[] = {
    IF(sm_count, 0, 1, 4096),
    IF(fp32_cores_per_sm, 0, 1, 1024),
    DF(boost_clock_mhz, 0, 100, 10000),
    DF(peak_fp32_gflops, 0, 10, 1e7),
    DF(peak_fp64_gflops, 0, POS, 1e7),
    DF(peak_fp16_gflops, 1, 0, 1e7),
    DF(fp16_tensor_tflops, 1, 0, 1e5),
    DF(bf16_tensor_tflops, 1, 0, 1e5),
    DF(tf32_tensor_tflops, 1, 0, 1e5),
    DF(fp8_tensor_tflops, 1, 0, 1e5),
    DF(fp4_tensor_tflops, 1, 0, 1e5),
    DF(int8_tensor_tops, 1, 0, 1e5),
    DF(fp64_tensor_tflops, 1, 0, 1e5),
    DF(fp32_matrix_tflops, 1, 0, 1e5),
    DF(memory_gib, 0, 0.25, 1e5),
    DF(mem_bandwidth_gbs, 0, 1, 1e6),
    DF(l2_cache_mb, 0, 0.0625, 4096),
    DF(l1_cache_kb_per_sm, 1, 0, 65536),
    DF(shared_mem_kb_per_sm, 0, 1, 65536),
    DF(shared_mem_kb_per_block, 0, 1, 65536),
    IF(max_threads_per_sm, 1, 0, 1 << 20),
    IF(max_threads_per_block, 0, 1, 1 << 20),
    IF(registers_per_sm, 1, 0, 1 << 24),
    IF(registers_per_block, 1, 0, 1 << 24),
    IF(warp_size, 0, 1, 1024),
    DF(tdp_w, 0, 1, 1e5),
    DF(idle_w, 0, POS, 1e5),
};

static const char *const DEVICE_KEYS[] = {
    "id", "name", "vendor", "arch", "chip", "form_factor", "aliases", "compute_capability",
    "sm_count", "fp32_cores_per_sm", "boost_clock_mhz", "peak_fp32_gflops", "peak_fp64_gflops",
    "peak_fp16_gflops", "fp16_tensor_tflops", "bf16_tensor_tflops", "tf32_tensor_tflops",
    "fp8_tensor_tflops", "fp4_tensor_tflops", "int8_tensor_tops", "fp64_tensor_tflops",
    "fp32_matrix_tflops",
    "memory_gib", "memory_type", "mem_bandwidth_gbs", "l2_cache_mb", "l1_cache_kb_per_sm",
    "shared_mem_kb_per_sm", "shared_mem_kb_per_block", "max_threads_per_sm",
    "max_threads_per_block", "registers_per_sm", "registers_per_block", "warp_size", "tdp_w",
    "idle_w", "interface", "mig", "price", "sources", "notes", "kind", "l2_bandwidth_gbs", "die_tdp_w", NULL};

/* Fields that describe GPU hardware only: a CPU entry must give null there,
 * so a copied GPU entry cannot pass for a CPU with a warp size or shared
 * memory that nothing would use.  tdp_w/idle_w are merely nullable on a CPU
 * (a VM slice has no known power; energy is then not predicted). */
static const char *const GPU_ONLY[] = {
    "shared_mem_kb_per_sm", "shared_mem_kb_per_block", "max_threads_per_sm",
    "max_threads_per_block", "registers_per_sm", "registers_per_block", "warp_size", NULL};
static const char *const CPU_NULLABLE[] = {"tdp_w", "idle_w", NULL};

static int in_names(const char *const *list, const char *k) {
    for (; *list; list++)
        if (!strcmp(*list, k)) return 1;
    return 0;
}

const char *dlp_device_kind_name(dlp_device_kind kind) {
    return kind == DLP_DEVICE_GPU ? "gpu" : kind == DLP_DEVICE_CPU ? "cpu" : "?";
}
static const char *const MIG_KEYS[] = {"name", "memory_gib", "usable_gib", "compute_slices",
                                       "sms", "max_instances", NULL};
static const char *const PRICE_KEYS[] = {"usd_per_hour", "provider", "date", NULL};

static int valid_id(const char *s) {
    if (!*s || strlen(s) >= MAX_KEY || !(islower((unsigned char)*s) || isdigit((unsigned char)*s)))
        return 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (!(islower(*p) || isdigit(*p) || *p == '-' || *p == '.')) return 0;
    return 1;
}

static dlp_status parse_mig(vctx *v, dlp__arena *a, const cJSON *arr, dlp_device *d) {
    char b[64];
    if (!arr || cJSON_IsNull(arr)) return DLP_OK;
    if (!cJSON_IsArray(arr)) return bad(v, "mig", "must be an array or null, got %s", jdesc(arr, b, sizeof b));
    int n = cJSON_GetArraySize(arr);
    if (n < 1 || n > DLP_MIG_MAX_PROFILES)
        return bad(v, "mig", "must list 1 to %d profiles (or be null), has %d", DLP_MIG_MAX_PROFILES, n);
    dlp_mig_profile *m = dlp__arena_alloc(a, sizeof *m * (size_t)n);
    if (!m) return dlp__err(v->err, DLP_ENOMEM, "%s: out of memory", v->file);
    char base[sizeof v->where];
    snprintf(base, sizeof base, "%s", v->where);
    int i = 0;
    dlp_status st = DLP_OK;
    for (const cJSON *p = arr->child; p; p = p->next, i++) {
        snprintf(v->where, sizeof v->where, "%.120s: mig[%d]", base, i);
        if (!cJSON_IsObject(p)) {
            st = bad(v, NULL, "must be an object, got %s", jdesc(p, b, sizeof b));
            break;
        }
        double mem, usable, slices, sms, inst;
        if ((st = check_keys(v, p, MIG_KEYS)) || (st = get_str(v, a, p, "name", 0, &m[i].name)) ||
            (st = get_num(v, p, "memory_gib", 0, 0, 0.125, d->memory_gib * 1.0001, &mem)) ||
            (st = get_num(v, p, "usable_gib", 1, 0, 0, mem, &usable)) ||
            (st = get_num(v, p, "compute_slices", 0, 1, 1, 8, &slices)) ||
            (st = get_num(v, p, "sms", 1, 1, 0, d->sm_count, &sms)) ||
            (st = get_num(v, p, "max_instances", 0, 1, 1, 8, &inst)))
            break;
        m[i].memory_gib = mem;
        m[i].usable_gib = usable;
        m[i].compute_slices = (int)slices;
        m[i].sms = (int)sms;
        m[i].max_instances = (int)inst;
    }
    snprintf(v->where, sizeof v->where, "%s", base);
    if (st) return st;
    d->n_mig = n;
    d->mig = m;
    return DLP_OK;
}

static dlp_status parse_device(vctx *v, dlp__arena *a, const cJSON *o, const cJSON *srcs,
                               dlp_device *d) {
    dlp_status st;
    char b[64];
    if (!cJSON_IsObject(o)) return bad(v, NULL, "must be an object, got %s", jdesc(o, b, sizeof b));
    /* Name the device by id in every later message, once we know it. */
    const cJSON *idj = cJSON_GetObjectItemCaseSensitive(o, "id");
    if (cJSON_IsString(idj) && idj->valuestring[0])
        snprintf(v->where, sizeof v->where, "device '%.60s'", idj->valuestring);
    if ((st = check_keys(v, o, DEVICE_KEYS))) return st;
    if ((st = get_str(v, a, o, "id", 0, &d->id))) return st;
    if (!valid_id(d->id))
        return bad(v, "id", "must be lowercase letters, digits, '-' or '.', got \"%.60s\"", d->id);
    if ((st = get_str(v, a, o, "name", 0, &d->name)) || (st = get_str(v, a, o, "vendor", 0, &d->vendor)) ||
        (st = get_str(v, a, o, "arch", 0, &d->arch)) || (st = get_str(v, a, o, "chip", 0, &d->chip)) ||
        (st = get_str(v, a, o, "form_factor", 0, &d->form_factor)) ||
        (st = get_str(v, a, o, "memory_type", 0, &d->memory_type)) ||
        (st = get_str(v, a, o, "interface", 0, &d->host_interface)) ||
        (st = get_str(v, a, o, "notes", 1, &d->notes)))
        return st;
    if (strcmp(d->vendor, "nvidia") && strcmp(d->vendor, "amd") && strcmp(d->vendor, "intel"))
        return bad(v, "vendor", "must be \"nvidia\", \"amd\" or \"intel\", got \"%.40s\"", d->vendor);
    if (strlen(d->name) >= MAX_KEY) return bad(v, "name", "is longer than %d characters", MAX_KEY - 1);

    /* kind: "gpu" (the default, so GPU entries need not say it) or "cpu" */
    const char *kind;
    if ((st = get_str(v, a, o, "kind", 1, &kind))) return st;
    if (!*kind || !strcmp(kind, "gpu")) d->kind = DLP_DEVICE_GPU;
    else if (!strcmp(kind, "cpu")) d->kind = DLP_DEVICE_CPU;
    else return bad(v, "kind", "must be \"gpu\" or \"cpu\", got \"%.40s\"", kind);
    int cpu = d->kind == DLP_DEVICE_CPU;

    for (size_t i = 0; i < sizeof NUMFIELDS / sizeof NUMFIELDS[0]; i++) {
        const numfield *f = &NUMFIELDS[i];
        double x;
        if (cpu && in_names(GPU_ONLY, f->key)) {
            const cJSON *g = cJSON_GetObjectItemCaseSensitive(o, f->key);
            if (!g) return bad(v, f->key, "is missing (use null for a CPU)");
            if (!cJSON_IsNull(g)) return bad(v, f->key, "is a GPU field; a CPU (kind \"cpu\") must give null");
            continue;          /* stays 0 */
        }
        int nullable = f->nullable || (cpu && in_names(CPU_NULLABLE, f->key));
        if ((st = get_num(v, o, f->key, nullable, f->is_int, f->lo, f->hi, &x))) return st;
        if (f->is_int) *(int *)(void *)((char *)d + f->off) = (int)x;
        else *(double *)(void *)((char *)d + f->off) = x;
    }
    /* l2_bandwidth_gbs: optional (absent or null: unknown), a GPU's measured
     * or derived L2 read bandwidth with its source (docs/devices.md); it
     * turns on the L2-residency rule of the predictor (docs/predict.md) */
    if (cJSON_GetObjectItemCaseSensitive(o, "l2_bandwidth_gbs") &&
        (st = get_num(v, o, "l2_bandwidth_gbs", 1, 0, 1, 1e6, &d->l2_bandwidth_gbs)))
        return st;
    if (cpu && d->l2_bandwidth_gbs > 0) return bad(v, "l2_bandwidth_gbs", "is a GPU field; a CPU must leave it out");
    /* die_tdp_w: optional, the die's own rated limit where tdp_w is a
     * larger one's (a module's headroom); never above tdp_w, GPUs only */
    if (cJSON_GetObjectItemCaseSensitive(o, "die_tdp_w") &&
        (st = get_num(v, o, "die_tdp_w", 1, 0, 1, 1e5, &d->die_tdp_w)))
        return st;
    if (cpu && d->die_tdp_w > 0) return bad(v, "die_tdp_w", "is a GPU field; a CPU must leave it out");
    if (d->die_tdp_w > d->tdp_w) return bad(v, "die_tdp_w", "must not exceed tdp_w (%g W)", d->tdp_w);
    if (d->tdp_w > 0 && d->idle_w >= d->tdp_w) return bad(v, "idle_w", "must be below tdp_w (%g W)", d->tdp_w);
    if (d->shared_mem_kb_per_block > d->shared_mem_kb_per_sm)
        return bad(v, "shared_mem_kb_per_block", "must not exceed shared_mem_kb_per_sm");

    /* compute_capability: "major.minor" for NVIDIA, null elsewhere. */
    const cJSON *cc = cJSON_GetObjectItemCaseSensitive(o, "compute_capability");
    if (!cc) return bad(v, "compute_capability", "is missing");
    if (cJSON_IsNull(cc)) {
        if (!strcmp(d->vendor, "nvidia") && !cpu)
            return bad(v, "compute_capability", "must be \"major.minor\" for an NVIDIA GPU, got null");
    } else if (cpu) {
        return bad(v, "compute_capability", "is a CUDA property; a CPU (kind \"cpu\") must give null");
    } else {
        int maj, min, used = 0;
        if (!cJSON_IsString(cc) || sscanf(cc->valuestring, "%d.%d%n", &maj, &min, &used) != 2 ||
            cc->valuestring[used] || maj < 1 || maj > 99 || min < 0 || min > 9)
            return bad(v, "compute_capability", "must be \"major.minor\" (e.g. \"8.0\"), got %s",
                       jdesc(cc, b, sizeof b));
        d->cc_major = maj;
        d->cc_minor = min;
    }

    /* aliases */
    const cJSON *al = cJSON_GetObjectItemCaseSensitive(o, "aliases");
    if (!al) return bad(v, "aliases", "is missing");
    if (!cJSON_IsArray(al)) return bad(v, "aliases", "must be an array of strings, got %s", jdesc(al, b, sizeof b));
    int na = cJSON_GetArraySize(al), i = 0;
    const char **as = dlp__arena_alloc(a, sizeof *as * (size_t)(na + 1));
    if (!as) return dlp__err(v->err, DLP_ENOMEM, "%s: out of memory", v->file);
    for (const cJSON *x = al->child; x; x = x->next, i++) {
        char norm[MAX_KEY];
        if (!cJSON_IsString(x) || dlp__hw_norm(x->valuestring, norm, sizeof norm) <= 0)
            return bad(v, "aliases", "entry %d must be a non-empty string of at most %d characters, got %s",
                       i, MAX_KEY - 1, jdesc(x, b, sizeof b));
        if (!(as[i] = dlp__arena_strdup(a, x->valuestring)))
            return dlp__err(v->err, DLP_ENOMEM, "%s: out of memory", v->file);
    }
    d->n_aliases = na;
    d->aliases = as;

    if (!cJSON_GetObjectItemCaseSensitive(o, "mig")) return bad(v, "mig", "is missing (use null for no MIG)");
    if (cpu && !cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(o, "mig")))
        return bad(v, "mig", "must be null for a CPU (kind \"cpu\"): MIG partitions NVIDIA GPUs");
    if ((st = parse_mig(v, a, cJSON_GetObjectItemCaseSensitive(o, "mig"), d))) return st;

    /* price: null or {usd_per_hour, provider, date} */
    const cJSON *pr = cJSON_GetObjectItemCaseSensitive(o, "price");
    d->price_provider = d->price_date = "";
    if (!pr) return bad(v, "price", "is missing (use null when unknown)");
    if (!cJSON_IsNull(pr)) {
        if (!cJSON_IsObject(pr)) return bad(v, "price", "must be an object or null, got %s", jdesc(pr, b, sizeof b));
        char base[sizeof v->where];
        snprintf(base, sizeof base, "%s", v->where);
        snprintf(v->where, sizeof v->where, "%.120s: price", base);
        if ((st = check_keys(v, pr, PRICE_KEYS)) ||
            (st = get_num(v, pr, "usd_per_hour", 0, 0, POS, 1000, &d->price_usd_per_hour)) ||
            (st = get_str(v, a, pr, "provider", 0, &d->price_provider)) ||
            (st = get_str(v, a, pr, "date", 0, &d->price_date)))
            return st;
        snprintf(v->where, sizeof v->where, "%s", base);
    }

    /* sources: keys into the top-level "sources" object */
    const cJSON *sj = cJSON_GetObjectItemCaseSensitive(o, "sources");
    if (!sj) return bad(v, "sources", "is missing");
    if (!cJSON_IsArray(sj) || cJSON_GetArraySize(sj) < 1)
        return bad(v, "sources", "must be a non-empty array of source keys, got %s", jdesc(sj, b, sizeof b));
    int ns = cJSON_GetArraySize(sj);
    const char **keys = dlp__arena_alloc(a, sizeof *keys * (size_t)ns);
    const char **texts = dlp__arena_alloc(a, sizeof *texts * (size_t)ns);
    if (!keys || !texts) return dlp__err(v->err, DLP_ENOMEM, "%s: out of memory", v->file);
    i = 0;
    for (const cJSON *x = sj->child; x; x = x->next, i++) {
        if (!cJSON_IsString(x)) return bad(v, "sources", "entry %d must be a string, got %s", i, jdesc(x, b, sizeof b));
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(srcs, x->valuestring);
        if (!t) return bad(v, "sources", "entry \"%.60s\" is not a key of the top-level \"sources\"", x->valuestring);
        if (!(keys[i] = dlp__arena_strdup(a, x->valuestring)) || !(texts[i] = dlp__arena_strdup(a, t->valuestring)))
            return dlp__err(v->err, DLP_ENOMEM, "%s: out of memory", v->file);
    }
    d->n_sources = ns;
    d->source_keys = keys;
    d->sources = texts;
    return DLP_OK;
}

/* Register one lookup key for device `di`; a key already taken by another
 * device is a data error (the lookup would be ambiguous). */
static dlp_status index_key(vctx *v, dlp_devdb *db, const char *raw, int di) {
    char norm[MAX_KEY];
    if (dlp__hw_norm(raw, norm, sizeof norm) <= 0) return DLP_OK;   /* checked on parse */
    int old = dlp__strmap_get(&db->index, norm);
    if (old == di) return DLP_OK;
    if (old >= 0)
        return bad(v, NULL, "name or alias \"%.60s\" is also used by device '%s'", raw, db->devs[old].id);
    char *k = dlp__arena_strdup(&db->arena, norm);
    if (!k || dlp__strmap_put(&db->index, k, di) < 0)
        return dlp__err(v->err, DLP_ENOMEM, "%s: out of memory", v->file);
    return DLP_OK;
}

static dlp_status parse_carbon(vctx *v, dlp_devdb *db, const cJSON *c) {
    static const char *const CARBON_KEYS[] = {"default_region", "pue", "pue_source", "regions", NULL};
    static const char *const REGION_KEYS[] = {"g_per_kwh", "source", NULL};
    dlp_status st;
    char b[64];
    const char *pue_src;
    snprintf(v->where, sizeof v->where, "carbon");
    if (!c) return bad(v, NULL, "top-level object \"carbon\" is missing");
    if (!cJSON_IsObject(c)) return bad(v, NULL, "must be an object, got %s", jdesc(c, b, sizeof b));
    if ((st = check_keys(v, c, CARBON_KEYS)) ||
        (st = get_str(v, &db->arena, c, "default_region", 0, &db->default_region)) ||
        (st = get_num(v, c, "pue", 0, 0, 1.0, 5.0, &db->pue)) ||
        (st = get_str(v, &db->arena, c, "pue_source", 0, &pue_src)))
        return st;
    const cJSON *r = cJSON_GetObjectItemCaseSensitive(c, "regions");
    if (!r) return bad(v, "regions", "is missing");
    if (!cJSON_IsObject(r) || !r->child) return bad(v, "regions", "must be a non-empty object");
    int n = cJSON_GetArraySize(r), i = 0;
    db->regions = dlp__arena_alloc(&db->arena, sizeof *db->regions * (size_t)n);
    if (!db->regions) return dlp__err(v->err, DLP_ENOMEM, "%s: out of memory", v->file);
    for (const cJSON *x = r->child; x; x = x->next, i++) {
        snprintf(v->where, sizeof v->where, "carbon: region '%.40s'", x->string);
        if (!cJSON_IsObject(x)) return bad(v, NULL, "must be an object, got %s", jdesc(x, b, sizeof b));
        for (const cJSON *y = x->next; y; y = y->next)
            if (!strcasecmp(x->string, y->string)) return bad(v, NULL, "is listed twice");
        dlp__carbon_region *g = &db->regions[i];
        if ((st = check_keys(v, x, REGION_KEYS)) ||
            (st = get_num(v, x, "g_per_kwh", 0, 0, 0, 2000, &g->g_per_kwh)) ||
            (st = get_str(v, &db->arena, x, "source", 0, &g->source)))
            return st;
        if (!(g->id = dlp__arena_strdup(&db->arena, x->string)))
            return dlp__err(v->err, DLP_ENOMEM, "%s: out of memory", v->file);
    }
    db->n_regions = n;
    snprintf(v->where, sizeof v->where, "carbon");
    if (dlp_carbon_intensity(db, db->default_region) < 0)
        return bad(v, "default_region", "\"%.40s\" is not one of the regions", db->default_region);
    return DLP_OK;
}

/* The power a chip would draw at its boost clock with no board limit.
 * Dynamic power is C V^2 f per switching unit; in the DVFS range V tracks
 * f, so a busy SM draws k f^3 with k fixed by the architecture and process.
 * The entry of the same chip (else architecture) with the largest budget
 * per SM and GHz^3, (tdp - idle) / (SMs x f^3), is taken to hold its boost
 * clock under load; k from it gives every sibling its unlimited draw
 * idle + k x SMs x f^3 (a lone chip: its architecture's entries with the
 * same memory type).  A part whose limit is below that (L4, T4, a Max-Q
 * edition, the 250 W A100 PCIe) cannot hold boost on heavy kernels. */
static double budget_k(const dlp_device *d) {
    double f = d->boost_clock_mhz / 1e3;
    if (d->kind == DLP_DEVICE_CPU || d->tdp_w <= 0 || d->sm_count <= 0 || f <= 0) return 0;
    double idle = d->idle_w > 0 && d->idle_w < d->tdp_w ? d->idle_w : 0.1 * d->tdp_w;
    return (d->tdp_w - idle) / (d->sm_count * f * f * f);
}
static void derive_boost_power(dlp_devdb *db) {
    for (int i = 0; i < db->n; i++) {
        dlp_device *d = &db->devs[i];
        double kd = budget_k(d);
        if (kd <= 0) continue;
        double kchip = 0, karch = 0;
        for (int j = 0; j < db->n; j++) {
            const dlp_device *e = &db->devs[j];
            double k = budget_k(e);
            if (k <= 0 || !e->vendor || !d->vendor || strcmp(e->vendor, d->vendor)) continue;
            if (e->chip && d->chip && *d->chip && !strcmp(e->chip, d->chip) && k > kchip) kchip = k;
            /* the architecture's reference has the same memory (an HBM
             * datacenter die and a GDDR client die of one architecture are
             * different designs) */
            if (e->arch && d->arch && *d->arch && !strcmp(e->arch, d->arch) && e->memory_type && d->memory_type &&
                !strcmp(e->memory_type, d->memory_type) && k > karch)
                karch = k;
        }
        /* a chip with siblings is its own reference; a lone chip takes its
         * architecture's (same SM design and process) */
        int siblings = 0;
        for (int j = 0; j < db->n; j++)
            if (j != i && budget_k(&db->devs[j]) > 0 && db->devs[j].chip && d->chip && *d->chip &&
                !strcmp(db->devs[j].chip, d->chip))
                siblings = 1;
        double k = siblings ? kchip : karch;
        if (k < kd) k = kd;
        double f = d->boost_clock_mhz / 1e3;
        double idle = d->idle_w > 0 && d->idle_w < d->tdp_w ? d->idle_w : 0.1 * d->tdp_w;
        d->boost_power_w = idle + k * d->sm_count * f * f * f;
    }
}

static dlp_status parse_db(vctx *v, dlp_devdb *db, const cJSON *root) {
    static const char *const TOP_KEYS[] = {"schema", "description", "units", "sources", "carbon", "devices", NULL};
    dlp_status st;
    char b[64];
    snprintf(v->where, sizeof v->where, "top level");
    if (!cJSON_IsObject(root)) return bad(v, NULL, "must be a JSON object, got %s", jdesc(root, b, sizeof b));
    if ((st = check_keys(v, root, TOP_KEYS))) return st;
    const cJSON *sch = cJSON_GetObjectItemCaseSensitive(root, "schema");
    if (!cJSON_IsString(sch)) return bad(v, "schema", "must be the string \"" SCHEMA_ID "\"");
    if (strcmp(sch->valuestring, SCHEMA_ID))
        return dlp__err(v->err, DLP_EVERSION, "%s: schema \"%.60s\" is not \"" SCHEMA_ID "\"", v->file,
                        sch->valuestring);
    const cJSON *srcs = cJSON_GetObjectItemCaseSensitive(root, "sources");
    if (!srcs) return bad(v, "sources", "is missing");
    if (!cJSON_IsObject(srcs)) return bad(v, "sources", "must be an object of key: text");
    for (const cJSON *x = srcs->child; x; x = x->next)
        if (!cJSON_IsString(x) || !x->valuestring[0])
            return bad(v, "sources", "entry \"%.60s\" must be a non-empty string", x->string);

    if ((st = parse_carbon(v, db, cJSON_GetObjectItemCaseSensitive(root, "carbon")))) return st;

    snprintf(v->where, sizeof v->where, "top level");
    const cJSON *devs = cJSON_GetObjectItemCaseSensitive(root, "devices");
    if (!devs) return bad(v, "devices", "is missing");
    if (!cJSON_IsArray(devs) || !devs->child) return bad(v, "devices", "must be a non-empty array");
    int n = cJSON_GetArraySize(devs), i = 0;
    db->devs = dlp__arena_alloc(&db->arena, sizeof *db->devs * (size_t)n);
    if (!db->devs || dlp__strmap_init(&db->index, (uint32_t)n * 16) < 0)
        return dlp__err(v->err, DLP_ENOMEM, "%s: out of memory", v->file);
    for (const cJSON *o = devs->child; o; o = o->next, i++) {
        snprintf(v->where, sizeof v->where, "device #%d", i);
        dlp_device *d = &db->devs[i];
        if ((st = parse_device(v, &db->arena, o, srcs, d))) return st;
        for (int j = 0; j < i; j++)
            if (!strcmp(db->devs[j].id, d->id)) return bad(v, "id", "\"%s\" is used twice", d->id);
        db->n = i + 1;         /* index_key reports clashes by earlier ids */
        if ((st = index_key(v, db, d->id, i)) || (st = index_key(v, db, d->name, i))) return st;
        for (int k = 0; k < d->n_aliases; k++)
            if ((st = index_key(v, db, d->aliases[k], i))) return st;
    }
    derive_boost_power(db);
    return DLP_OK;
}

/* ---- public: load / free ---------------------------------------------- */

dlp_status dlp_devdb_load_mem(const char *json, const char *name, dlp_devdb **out, dlp_error *err) {
    if (!out) return dlp__err(err, DLP_EINVAL, "dlp_devdb_load_mem: out is NULL");
    *out = NULL;
    if (!json) return dlp__err(err, DLP_EINVAL, "dlp_devdb_load_mem: json is NULL");
    vctx v = {.file = name && *name ? name : "devices.json", .err = err};
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithOpts(json, &end, 1);
    if (!root) {
        /* cJSON points at the first byte it could not use; report its line. */
        int line = 1;
        const char *stop = end ? end : json;
        for (const char *p = json; p < stop && *p; p++) line += *p == '\n';
        return dlp__err(err, DLP_EFORMAT, "%s: JSON syntax error at line %d", v.file, line);
    }
    dlp_devdb *db = calloc(1, sizeof *db);
    if (!db) {
        cJSON_Delete(root);
        return dlp__err(err, DLP_ENOMEM, "%s: out of memory", v.file);
    }
    dlp_status st = parse_db(&v, db, root);
    cJSON_Delete(root);
    if (st) {
        dlp_devdb_free(db);
        return st;
    }
    *out = db;
    return DLP_OK;
}

dlp_status dlp_devdb_load(const char *path, dlp_devdb **out, dlp_error *err) {
    if (!out) return dlp__err(err, DLP_EINVAL, "dlp_devdb_load: out is NULL");
    *out = NULL;
    if (!path) return dlp_devdb_load_mem(dlp__devices_json, DLP__BUILTIN_DEVICES_NAME, out, err);
    dlp__mapped m;
    dlp_status st = dlp__map_file(path, &m, err);
    if (st) return st;
    /* cJSON needs a NUL-terminated buffer; the mapping has none. */
    size_t len = m.len;        /* dlp__unmap_file clears m */
    char *buf = malloc(len + 1);
    if (!buf) {
        dlp__unmap_file(&m);
        return dlp__err(err, DLP_ENOMEM, "%s: out of memory", path);
    }
    memcpy(buf, m.data, len);
    buf[len] = 0;
    dlp__unmap_file(&m);
    if (strlen(buf) != len) {
        free(buf);
        return dlp__err(err, DLP_EFORMAT, "%s: contains a NUL byte (not a JSON text file)", path);
    }
    st = dlp_devdb_load_mem(buf, path, out, err);
    free(buf);
    return st;
}

void dlp_devdb_free(dlp_devdb *db) {
    if (!db) return;
    dlp__strmap_free(&db->index);
    dlp__arena_free(&db->arena);
    free(db);
}

/* ---- public: queries ---------------------------------------------------- */

int dlp_devdb_count(const dlp_devdb *db) { return db ? db->n : 0; }

const dlp_device *dlp_devdb_at(const dlp_devdb *db, int i) {
    return db && i >= 0 && i < db->n ? &db->devs[i] : NULL;
}

const dlp_device *dlp_devdb_find(const dlp_devdb *db, const char *name) {
    char norm[MAX_KEY];
    if (!db || !name || dlp__hw_norm(name, norm, sizeof norm) <= 0) return NULL;
    int i = dlp__strmap_get(&db->index, norm);
    return i >= 0 ? &db->devs[i] : NULL;
}

/* Edit distance, for suggestions only (keys are short: O(n*m) is fine). */
static int levenshtein(const char *a, const char *b) {
    int la = (int)strlen(a), lb = (int)strlen(b);
    int row[MAX_KEY + 1];
    for (int j = 0; j <= lb; j++) row[j] = j;
    for (int i = 1; i <= la; i++) {
        int diag = row[0];
        row[0] = i;
        for (int j = 1; j <= lb; j++) {
            int up = row[j];
            int best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best) best = up + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

/* Closeness of a query to one key: edit distance, but a key that contains
 * the query (or the reverse) counts as very close: "h100" -> "h100pcie". */
static double key_score(const char *q, const char *key) {
    double s = levenshtein(q, key);
    if (strlen(q) >= 2 && (strstr(key, q) || strstr(q, key))) s *= 0.25;
    return s;
}

int dlp_devdb_suggest(const dlp_devdb *db, const char *name, const char **ids, int max) {
    char q[MAX_KEY];
    if (!db || !name || !ids || max <= 0) return 0;
    if (dlp__hw_norm(name, q, sizeof q) < 0) q[0] = 0;
    double *score = malloc(sizeof *score * (size_t)db->n);
    if (!score) return 0;
    for (int i = 0; i < db->n; i++) {
        const dlp_device *d = &db->devs[i];
        char k[MAX_KEY];
        score[i] = 1e9;
        const char *names[2] = {d->id, d->name};
        for (int j = 0; j < 2 + d->n_aliases; j++) {
            const char *raw = j < 2 ? names[j] : d->aliases[j - 2];
            if (dlp__hw_norm(raw, k, sizeof k) > 0) {
                double s = key_score(q, k);
                if (s < score[i]) score[i] = s;
            }
        }
    }
    int n = 0;
    while (n < max && n < db->n) {     /* selection: n is tiny */
        int best = -1;
        for (int i = 0; i < db->n; i++)
            if (score[i] < 1e18 && (best < 0 || score[i] < score[best])) best = i;
        if (best < 0) break;
        ids[n++] = db->devs[best].id;
        score[best] = 1e19;
    }
    free(score);
    return n;
}

double dlp_device_peak_flops(const dlp_device *d, dlp_dtype dtype, int tensor_core) {
    if (!d) return 0;
    const double G = 1e9, T = 1e12;
    double fp32 = d->peak_fp32_gflops * G;
    switch (dtype) {
    case DLP_DT_FLOAT:
        if (tensor_core && d->tf32_tensor_tflops > 0) return d->tf32_tensor_tflops * T;
        if (tensor_core && d->fp32_matrix_tflops > 0) return d->fp32_matrix_tflops * T;
        return fp32;
    case DLP_DT_FLOAT16:
        if (tensor_core && d->fp16_tensor_tflops > 0) return d->fp16_tensor_tflops * T;
        /* Where native FP16 is slow (GP10x: 1/64 rate) libraries compute FP16
         * in FP32, so the vector rate is never below FP32's. */
        return d->peak_fp16_gflops * G > fp32 ? d->peak_fp16_gflops * G : fp32;
    case DLP_DT_BFLOAT16:
        if (tensor_core && d->bf16_tensor_tflops > 0) return d->bf16_tensor_tflops * T;
        return fp32;           /* vector BF16 math runs through FP32 */
    case DLP_DT_FLOAT8E4M3FN: case DLP_DT_FLOAT8E4M3FNUZ:
    case DLP_DT_FLOAT8E5M2: case DLP_DT_FLOAT8E5M2FNUZ:
        if (tensor_core && d->fp8_tensor_tflops > 0) return d->fp8_tensor_tflops * T;
        /* without FP8 units, FP8 data is upcast and computed as FP16 */
        return dlp_device_peak_flops(d, DLP_DT_FLOAT16, tensor_core);
    case DLP_DT_FLOAT4E2M1:
        if (tensor_core && d->fp4_tensor_tflops > 0) return d->fp4_tensor_tflops * T;
        /* without FP4 units, FP4 data is upcast: FP8 where there is FP8 */
        return dlp_device_peak_flops(d, DLP_DT_FLOAT8E4M3FN, tensor_core);
    case DLP_DT_INT8: case DLP_DT_UINT8: case DLP_DT_INT4: case DLP_DT_UINT4:
        if (tensor_core && d->int8_tensor_tops > 0) return d->int8_tensor_tops * T;
        return fp32;
    case DLP_DT_DOUBLE:
        if (tensor_core && d->fp64_tensor_tflops > 0) return d->fp64_tensor_tflops * T;
        return d->peak_fp64_gflops * G;
    default:
        return fp32;           /* integer/bool ALU work: about the FP32 issue rate */
    }
}

int dlp_device_supports_dtype(const dlp_device *d, dlp_dtype dtype) {
    if (!d) return 0;
    switch (dtype) {
    case DLP_DT_FLOAT:
        return 1;
    case DLP_DT_DOUBLE:
        return d->peak_fp64_gflops > 0;
    case DLP_DT_FLOAT16:
        return d->fp16_tensor_tflops > 0 || d->peak_fp16_gflops > 0;
    case DLP_DT_BFLOAT16:
        /* Ampere added BF16 to both the tensor cores and the vector units */
        return d->bf16_tensor_tflops > 0 || (!strcmp(d->vendor, "nvidia") && d->cc_major >= 8);
    case DLP_DT_FLOAT8E4M3FN: case DLP_DT_FLOAT8E4M3FNUZ:
    case DLP_DT_FLOAT8E5M2: case DLP_DT_FLOAT8E5M2FNUZ:
        return d->fp8_tensor_tflops > 0;
    case DLP_DT_FLOAT4E2M1:
        return d->fp4_tensor_tflops > 0;
    case DLP_DT_INT8: case DLP_DT_UINT8: case DLP_DT_INT16: case DLP_DT_UINT16:
    case DLP_DT_INT32: case DLP_DT_UINT32: case DLP_DT_INT64: case DLP_DT_UINT64:
    case DLP_DT_BOOL:
        return 1;              /* integer ALUs everywhere */
    default:
        /* INT4/UINT4: no field records 4-bit integer tensor support (Turing
         * and Ampere had it, Hopper dropped it), so they count as unpacked;
         * strings, complex and unknown types have no arithmetic units. */
        return 0;
    }
}

/* ---- public: carbon ------------------------------------------------------ */

double dlp_carbon_intensity(const dlp_devdb *db, const char *region) {
    if (!db) return -1;
    if (!region || !*region) region = db->default_region;
    for (int i = 0; i < db->n_regions; i++)
        if (!strcasecmp(db->regions[i].id, region)) return db->regions[i].g_per_kwh;
    return -1;
}

double dlp_devdb_pue(const dlp_devdb *db) { return db ? db->pue : 0; }

int dlp_carbon_region_count(const dlp_devdb *db) { return db ? db->n_regions : 0; }

const dlp_region *dlp_carbon_region_at(const dlp_devdb *db, int i) {
    return db && i >= 0 && i < db->n_regions ? &db->regions[i] : NULL;
}

const char *dlp_carbon_default_region(const dlp_devdb *db) { return db ? db->default_region : NULL; }
