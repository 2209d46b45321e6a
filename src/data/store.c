/*
 * store.c — the measurement store (SQLite; docs/store.md), C side.
 *
 * tools/profile/dlperf-profile (Python, stdlib sqlite3) writes the store
 * while measuring; this file reads it (query, noise, CSV export), writes it
 * for CSV import and shard merges, and creates it from the same DDL as
 * tools/profile/store.py (tests/t_store.sh checks the two are identical).
 *
 * Merge and import share one routine (put_run): a run already present by
 * uid is skipped; a first measurement whose model hash + config + device is
 * already measured keeps the earlier of the two (by start time, ISO-8601
 * strings compare as times); a repeat attaches to whatever first measurement
 * of its key is kept.  Everything of one merge or import happens in one
 * transaction, so an interrupted merge leaves the destination as it was.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/util.h"

#define APPLICATION_ID 0x444C5053 /* "DLPS" */

/* Keep identical to DDL in tools/profile/store.py. */
static const char *const DLP_STORE_DDL =
    "CREATE TABLE meta (\n"
    "  key TEXT PRIMARY KEY,\n"
    "  value TEXT NOT NULL\n"
    ");\n"
    "CREATE TABLE devices (\n"
    "  id INTEGER PRIMARY KEY,\n"
    "  name TEXT NOT NULL UNIQUE,\n"
    "  kind TEXT NOT NULL CHECK (kind IN ('cpu', 'cuda')),\n"
    "  model TEXT NOT NULL,\n"
    "  features TEXT NOT NULL,\n"
    "  host TEXT,\n"
    "  created TEXT NOT NULL\n"
    ");\n"
    "CREATE TABLE models (\n"
    "  id INTEGER PRIMARY KEY,\n"
    "  hash TEXT NOT NULL UNIQUE,\n"
    "  family TEXT NOT NULL,\n"
    "  variant TEXT NOT NULL,\n"
    "  spec TEXT NOT NULL,\n"
    "  onnx_path TEXT,\n"
    "  input TEXT NOT NULL,\n"
    "  params INTEGER,\n"
    "  onnx_bytes INTEGER,\n"
    "  created TEXT NOT NULL\n"
    ");\n"
    "CREATE TABLE specs (\n"
    "  spec_hash TEXT PRIMARY KEY,\n"
    "  model_id INTEGER NOT NULL REFERENCES models(id)\n"
    ");\n"
    "CREATE TABLE runs (\n"
    "  id INTEGER PRIMARY KEY,\n"
    "  uid TEXT NOT NULL UNIQUE,\n"
    "  model_id INTEGER NOT NULL REFERENCES models(id),\n"
    "  device_id INTEGER NOT NULL REFERENCES devices(id),\n"
    "  mode TEXT NOT NULL CHECK (mode IN ('infer', 'train', 'llm')),\n"
    "  batch INTEGER NOT NULL,\n"
    "  seq INTEGER NOT NULL DEFAULT 0,\n"
    "  dtype TEXT NOT NULL DEFAULT 'float32',\n"
    "  config TEXT NOT NULL,\n"
    "  warmup INTEGER,\n"
    "  iters INTEGER,\n"
    "  cooldown_s REAL,\n"
    "  threads INTEGER,\n"
    "  loadavg REAL,\n"
    "  loadavg_end REAL,\n"
    "  harness TEXT NOT NULL,\n"
    "  versions TEXT NOT NULL,\n"
    "  host TEXT,\n"
    "  shard TEXT,\n"
    "  started TEXT NOT NULL,\n"
    "  wall_s REAL,\n"
    "  outcome TEXT NOT NULL CHECK (outcome IN ('ok', 'oom', 'error')),\n"
    "  message TEXT,\n"
    "  repeat_of INTEGER REFERENCES runs(id)\n"
    ");\n"
    "CREATE UNIQUE INDEX runs_key ON runs(model_id, device_id, config) WHERE repeat_of IS NULL;\n"
    "CREATE INDEX runs_repeat ON runs(repeat_of) WHERE repeat_of IS NOT NULL;\n"
    "CREATE TABLE measurements (\n"
    "  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
    "  metric TEXT NOT NULL,\n"
    "  unit TEXT NOT NULL,\n"
    "  n INTEGER NOT NULL,\n"
    "  mean REAL,\n"
    "  median REAL,\n"
    "  std REAL,\n"
    "  min REAL,\n"
    "  max REAL,\n"
    "  source TEXT,\n"
    "  samples TEXT,\n"
    "  PRIMARY KEY (run_id, metric)\n"
    ") WITHOUT ROWID;\n";

struct dlp_store {
    sqlite3 *db;
    char *path, *dir;
    int writable;
    dlp__arena arena;
    int n_dev, cap_dev;
    dlp_store_device *dev;
};

struct dlp_store_runs {
    dlp__arena arena;
    int n;
    dlp_store_run *runs;
};

/* ---- small helpers -------------------------------------------------------- */

static dlp_status sql_err(dlp_error *err, const dlp_store *s, const char *what) {
    return dlp__err(err, DLP_EIO, "%s: %s: %s", s->path, what, sqlite3_errmsg(s->db));
}

static const char *col_text(sqlite3_stmt *st, int i) {
    const unsigned char *t = sqlite3_column_text(st, i);
    return t ? (const char *)t : NULL;
}

static double col_dbl(sqlite3_stmt *st, int i) {
    return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN : sqlite3_column_double(st, i);
}

static char *adup(dlp__arena *a, const char *s) {
    return dlp__arena_strdup(a, s ? s : "");
}

/* The unit a metric's name implies (same rule as store.py's unit_of). */
static const char *unit_of(const char *metric) {
    static const char *const suf[][2] = {{"_ms", "ms"}, {"_mb", "MiB"}, {"_j", "J"},   {"_w", "W"},
                                         {"_sps", "1/s"}, {"_tps", "tokens/s"}, {"_mhz", "MHz"}, {"_c", "C"}};
    size_t L = strlen(metric);
    for (size_t i = 0; i < sizeof suf / sizeof suf[0]; i++) {
        size_t k = strlen(suf[i][0]);
        if (L >= k && !strcmp(metric + L - k, suf[i][0])) return suf[i][1];
    }
    return "";
}

static void utc_now(char *buf, size_t n) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    gmtime_r(&ts.tv_sec, &tm);
    char b[32];
    strftime(b, sizeof b, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(buf, n, "%.19s.%06dZ", b, (int)(ts.tv_nsec / 1000 % 1000000));
}

static int exec_sql(dlp_store *s, const char *sql, dlp_error *err) {
    char *msg = NULL;
    if (sqlite3_exec(s->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
        dlp__err(err, DLP_EIO, "%s: %s", s->path, msg ? msg : sqlite3_errmsg(s->db));
        sqlite3_free(msg);
        return -1;
    }
    return 0;
}

static int64_t pragma_int(sqlite3 *db, const char *sql, int *rc) {
    sqlite3_stmt *st;
    int64_t v = 0;
    *rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
    if (*rc != SQLITE_OK) return 0;
    *rc = sqlite3_step(st);
    if (*rc == SQLITE_ROW) {
        v = sqlite3_column_int64(st, 0);
        *rc = SQLITE_OK;
    }
    sqlite3_finalize(st);
    return v;
}

static dlp_status load_devices(dlp_store *s, dlp_error *err) {
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db, "SELECT id, name, kind, model, features, host FROM devices ORDER BY id", -1, &st,
                           NULL) != SQLITE_OK)
        return sql_err(err, s, "reading devices");
    s->n_dev = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (dlp__grow((void **)&s->dev, s->n_dev, &s->cap_dev, sizeof *s->dev)) {
            sqlite3_finalize(st);
            return dlp__err(err, DLP_ENOMEM, "%s: out of memory", s->path);
        }
        dlp_store_device *d = &s->dev[s->n_dev++];
        d->id = sqlite3_column_int64(st, 0);
        d->name = adup(&s->arena, col_text(st, 1));
        d->kind = adup(&s->arena, col_text(st, 2));
        d->model = adup(&s->arena, col_text(st, 3));
        d->features = adup(&s->arena, col_text(st, 4));
        d->host = adup(&s->arena, col_text(st, 5));
        if (!d->name || !d->kind || !d->model || !d->features || !d->host) {
            sqlite3_finalize(st);
            return dlp__err(err, DLP_ENOMEM, "%s: out of memory", s->path);
        }
    }
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? DLP_OK : sql_err(err, s, "reading devices");
}

/* ---- open / close ----------------------------------------------------------- */

static void mkdirs_for(const char *path);

static dlp_status create_schema(dlp_store *s, dlp_error *err) {
    char now[40], sql[256];
    utc_now(now, sizeof now);
    if (exec_sql(s, "BEGIN IMMEDIATE", err)) return DLP_EIO;
    snprintf(sql, sizeof sql,
             "INSERT INTO meta(key, value) VALUES ('created', '%s'), ('created_by', 'dlperf %s');"
             "PRAGMA application_id = %d; PRAGMA user_version = %d;",
             now, DLP_VERSION_STRING, APPLICATION_ID, DLP_STORE_SCHEMA_VERSION);
    if (exec_sql(s, DLP_STORE_DDL, err) || exec_sql(s, sql, err)) {
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
        return DLP_EIO;
    }
    return exec_sql(s, "COMMIT", err) ? DLP_EIO : DLP_OK;
}

dlp_status dlp_store_open(const char *path, int flags, dlp_store **out, dlp_error *err) {
    *out = NULL;
    if (!path || !*path) return dlp__err(err, DLP_EINVAL, "store: no path given");
    struct stat sb;
    int exists = stat(path, &sb) == 0;
    if (!exists && flags != DLP_STORE_CREATE)
        return dlp__err(err, DLP_EIO, "%s: cannot open store: %s", path, strerror(errno));
    if (exists && S_ISDIR(sb.st_mode)) return dlp__err(err, DLP_EIO, "%s: is a folder, not a store", path);
    /* SQLite would block on a named pipe and read a device forever */
    if (exists && !S_ISREG(sb.st_mode)) return dlp__err(err, DLP_EIO, "%s: not a regular file", path);
    dlp_store *s = calloc(1, sizeof *s);
    if (!s) return dlp__err(err, DLP_ENOMEM, "%s: out of memory", path);
    s->path = strdup(path);
    s->dir = strdup(path);
    if (!s->path || !s->dir) {
        dlp_store_close(s);
        return dlp__err(err, DLP_ENOMEM, "%s: out of memory", path);
    }
    char *slash = strrchr(s->dir, '/');
    if (slash) slash[slash == s->dir ? 1 : 0] = 0;
    else strcpy(s->dir, ".");
    s->writable = flags != DLP_STORE_READ;
    if (!exists) mkdirs_for(path); /* DLP_STORE_CREATE: the folder too */
    int oflags = s->writable ? SQLITE_OPEN_READWRITE | (flags == DLP_STORE_CREATE ? SQLITE_OPEN_CREATE : 0)
                             : SQLITE_OPEN_READONLY;
    if (sqlite3_open_v2(path, &s->db, oflags | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
        dlp_status st = dlp__err(err, DLP_EIO, "%s: cannot open store: %s", path,
                                 s->db ? sqlite3_errmsg(s->db) : "out of memory");
        dlp_store_close(s);
        return st;
    }
    sqlite3_busy_timeout(s->db, 30000);
    int rc;
    int64_t ntab = pragma_int(s->db, "SELECT count(*) FROM sqlite_master", &rc);
    if (rc != SQLITE_OK) {
        dlp_status st = rc == SQLITE_NOTADB
                            ? dlp__err(err, DLP_EFORMAT, "%s: not an SQLite database (not a dlperf store)", path)
                            : dlp__err(err, DLP_EIO, "%s: cannot read store: %s", path, sqlite3_errmsg(s->db));
        dlp_store_close(s);
        return st;
    }
    if (ntab == 0) {
        if (flags != DLP_STORE_CREATE) {
            dlp_store_close(s);
            return dlp__err(err, DLP_EFORMAT, "%s: empty database, not a dlperf store", path);
        }
        dlp_status st = create_schema(s, err);
        if (st) {
            dlp_store_close(s);
            return st;
        }
    }
    int64_t app = pragma_int(s->db, "PRAGMA application_id", &rc);
    int64_t ver = pragma_int(s->db, "PRAGMA user_version", &rc);
    if (app != APPLICATION_ID) {
        dlp_store_close(s);
        return dlp__err(err, DLP_EFORMAT, "%s: not a dlperf store (application_id 0x%llx, expected 0x%x)", path,
                        (unsigned long long)app, APPLICATION_ID);
    }
    if (ver != DLP_STORE_SCHEMA_VERSION) {
        dlp_store_close(s);
        return dlp__err(err, DLP_EVERSION,
                        "%s: store schema version %lld; this dlperf reads version %d (docs/store.md)",
                        path, (long long)ver, DLP_STORE_SCHEMA_VERSION);
    }
    if (s->writable && (exec_sql(s, "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;", err) ||
                        exec_sql(s, "PRAGMA foreign_keys = ON;", err))) {
        dlp_store_close(s);
        return DLP_EIO;
    }
    dlp_status st = load_devices(s, err);
    if (st) {
        dlp_store_close(s);
        return st;
    }
    *out = s;
    return DLP_OK;
}

void dlp_store_close(dlp_store *s) {
    if (!s) return;
    if (s->db) {
        if (s->writable) {
            sqlite3_exec(s->db, "PRAGMA wal_checkpoint(TRUNCATE)", NULL, NULL, NULL);
            sqlite3_exec(s->db, "PRAGMA journal_mode = DELETE", NULL, NULL, NULL);
        }
        sqlite3_close(s->db);
    }
    dlp__arena_free(&s->arena);
    free(s->dev);
    free(s->path);
    free(s->dir);
    free(s);
}

const char *dlp_store_path(const dlp_store *s) { return s ? s->path : NULL; }
const char *dlp_store_dir(const dlp_store *s) { return s ? s->dir : NULL; }
int dlp_store_device_count(const dlp_store *s) { return s ? s->n_dev : 0; }

const dlp_store_device *dlp_store_device_at(const dlp_store *s, int i) {
    return s && i >= 0 && i < s->n_dev ? &s->dev[i] : NULL;
}

const dlp_store_device *dlp_store_find_device(const dlp_store *s, const char *name, const dlp_devdb *db) {
    if (!s || !name) return NULL;
    for (int i = 0; i < s->n_dev; i++)
        if (!strcasecmp(s->dev[i].name, name)) return &s->dev[i];
    dlp_devdb *own = NULL;
    if (!db) {
        if (dlp_devdb_load(NULL, &own, NULL)) return NULL;
        db = own;
    }
    const dlp_store_device *hit = NULL;
    const dlp_device *want = dlp_devdb_find(db, name);
    for (int i = 0; want && i < s->n_dev && !hit; i++) {
        if (strcmp(s->dev[i].kind, "cuda")) continue;
        if (dlp_devdb_find(db, s->dev[i].name) == want || dlp_devdb_find(db, s->dev[i].model) == want)
            hit = &s->dev[i];
    }
    dlp_devdb_free(own);
    return hit;
}

/* ---- query ---------------------------------------------------------------- */

static int cmp_run_id(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = ((const dlp_store_run *)b)->id;
    return (x > y) - (x < y);
}

dlp_status dlp_store_query(dlp_store *s, const dlp_store_filter *f, dlp_store_runs **out, dlp_error *err) {
    *out = NULL;
    dlp_store_filter none = {0};
    if (!f) f = &none;
    dlp_store_runs *r = calloc(1, sizeof *r);
    if (!r) return dlp__err(err, DLP_ENOMEM, "%s: out of memory", s->path);
    static const char *const q =
        "SELECT r.id, r.uid, r.model_id, m.hash, m.family, m.variant, m.spec, m.onnx_path, m.params, r.device_id, "
        "d.name, d.kind, r.mode, r.dtype, r.config, r.batch, r.seq, r.warmup, r.iters, r.loadavg, r.started, "
        "r.wall_s, r.outcome, r.message, r.repeat_of "
        "FROM runs r JOIN models m ON m.id = r.model_id JOIN devices d ON d.id = r.device_id "
        "WHERE (?1 IS NULL OR d.name = ?1) AND (?2 IS NULL OR r.mode = ?2) AND (?3 IS NULL OR m.family = ?3) "
        "AND (?4 = 0 OR r.outcome = 'ok') AND (?5 = 0 OR r.repeat_of IS NULL) ORDER BY r.id";
    sqlite3_stmt *st = NULL;
    int cap = 0, rc;
    dlp_status ret = DLP_OK;
    if (sqlite3_prepare_v2(s->db, q, -1, &st, NULL) != SQLITE_OK) {
        ret = sql_err(err, s, "query");
        goto fail;
    }
    sqlite3_bind_text(st, 1, f->device, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, f->mode, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, f->family, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 4, f->ok_only != 0);
    sqlite3_bind_int(st, 5, f->first_only != 0);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (dlp__grow((void **)&r->runs, r->n, &cap, sizeof *r->runs)) goto oom;
        dlp_store_run *u = &r->runs[r->n++];
        memset(u, 0, sizeof *u);
        dlp__arena *a = &r->arena;
        u->id = sqlite3_column_int64(st, 0);
        u->uid = adup(a, col_text(st, 1));
        u->model_id = sqlite3_column_int64(st, 2);
        u->model_hash = adup(a, col_text(st, 3));
        u->family = adup(a, col_text(st, 4));
        u->variant = adup(a, col_text(st, 5));
        u->spec = adup(a, col_text(st, 6));
        u->onnx_path = adup(a, col_text(st, 7));
        u->params = sqlite3_column_int64(st, 8);
        u->device_id = sqlite3_column_int64(st, 9);
        u->device = adup(a, col_text(st, 10));
        u->device_kind = adup(a, col_text(st, 11));
        u->mode = adup(a, col_text(st, 12));
        u->dtype = adup(a, col_text(st, 13));
        u->config = adup(a, col_text(st, 14));
        u->batch = sqlite3_column_int64(st, 15);
        u->seq = sqlite3_column_int64(st, 16);
        u->warmup = sqlite3_column_int64(st, 17);
        u->iters = sqlite3_column_int64(st, 18);
        u->loadavg = col_dbl(st, 19);
        u->started = adup(a, col_text(st, 20));
        u->wall_s = col_dbl(st, 21);
        u->outcome = adup(a, col_text(st, 22));
        u->message = adup(a, col_text(st, 23));
        u->repeat_of = sqlite3_column_int64(st, 24);
        if (!u->uid || !u->model_hash || !u->family || !u->variant || !u->spec || !u->onnx_path || !u->device ||
            !u->device_kind || !u->mode || !u->dtype || !u->config || !u->started || !u->outcome || !u->message)
            goto oom;
    }
    if (rc != SQLITE_DONE) {
        ret = sql_err(err, s, "query");
        goto fail;
    }
    sqlite3_finalize(st);
    st = NULL;
    if (r->n) {
        /* metrics: one pass over measurements of the selected id range, attached by id */
        if (sqlite3_prepare_v2(s->db,
                               "SELECT run_id, metric, unit, n, mean, median, std, min, max, source FROM measurements "
                               "WHERE run_id BETWEEN ?1 AND ?2 ORDER BY run_id, metric",
                               -1, &st, NULL) != SQLITE_OK) {
            ret = sql_err(err, s, "reading measurements");
            goto fail;
        }
        sqlite3_bind_int64(st, 1, r->runs[0].id);
        sqlite3_bind_int64(st, 2, r->runs[r->n - 1].id);
        dlp_store_run *cur = NULL;
        dlp_store_metric *buf = NULL;
        int nb = 0, cb = 0;
        int64_t cur_id = -1;
        for (;;) {
            rc = sqlite3_step(st);
            int64_t id = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -2;
            if (id != cur_id) {
                if (cur && nb) {
                    cur->metrics = dlp__arena_memdup(&r->arena, buf, sizeof *buf * (size_t)nb);
                    if (!cur->metrics) {
                        free(buf);
                        goto oom;
                    }
                    cur->n_metrics = nb;
                }
                nb = 0;
                cur_id = id;
                cur = id >= 0 ? bsearch(&id, r->runs, (size_t)r->n, sizeof *r->runs, cmp_run_id) : NULL;
            }
            if (rc != SQLITE_ROW) break;
            if (!cur) continue;
            if (dlp__grow((void **)&buf, nb, &cb, sizeof *buf)) {
                free(buf);
                goto oom;
            }
            dlp_store_metric *m = &buf[nb++];
            m->name = adup(&r->arena, col_text(st, 1));
            m->unit = adup(&r->arena, col_text(st, 2));
            m->n = sqlite3_column_int64(st, 3);
            m->mean = col_dbl(st, 4);
            m->median = col_dbl(st, 5);
            m->std = col_dbl(st, 6);
            m->min = col_dbl(st, 7);
            m->max = col_dbl(st, 8);
            m->source = adup(&r->arena, col_text(st, 9));
            if (!m->name || !m->unit || !m->source) {
                free(buf);
                goto oom;
            }
        }
        free(buf);
        if (rc != SQLITE_DONE) {
            ret = sql_err(err, s, "reading measurements");
            goto fail;
        }
        sqlite3_finalize(st);
    }
    *out = r;
    return DLP_OK;
oom:
    ret = dlp__err(err, DLP_ENOMEM, "%s: out of memory", s->path);
fail:
    sqlite3_finalize(st);
    dlp_store_runs_free(r);
    return ret;
}

int dlp_store_runs_count(const dlp_store_runs *r) { return r ? r->n : 0; }

const dlp_store_run *dlp_store_runs_at(const dlp_store_runs *r, int i) {
    return r && i >= 0 && i < r->n ? &r->runs[i] : NULL;
}

void dlp_store_runs_free(dlp_store_runs *r) {
    if (!r) return;
    dlp__arena_free(&r->arena);
    free(r->runs);
    free(r);
}

const dlp_store_metric *dlp_store_run_metric(const dlp_store_run *run, const char *name) {
    if (!run || !name) return NULL;
    for (int i = 0; i < run->n_metrics; i++)
        if (!strcmp(run->metrics[i].name, name)) return &run->metrics[i];
    return NULL;
}

/* ---- noise ----------------------------------------------------------------- */

typedef struct {
    dlp_store_noise key;
    double *within, *rep;
    int nw, cw, nr, cr;
} noise_acc;

static int cmp_dbl(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double quantile(double *v, int n, double q) {
    if (n <= 0) return NAN;
    qsort(v, (size_t)n, sizeof *v, cmp_dbl);
    double pos = q * (n - 1);
    int lo = (int)floor(pos), hi = lo + 1 < n ? lo + 1 : lo;
    return v[lo] + (v[hi] - v[lo]) * (pos - lo);
}

static noise_acc *noise_slot(noise_acc **acc, int *n, int *cap, const char *dev, const char *mode, const char *metric) {
    for (int i = 0; i < *n; i++)
        if (!strcmp((*acc)[i].key.device, dev) && !strcmp((*acc)[i].key.mode, mode) &&
            !strcmp((*acc)[i].key.metric, metric))
            return &(*acc)[i];
    if (dlp__grow((void **)acc, *n, cap, sizeof **acc)) return NULL;
    noise_acc *a = &(*acc)[(*n)++];
    memset(a, 0, sizeof *a);
    snprintf(a->key.device, sizeof a->key.device, "%s", dev);
    snprintf(a->key.mode, sizeof a->key.mode, "%s", mode);
    snprintf(a->key.metric, sizeof a->key.metric, "%s", metric);
    return a;
}

static int push(double **v, int *n, int *cap, double x) {
    if (dlp__grow((void **)v, *n, cap, sizeof **v)) return -1;
    (*v)[(*n)++] = x;
    return 0;
}

static int cmp_noise(const void *a, const void *b) {
    const dlp_store_noise *x = a, *y = b;
    int c = strcmp(x->device, y->device);
    if (!c) c = strcmp(x->mode, y->mode);
    if (!c) c = strcmp(x->metric, y->metric);
    return c;
}

dlp_status dlp_store_noise_get(dlp_store *s, dlp_store_noise **out, int *n_out, dlp_error *err) {
    *out = NULL;
    *n_out = 0;
    dlp_store_filter f = {.ok_only = 1};
    dlp_store_runs *r;
    dlp_status st = dlp_store_query(s, &f, &r, err);
    if (st) return st;
    noise_acc *acc = NULL;
    int na = 0, ca = 0, bad = 0;
    for (int i = 0; i < r->n && !bad; i++) {
        const dlp_store_run *u = &r->runs[i];
        for (int k = 0; k < u->n_metrics && !bad; k++) {
            const dlp_store_metric *m = &u->metrics[k];
            if (m->n < 1 || !(m->mean > 0)) continue;
            noise_acc *a = noise_slot(&acc, &na, &ca, u->device, u->mode, m->name);
            if (!a) bad = 1;
            else if (m->n >= 2 && isfinite(m->std) && !u->repeat_of) {
                a->key.runs++;
                bad = push(&a->within, &a->nw, &a->cw, m->std / m->mean);
            }
        }
        if (!u->repeat_of) continue;
        const dlp_store_run *o = bsearch(&u->repeat_of, r->runs, (size_t)r->n, sizeof *r->runs, cmp_run_id);
        if (!o) continue;
        for (int k = 0; k < u->n_metrics && !bad; k++) {
            const dlp_store_metric *m = &u->metrics[k], *mo = dlp_store_run_metric(o, m->name);
            if (!mo || m->n < 1 || mo->n < 1 || !(m->mean > 0) || !(mo->mean > 0)) continue;
            noise_acc *a = noise_slot(&acc, &na, &ca, u->device, u->mode, m->name);
            if (!a) bad = 1;
            else {
                a->key.pairs++;
                bad = push(&a->rep, &a->nr, &a->cr, sqrt(2.0) * fabs(m->mean - mo->mean) / (m->mean + mo->mean));
            }
        }
    }
    dlp_store_runs_free(r);
    dlp_store_noise *res = bad ? NULL : malloc(sizeof *res * (size_t)(na ? na : 1));
    for (int i = 0; i < na; i++) {
        if (res) {
            res[i] = acc[i].key;
            res[i].cv_within_median = quantile(acc[i].within, acc[i].nw, 0.5);
            res[i].cv_within_p90 = quantile(acc[i].within, acc[i].nw, 0.9);
            res[i].cv_repeat_median = quantile(acc[i].rep, acc[i].nr, 0.5);
            res[i].cv_repeat_p90 = quantile(acc[i].rep, acc[i].nr, 0.9);
        }
        free(acc[i].within);
        free(acc[i].rep);
    }
    free(acc);
    if (!res) return dlp__err(err, DLP_ENOMEM, "%s: out of memory", s->path);
    qsort(res, (size_t)na, sizeof *res, cmp_noise);
    *out = res;
    *n_out = na;
    return DLP_OK;
}

/* ---- one run into a destination store (merge and import) ------------------ */

/* Every column of a run with its model and device, as strings (NULL for
 * NULL); what merge reads from a source store and import from a CSV row. */
enum {
    F_UID, F_REPEAT_OF_UID, F_MODEL_HASH, F_FAMILY, F_VARIANT, F_SPEC, F_ONNX_PATH, F_INPUT, F_PARAMS, F_ONNX_BYTES,
    F_DEVICE, F_DEVICE_KIND, F_DEVICE_MODEL, F_DEVICE_FEATURES, F_DEVICE_HOST, F_MODE, F_BATCH, F_SEQ, F_DTYPE,
    F_CONFIG, F_WARMUP, F_ITERS, F_COOLDOWN_S, F_THREADS, F_LOADAVG, F_LOADAVG_END, F_HARNESS, F_VERSIONS, F_HOST,
    F_SHARD, F_STARTED, F_WALL_S, F_OUTCOME, F_MESSAGE, F_COUNT
};
static const char *const FIELD_NAMES[F_COUNT] = {
    "run_uid", "repeat_of_uid", "model_hash", "family", "variant", "spec", "onnx_path", "input", "params",
    "onnx_bytes", "device", "device_kind", "device_model", "device_features", "device_host", "mode", "batch", "seq",
    "dtype", "config", "warmup", "iters", "cooldown_s", "threads", "loadavg", "loadavg_end", "harness", "versions",
    "host", "shard", "started", "wall_s", "outcome", "message"};
/* Required in a CSV (and never NULL in a store). */
static const int REQUIRED[] = {F_UID, F_MODEL_HASH, F_FAMILY, F_VARIANT, F_SPEC, F_INPUT, F_DEVICE, F_DEVICE_KIND,
                               F_DEVICE_MODEL, F_DEVICE_FEATURES, F_MODE, F_BATCH, F_SEQ, F_DTYPE, F_CONFIG,
                               F_HARNESS, F_VERSIONS, F_STARTED, F_OUTCOME};

#define MAX_METRICS 64
typedef struct {
    const char *name, *unit, *source, *samples; /* samples: JSON or NULL */
    const char *n, *mean, *median, *std, *min, *max; /* as text; NULL = NULL */
} metric_rec;

typedef struct {
    const char *f[F_COUNT];
    int n_metrics;
    metric_rec m[MAX_METRICS];
} run_rec;

typedef struct {
    sqlite3_stmt *find_uid, *find_dev, *add_dev, *find_model, *add_model, *find_key, *add_run, *add_meas, *park,
        *repoint, *del_meas, *del_run, *add_spec;
} put_stmts;

static const char *const PUT_SQL[] = {
    "SELECT id FROM runs WHERE uid = ?1",
    "SELECT id FROM devices WHERE name = ?1",
    "INSERT INTO devices(name, kind, model, features, host, created) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    "SELECT id, onnx_path FROM models WHERE hash = ?1",
    "INSERT INTO models(hash, family, variant, spec, onnx_path, input, params, onnx_bytes, created) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
    "SELECT id, started FROM runs WHERE model_id = ?1 AND device_id = ?2 AND config = ?3 AND repeat_of IS NULL",
    "INSERT INTO runs(uid, model_id, device_id, mode, batch, seq, dtype, config, warmup, iters, cooldown_s, threads, "
    "loadavg, loadavg_end, harness, versions, host, shard, started, wall_s, outcome, message, repeat_of) VALUES "
    "(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23)",
    "INSERT INTO measurements(run_id, metric, unit, n, mean, median, std, min, max, source, samples) VALUES "
    "(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
    "UPDATE runs SET config = config || '#replaced' WHERE id = ?1",
    "UPDATE runs SET repeat_of = ?1 WHERE repeat_of = ?2",
    "DELETE FROM measurements WHERE run_id = ?1",
    "DELETE FROM runs WHERE id = ?1",
    "INSERT OR IGNORE INTO specs(spec_hash, model_id) VALUES (?1, ?2)",
};

static void put_finalize(put_stmts *p) {
    sqlite3_stmt **a = (sqlite3_stmt **)p;
    for (size_t i = 0; i < sizeof *p / sizeof(sqlite3_stmt *); i++) sqlite3_finalize(a[i]);
    memset(p, 0, sizeof *p);
}

static int put_prepare(dlp_store *s, put_stmts *p, dlp_error *err) {
    memset(p, 0, sizeof *p);
    sqlite3_stmt **a = (sqlite3_stmt **)p;
    for (size_t i = 0; i < sizeof *p / sizeof(sqlite3_stmt *); i++)
        if (sqlite3_prepare_v2(s->db, PUT_SQL[i], -1, &a[i], NULL) != SQLITE_OK) {
            sql_err(err, s, "preparing");
            put_finalize(p);
            return -1;
        }
    return 0;
}

/* Bind a text value as INTEGER / REAL / TEXT (NULL for NULL or ""). */
static void bind_int(sqlite3_stmt *st, int i, const char *v) {
    if (!v || !*v) sqlite3_bind_null(st, i);
    else sqlite3_bind_int64(st, i, strtoll(v, NULL, 10));
}
static void bind_dbl(sqlite3_stmt *st, int i, const char *v) {
    if (!v || !*v) sqlite3_bind_null(st, i);
    else sqlite3_bind_double(st, i, strtod(v, NULL));
}
static void bind_txt(sqlite3_stmt *st, int i, const char *v) {
    if (!v) sqlite3_bind_null(st, i);
    else sqlite3_bind_text(st, i, v, -1, SQLITE_TRANSIENT);
}

/* Run a prepared statement with no result rows; resets it. */
static int step_done(sqlite3_stmt *st) {
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

/* First column of the first row as int64 (-1: none); optional second column text copied into buf. */
static int64_t step_id(sqlite3_stmt *st, char *buf, size_t n) {
    int64_t id = -1;
    if (sqlite3_step(st) == SQLITE_ROW) {
        id = sqlite3_column_int64(st, 0);
        if (buf) snprintf(buf, n, "%s", col_text(st, 1) ? col_text(st, 1) : "");
    }
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    return id;
}

static int copy_file(const char *from, const char *to) {
    struct stat sb;
    int in = dlp__open_regular(from, &sb, NULL);
    if (in < 0) return -1;
    size_t L = strlen(to);
    char *tmp = malloc(L + 16);
    if (!tmp) {
        close(in);
        return -1;
    }
    snprintf(tmp, L + 16, "%s.tmp", to);
    int outf = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    int ok = outf >= 0;
    char buf[1 << 16];
    ssize_t r;
    while (ok && (r = read(in, buf, sizeof buf)) != 0) {
        if (r < 0) {
            if (errno == EINTR) continue;
            ok = 0;
            break;
        }
        ok = write(outf, buf, (size_t)r) == r;
    }
    close(in);
    if (outf >= 0 && (fsync(outf) != 0 || close(outf) != 0)) ok = 0;
    if (ok && rename(tmp, to) != 0) ok = 0;
    if (!ok) unlink(tmp);
    free(tmp);
    return ok ? 0 : -1;
}

static void mkdirs_for(const char *path) {
    char *p = strdup(path);
    if (!p) return;
    for (char *q = p + 1; *q; q++)
        if (*q == '/') {
            *q = 0;
            mkdir(p, 0755);
            *q = '/';
        }
    free(p);
}

/* Put one run into dst.  src_dir: where the run's onnx_path is relative to (NULL: do not copy graphs).
 * src_specs: extra (spec_hash) list for the model, may be NULL. */
static dlp_status put_run(dlp_store *dst, put_stmts *p, const run_rec *r, const char *src_dir,
                          const char *const *spec_hashes, int n_spec, dlp_store_merge_counts *c, dlp_error *err) {
    const char *const *f = r->f;
    int is_repeat = f[F_REPEAT_OF_UID] && *f[F_REPEAT_OF_UID];
    char now[40];
    utc_now(now, sizeof now);
    /* the same run already there */
    bind_txt(p->find_uid, 1, f[F_UID]);
    if (step_id(p->find_uid, NULL, 0) >= 0) {
        if (is_repeat) c->repeats_duplicate++;
        else c->runs_duplicate++;
        return DLP_OK;
    }
    /* device */
    bind_txt(p->find_dev, 1, f[F_DEVICE]);
    int64_t did = step_id(p->find_dev, NULL, 0);
    if (did < 0) {
        bind_txt(p->add_dev, 1, f[F_DEVICE]);
        bind_txt(p->add_dev, 2, f[F_DEVICE_KIND]);
        bind_txt(p->add_dev, 3, f[F_DEVICE_MODEL]);
        bind_txt(p->add_dev, 4, f[F_DEVICE_FEATURES]);
        bind_txt(p->add_dev, 5, f[F_DEVICE_HOST] && *f[F_DEVICE_HOST] ? f[F_DEVICE_HOST] : NULL);
        bind_txt(p->add_dev, 6, now);
        if (step_done(p->add_dev)) return sql_err(err, dst, "adding a device");
        did = sqlite3_last_insert_rowid(dst->db);
        c->devices_added++;
    }
    /* model */
    char have_path[4096];
    bind_txt(p->find_model, 1, f[F_MODEL_HASH]);
    int64_t mid = step_id(p->find_model, have_path, sizeof have_path);
    if (mid < 0) {
        bind_txt(p->add_model, 1, f[F_MODEL_HASH]);
        bind_txt(p->add_model, 2, f[F_FAMILY]);
        bind_txt(p->add_model, 3, f[F_VARIANT]);
        bind_txt(p->add_model, 4, f[F_SPEC]);
        bind_txt(p->add_model, 5, f[F_ONNX_PATH] && *f[F_ONNX_PATH] ? f[F_ONNX_PATH] : NULL);
        bind_txt(p->add_model, 6, f[F_INPUT]);
        bind_int(p->add_model, 7, f[F_PARAMS]);
        bind_int(p->add_model, 8, f[F_ONNX_BYTES]);
        bind_txt(p->add_model, 9, now);
        if (step_done(p->add_model)) return sql_err(err, dst, "adding a model");
        mid = sqlite3_last_insert_rowid(dst->db);
        c->models_added++;
        snprintf(have_path, sizeof have_path, "%s", f[F_ONNX_PATH] ? f[F_ONNX_PATH] : "");
        /* the graph file beside the destination */
        if (src_dir && have_path[0] && have_path[0] != '/') {
            char from[8192], to[8192];
            snprintf(from, sizeof from, "%s/%s", src_dir, have_path);
            snprintf(to, sizeof to, "%s/%s", dst->dir, have_path);
            struct stat sb;
            if (stat(to, &sb) == 0) {
                /* already there (same content-hashed name) */
            } else if (stat(from, &sb) != 0) {
                c->graphs_missing++;
            } else {
                mkdirs_for(to);
                if (copy_file(from, to))
                    return dlp__err(err, DLP_EIO, "%s: cannot copy graph %s to %s", dst->path, from, to);
                c->graphs_copied++;
            }
        }
    }
    for (int i = 0; i < n_spec; i++) {
        bind_txt(p->add_spec, 1, spec_hashes[i]);
        sqlite3_bind_int64(p->add_spec, 2, mid);
        if (step_done(p->add_spec)) return sql_err(err, dst, "adding a spec");
    }
    /* the first measurement of this key in dst */
    char have_started[64];
    sqlite3_bind_int64(p->find_key, 1, mid);
    sqlite3_bind_int64(p->find_key, 2, did);
    bind_txt(p->find_key, 3, f[F_CONFIG]);
    int64_t kept = step_id(p->find_key, have_started, sizeof have_started);
    int64_t replace = -1, repeat_target = -1;
    if (is_repeat) {
        if (kept < 0) {
            c->repeats_orphan++;
            return DLP_OK;
        }
        repeat_target = kept;
    } else if (kept >= 0) {
        if (strcmp(f[F_STARTED], have_started) >= 0) { /* dst's is earlier (or as early): keep it */
            c->runs_duplicate++;
            return DLP_OK;
        }
        replace = kept;
        sqlite3_bind_int64(p->park, 1, replace); /* out of the unique key while the new one goes in */
        if (step_done(p->park)) return sql_err(err, dst, "replacing a run");
    }
    sqlite3_stmt *a = p->add_run;
    bind_txt(a, 1, f[F_UID]);
    sqlite3_bind_int64(a, 2, mid);
    sqlite3_bind_int64(a, 3, did);
    bind_txt(a, 4, f[F_MODE]);
    bind_int(a, 5, f[F_BATCH]);
    bind_int(a, 6, f[F_SEQ]);
    bind_txt(a, 7, f[F_DTYPE]);
    bind_txt(a, 8, f[F_CONFIG]);
    bind_int(a, 9, f[F_WARMUP]);
    bind_int(a, 10, f[F_ITERS]);
    bind_dbl(a, 11, f[F_COOLDOWN_S]);
    bind_int(a, 12, f[F_THREADS]);
    bind_dbl(a, 13, f[F_LOADAVG]);
    bind_dbl(a, 14, f[F_LOADAVG_END]);
    bind_txt(a, 15, f[F_HARNESS]);
    bind_txt(a, 16, f[F_VERSIONS]);
    bind_txt(a, 17, f[F_HOST] && *f[F_HOST] ? f[F_HOST] : NULL);
    bind_txt(a, 18, f[F_SHARD] && *f[F_SHARD] ? f[F_SHARD] : NULL);
    bind_txt(a, 19, f[F_STARTED]);
    bind_dbl(a, 20, f[F_WALL_S]);
    bind_txt(a, 21, f[F_OUTCOME]);
    bind_txt(a, 22, f[F_MESSAGE] && *f[F_MESSAGE] ? f[F_MESSAGE] : NULL);
    if (repeat_target >= 0) sqlite3_bind_int64(a, 23, repeat_target);
    else sqlite3_bind_null(a, 23);
    if (step_done(a)) return sql_err(err, dst, "adding a run");
    int64_t rid = sqlite3_last_insert_rowid(dst->db);
    for (int k = 0; k < r->n_metrics; k++) {
        const metric_rec *m = &r->m[k];
        sqlite3_stmt *q = p->add_meas;
        sqlite3_bind_int64(q, 1, rid);
        bind_txt(q, 2, m->name);
        bind_txt(q, 3, m->unit && *m->unit ? m->unit : unit_of(m->name));
        if (m->n && *m->n) bind_int(q, 4, m->n);
        else sqlite3_bind_int(q, 4, 0);
        bind_dbl(q, 5, m->mean);
        bind_dbl(q, 6, m->median);
        bind_dbl(q, 7, m->std);
        bind_dbl(q, 8, m->min);
        bind_dbl(q, 9, m->max);
        bind_txt(q, 10, m->source && *m->source ? m->source : NULL);
        bind_txt(q, 11, m->samples);
        if (step_done(q)) return sql_err(err, dst, "adding a measurement");
    }
    if (replace >= 0) {
        sqlite3_bind_int64(p->repoint, 1, rid);
        sqlite3_bind_int64(p->repoint, 2, replace);
        sqlite3_bind_int64(p->del_meas, 1, replace);
        sqlite3_bind_int64(p->del_run, 1, replace);
        if (step_done(p->repoint) || step_done(p->del_meas) || step_done(p->del_run))
            return sql_err(err, dst, "replacing a run");
        c->runs_replaced++;
    } else if (is_repeat) {
        c->repeats_added++;
    } else {
        c->runs_added++;
    }
    return DLP_OK;
}

static dlp_status begin(dlp_store *s, dlp_error *err) {
    if (!s->writable) return dlp__err(err, DLP_EINVAL, "%s: store opened read-only", s->path);
    return exec_sql(s, "BEGIN IMMEDIATE", err) ? DLP_EIO : DLP_OK;
}

static dlp_status finish(dlp_store *s, dlp_status st, dlp_error *err) {
    if (st) {
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
        return st;
    }
    if (exec_sql(s, "COMMIT", err)) {
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
        return DLP_EIO;
    }
    return load_devices(s, err);
}

/* ---- merge ------------------------------------------------------------------ */

dlp_status dlp_store_merge(dlp_store *dst, const char *src_path, dlp_store_merge_counts *counts, dlp_error *err) {
    dlp_store_merge_counts local;
    dlp_store_merge_counts *c = counts ? counts : &local;
    memset(c, 0, sizeof *c);
    dlp_store *src = NULL;
    dlp_status st = dlp_store_open(src_path, DLP_STORE_READ, &src, err);
    if (st) return st;
    if (!strcmp(src->path, dst->path)) {
        dlp_store_close(src);
        return dlp__err(err, DLP_EINVAL, "%s: cannot merge a store into itself", src_path);
    }
    static const char *const q =
        "SELECT r.uid, o.uid, m.hash, m.family, m.variant, m.spec, m.onnx_path, m.input, m.params, m.onnx_bytes, "
        "d.name, d.kind, d.model, d.features, d.host, r.mode, r.batch, r.seq, r.dtype, r.config, r.warmup, r.iters, "
        "r.cooldown_s, r.threads, r.loadavg, r.loadavg_end, r.harness, r.versions, r.host, r.shard, r.started, "
        "r.wall_s, r.outcome, r.message, r.id, m.id "
        "FROM runs r JOIN models m ON m.id = r.model_id JOIN devices d ON d.id = r.device_id "
        "LEFT JOIN runs o ON o.id = r.repeat_of ORDER BY r.repeat_of IS NOT NULL, r.started, r.id";
    sqlite3_stmt *rs = NULL, *ms = NULL, *ss = NULL;
    put_stmts p;
    if (put_prepare(dst, &p, err)) {
        dlp_store_close(src);
        return DLP_EIO;
    }
    if (sqlite3_prepare_v2(src->db, q, -1, &rs, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(src->db,
                           "SELECT metric, unit, n, mean, median, std, min, max, source, samples FROM measurements "
                           "WHERE run_id = ?1 ORDER BY metric",
                           -1, &ms, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(src->db, "SELECT spec_hash FROM specs WHERE model_id = ?1 ORDER BY spec_hash", -1, &ss,
                           NULL) != SQLITE_OK) {
        st = sql_err(err, src, "reading");
        goto done;
    }
    if ((st = begin(dst, err))) goto done;
    int rc;
    while (!st && (rc = sqlite3_step(rs)) == SQLITE_ROW) {
        run_rec r;
        memset(&r, 0, sizeof r);
        /* numbers through text keeps put_run single-typed; REAL text is shortest round-trip (%.17g) */
        char num[F_COUNT][40];
        for (int i = 0; i < F_COUNT; i++) {
            int t = sqlite3_column_type(rs, i);
            if (t == SQLITE_FLOAT) {
                snprintf(num[i], sizeof num[i], "%.17g", sqlite3_column_double(rs, i));
                r.f[i] = num[i];
            } else {
                r.f[i] = col_text(rs, i);
            }
        }
        sqlite3_bind_int64(ms, 1, sqlite3_column_int64(rs, F_COUNT));
        char mnum[MAX_METRICS][6][40];
        while (sqlite3_step(ms) == SQLITE_ROW && r.n_metrics < MAX_METRICS) {
            metric_rec *m = &r.m[r.n_metrics];
            const char **vals[6] = {&m->n, &m->mean, &m->median, &m->std, &m->min, &m->max};
            /* text pointers of a step stay valid until the next step: copy the strings */
            m->name = dlp__arena_strdup(&src->arena, col_text(ms, 0));
            m->unit = dlp__arena_strdup(&src->arena, col_text(ms, 1) ? col_text(ms, 1) : "");
            for (int k = 0; k < 6; k++) {
                if (sqlite3_column_type(ms, 2 + k) == SQLITE_NULL) *vals[k] = NULL;
                else {
                    if (k == 0) snprintf(mnum[r.n_metrics][k], 40, "%lld", (long long)sqlite3_column_int64(ms, 2));
                    else snprintf(mnum[r.n_metrics][k], 40, "%.17g", sqlite3_column_double(ms, 2 + k));
                    *vals[k] = mnum[r.n_metrics][k];
                }
            }
            m->source = col_text(ms, 8) ? dlp__arena_strdup(&src->arena, col_text(ms, 8)) : NULL;
            m->samples = col_text(ms, 9) ? dlp__arena_strdup(&src->arena, col_text(ms, 9)) : NULL;
            if (!m->name || !m->unit) {
                st = dlp__err(err, DLP_ENOMEM, "%s: out of memory", src_path);
                break;
            }
            r.n_metrics++;
        }
        sqlite3_reset(ms);
        if (st) break;
        const char *specs[64];
        int n_spec = 0;
        sqlite3_bind_int64(ss, 1, sqlite3_column_int64(rs, F_COUNT + 1));
        while (sqlite3_step(ss) == SQLITE_ROW && n_spec < 64)
            specs[n_spec++] = dlp__arena_strdup(&src->arena, col_text(ss, 0));
        sqlite3_reset(ss);
        for (int i = 0; i < n_spec; i++)
            if (!specs[i]) st = dlp__err(err, DLP_ENOMEM, "%s: out of memory", src_path);
        if (!st) st = put_run(dst, &p, &r, src->dir, specs, n_spec, c, err);
    }
    if (!st && rc != SQLITE_DONE) st = sql_err(err, src, "reading runs");
    st = finish(dst, st, err);
done:
    sqlite3_finalize(rs);
    sqlite3_finalize(ms);
    sqlite3_finalize(ss);
    put_finalize(&p);
    dlp_store_close(src);
    return st;
}

/* ---- CSV -------------------------------------------------------------------- */

static void csv_field(FILE *f, const char *s) {
    if (!s) return;
    int q = 0;
    for (const char *p = s; *p; p++)
        if (*p == ',' || *p == '"' || *p == '\n' || *p == '\r') q = 1;
    if (!*s) return; /* "" reads back as NULL, as a NULL column exports */
    if (!q && *s != ' ') {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (const char *p = s; *p; p++) {
        if (*p == '"') fputc('"', f);
        fputc(*p, f);
    }
    fputc('"', f);
}

/* Shortest text that reads back as the same double. */
static void fmt_dbl(char *buf, size_t n, double v) {
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, n, "%.*g", prec, v);
        if (strtod(buf, NULL) == v) return;
    }
}

static void csv_col(FILE *f, sqlite3_stmt *st, int i) {
    char b[40];
    switch (sqlite3_column_type(st, i)) {
    case SQLITE_NULL:
        break;
    case SQLITE_INTEGER:
        fprintf(f, "%lld", (long long)sqlite3_column_int64(st, i));
        break;
    case SQLITE_FLOAT:
        fmt_dbl(b, sizeof b, sqlite3_column_double(st, i));
        fputs(b, f);
        break;
    default:
        csv_field(f, col_text(st, i));
    }
}

/* Preferred column order of metrics; others follow alphabetically. */
static int metric_rank(const char *m) {
    static const char *const order[] = {"latency_ms", "step_ms", "throughput_sps", "tokens_tps", "memory_mb",
                                        "memory_base_mb", "memory_reserved_mb", "memory_alloc_mb", "energy_j",
                                        "energy_sample_j", "power_w"};
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
        if (!strcmp(order[i], m)) return (int)i;
    return 1000;
}

static int cmp_metric_name(const void *a, const void *b) {
    const char *x = *(const char *const *)a, *y = *(const char *const *)b;
    int rx = metric_rank(x), ry = metric_rank(y);
    return rx != ry ? rx - ry : strcmp(x, y);
}

static const char *const MFIELD[7] = {"n", "mean", "median", "std", "min", "max", "source"};

static dlp_status export_csv(dlp_store *s, FILE *f, dlp_error *err) {
    /* metric names present */
    sqlite3_stmt *st = NULL;
    char **names = NULL;
    int nn = 0, cn = 0;
    dlp_status ret = DLP_OK;
    dlp__arena a = {0};
    if (sqlite3_prepare_v2(s->db, "SELECT DISTINCT metric FROM measurements", -1, &st, NULL) != SQLITE_OK)
        return sql_err(err, s, "export");
    while (sqlite3_step(st) == SQLITE_ROW) {
        if (dlp__grow((void **)&names, nn, &cn, sizeof *names) ||
            !(names[nn] = dlp__arena_strdup(&a, col_text(st, 0)))) {
            ret = dlp__err(err, DLP_ENOMEM, "%s: out of memory", s->path);
            goto out;
        }
        nn++;
    }
    sqlite3_finalize(st);
    st = NULL;
    qsort(names, (size_t)nn, sizeof *names, cmp_metric_name);
    for (int i = 0; i < F_COUNT; i++) fprintf(f, "%s%s", i ? "," : "", FIELD_NAMES[i]);
    for (int i = 0; i < nn; i++)
        for (int k = 0; k < 7; k++) fprintf(f, ",%s_%s", names[i], MFIELD[k]);
    fputc('\n', f);
    static const char *const q =
        "SELECT r.uid, o.uid, m.hash, m.family, m.variant, m.spec, m.onnx_path, m.input, m.params, m.onnx_bytes, "
        "d.name, d.kind, d.model, d.features, d.host, r.mode, r.batch, r.seq, r.dtype, r.config, r.warmup, r.iters, "
        "r.cooldown_s, r.threads, r.loadavg, r.loadavg_end, r.harness, r.versions, r.host, r.shard, r.started, "
        "r.wall_s, r.outcome, r.message, r.id "
        "FROM runs r JOIN models m ON m.id = r.model_id JOIN devices d ON d.id = r.device_id "
        "LEFT JOIN runs o ON o.id = r.repeat_of ORDER BY r.id";
    sqlite3_stmt *ms = NULL;
    if (sqlite3_prepare_v2(s->db, q, -1, &st, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(s->db,
                           "SELECT metric, n, mean, median, std, min, max, source FROM measurements WHERE run_id = ?1",
                           -1, &ms, NULL) != SQLITE_OK) {
        ret = sql_err(err, s, "export");
        sqlite3_finalize(ms);
        goto out;
    }
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        for (int i = 0; i < F_COUNT; i++) {
            if (i) fputc(',', f);
            csv_col(f, st, i);
        }
        /* the run's metrics, in the header's order */
        sqlite3_bind_int64(ms, 1, sqlite3_column_int64(st, F_COUNT));
        int nrow = 0;
        int *pos = calloc((size_t)(nn ? nn : 1), sizeof *pos);
        if (!pos) {
            ret = dlp__err(err, DLP_ENOMEM, "%s: out of memory", s->path);
            break;
        }
        /* collect rows first: measurement rows come in primary-key order, not ours */
        typedef struct {
            int idx;
            sqlite3_value *v[7];
        } mrow;
        mrow rows[MAX_METRICS];
        while (sqlite3_step(ms) == SQLITE_ROW && nrow < MAX_METRICS) {
            const char *name = col_text(ms, 0);
            int idx = -1;
            for (int i = 0; i < nn; i++)
                if (!strcmp(names[i], name)) idx = i;
            if (idx < 0) continue;
            rows[nrow].idx = idx;
            for (int k = 0; k < 7; k++) rows[nrow].v[k] = sqlite3_value_dup(sqlite3_column_value(ms, 1 + k));
            pos[idx] = nrow + 1;
            nrow++;
        }
        sqlite3_reset(ms);
        for (int i = 0; i < nn; i++) {
            for (int k = 0; k < 7; k++) {
                fputc(',', f);
                if (!pos[i]) continue;
                sqlite3_value *v = rows[pos[i] - 1].v[k];
                char b[40];
                switch (sqlite3_value_type(v)) {
                case SQLITE_NULL:
                    break;
                case SQLITE_INTEGER:
                    fprintf(f, "%lld", (long long)sqlite3_value_int64(v));
                    break;
                case SQLITE_FLOAT:
                    fmt_dbl(b, sizeof b, sqlite3_value_double(v));
                    fputs(b, f);
                    break;
                default:
                    csv_field(f, (const char *)sqlite3_value_text(v));
                }
            }
        }
        for (int j = 0; j < nrow; j++)
            for (int k = 0; k < 7; k++) sqlite3_value_free(rows[j].v[k]);
        free(pos);
        fputc('\n', f);
    }
    if (!ret && rc != SQLITE_DONE) ret = sql_err(err, s, "export");
    sqlite3_finalize(ms);
    if (!ret && (fflush(f) != 0 || ferror(f))) ret = dlp__err(err, DLP_EIO, "%s: export: write failed", s->path);
out:
    sqlite3_finalize(st);
    free(names);
    dlp__arena_free(&a);
    return ret;
}

dlp_status dlp_store_export_csv_mem(dlp_store *s, char **buf, size_t *len, dlp_error *err) {
    *buf = NULL;
    if (len) *len = 0;
    char *b = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&b, &n);
    if (!f) return dlp__err(err, DLP_ENOMEM, "%s: out of memory exporting CSV", s->path);
    dlp_status st = export_csv(s, f, err);
    if ((ferror(f) | fclose(f)) && !st) st = dlp__err(err, DLP_ENOMEM, "%s: out of memory exporting CSV", s->path);
    if (st) {
        free(b);
        return st;
    }
    *buf = b;
    if (len) *len = n;
    return DLP_OK;
}

dlp_status dlp_store_export_csv(dlp_store *s, const char *path, dlp_error *err) {
    char *b;
    size_t n;
    dlp_status st = dlp_store_export_csv_mem(s, &b, &n, err);
    if (!st) st = dlp__write_file_atomic(path, b, n, err);
    free(b);
    return st;
}

/* RFC 4180 reader over a NUL-terminated buffer, in place: fields are
 * unquoted into the buffer itself.  Returns the field count of the next
 * record (0 at the end), -1 when a quote is unterminated, -2 when over max. */
static int csv_record(char **pp, char **fields, int max, int *line) {
    char *p = *pp;
    if (!*p) return 0;
    int n = 0;
    for (;;) {
        if (n >= max) return -2;
        char *w = p, *start = p;
        if (*p == '"') {
            p++;
            for (;;) {
                if (!*p) return -1;
                if (*p == '"') {
                    if (p[1] == '"') {
                        *w++ = '"';
                        p += 2;
                        continue;
                    }
                    p++;
                    break;
                }
                if (*p == '\n') (*line)++;
                *w++ = *p++;
            }
            /* anything after the closing quote up to the delimiter is kept literally */
            while (*p && *p != ',' && *p != '\n' && *p != '\r') *w++ = *p++;
        } else {
            while (*p && *p != ',' && *p != '\n' && *p != '\r') p++;
            w = p;
        }
        char d = *p;
        *w = 0;
        fields[n++] = start;
        if (d == ',') {
            p++;
            continue;
        }
        if (d == '\r') {
            p++;
            if (*p == '\n') p++;
        } else if (d == '\n') {
            p++;
        }
        (*line)++;
        break;
    }
    *pp = p;
    return n;
}

dlp_status dlp_store_import_csv(dlp_store *dst, const char *csv_path, dlp_store_merge_counts *counts, dlp_error *err) {
    dlp_store_merge_counts local;
    dlp_store_merge_counts *c = counts ? counts : &local;
    memset(c, 0, sizeof *c);
    dlp__mapped mp;
    dlp_status st = dlp__map_file(csv_path, &mp, err);
    if (st) return st;
    char *buf = malloc(mp.len + 1);
    if (!buf) {
        dlp__unmap_file(&mp);
        return dlp__err(err, DLP_ENOMEM, "%s: out of memory", csv_path);
    }
    memcpy(buf, mp.data, mp.len);
    buf[mp.len] = 0;
    dlp__unmap_file(&mp);
    enum { MAXF = F_COUNT + 7 * MAX_METRICS };
    char **hdr = calloc(MAXF, sizeof *hdr), **fld = calloc(MAXF, sizeof *fld);
    int *map = calloc(MAXF, sizeof *map); /* column -> field (>= 0), metric slot*8+k+1000, or -1 */
    char *mnames[MAX_METRICS];
    int n_m = 0;
    put_stmts p;
    int have_p = 0;
    if (!hdr || !fld || !map) {
        st = dlp__err(err, DLP_ENOMEM, "%s: out of memory", csv_path);
        goto out;
    }
    char *cur = buf;
    int line = 1;
    int nh = csv_record(&cur, hdr, MAXF, &line);
    if (nh <= 0) {
        st = dlp__err(err, DLP_EFORMAT, "%s: %s", csv_path, nh == 0 ? "empty file, no header" : "malformed header");
        goto out;
    }
    int seen[F_COUNT] = {0};
    for (int i = 0; i < nh; i++) {
        map[i] = -1;
        for (int k = 0; k < F_COUNT; k++)
            if (!strcmp(hdr[i], FIELD_NAMES[k])) {
                map[i] = k;
                seen[k] = 1;
            }
        if (map[i] >= 0) continue;
        char *u = strrchr(hdr[i], '_');
        int kf = -1;
        for (int k = 0; u && k < 7; k++)
            if (!strcmp(u + 1, MFIELD[k])) kf = k;
        if (kf < 0 || u == hdr[i]) {
            st = dlp__err(err, DLP_EFORMAT, "%s: line 1: unknown column '%s'", csv_path, hdr[i]);
            goto out;
        }
        *u = 0; /* hdr[i] is now the metric name */
        int slot = -1;
        for (int k = 0; k < n_m; k++)
            if (!strcmp(mnames[k], hdr[i])) slot = k;
        if (slot < 0) {
            if (n_m >= MAX_METRICS) {
                st = dlp__err(err, DLP_EFORMAT, "%s: more than %d metrics", csv_path, MAX_METRICS);
                goto out;
            }
            slot = n_m;
            mnames[n_m++] = hdr[i];
        }
        map[i] = 1000 + slot * 8 + kf;
    }
    for (size_t k = 0; k < sizeof REQUIRED / sizeof REQUIRED[0]; k++)
        if (!seen[REQUIRED[k]]) {
            st = dlp__err(err, DLP_EFORMAT, "%s: line 1: required column '%s' is missing", csv_path,
                          FIELD_NAMES[REQUIRED[k]]);
            goto out;
        }
    if (put_prepare(dst, &p, err)) {
        st = DLP_EIO;
        goto out;
    }
    have_p = 1;
    if ((st = begin(dst, err))) goto out;
    for (;;) {
        int rec_line = line;
        int nf = csv_record(&cur, fld, MAXF, &line);
        if (nf == 0) break;
        if (nf == 1 && !fld[0][0]) continue; /* blank line */
        if (nf < 0 || nf != nh) {
            st = dlp__err(err, DLP_EFORMAT, "%s: line %d: %s", csv_path, rec_line,
                          nf == -1 ? "unterminated quoted field" : "field count differs from the header");
            break;
        }
        run_rec r;
        memset(&r, 0, sizeof r);
        r.n_metrics = n_m;
        for (int k = 0; k < n_m; k++) r.m[k].name = mnames[k];
        int has_metric[MAX_METRICS] = {0};
        for (int i = 0; i < nh; i++) {
            if (map[i] < 1000) {
                r.f[map[i]] = fld[i];
                continue;
            }
            int slot = (map[i] - 1000) / 8, kf = (map[i] - 1000) % 8;
            const char *v = *fld[i] ? fld[i] : NULL;
            metric_rec *m = &r.m[slot];
            switch (kf) {
            case 0: m->n = v; has_metric[slot] |= v != NULL; break;
            case 1: m->mean = v; break;
            case 2: m->median = v; break;
            case 3: m->std = v; break;
            case 4: m->min = v; break;
            case 5: m->max = v; break;
            default: m->source = v; break;
            }
        }
        /* drop metrics this run does not have (empty n) */
        int w = 0;
        for (int k = 0; k < n_m; k++)
            if (has_metric[k]) r.m[w++] = r.m[k];
        r.n_metrics = w;
        for (size_t k = 0; k < sizeof REQUIRED / sizeof REQUIRED[0] && !st; k++)
            if (!r.f[REQUIRED[k]][0])
                st = dlp__err(err, DLP_EFORMAT, "%s: line %d: column '%s' is empty", csv_path, rec_line,
                              FIELD_NAMES[REQUIRED[k]]);
        for (int i = 0; i < F_COUNT && !st; i++)
            if (r.f[i] && !r.f[i][0] && i != F_MESSAGE) r.f[i] = NULL;
        if (!st && strcmp(r.f[F_OUTCOME], "ok") && strcmp(r.f[F_OUTCOME], "oom") && strcmp(r.f[F_OUTCOME], "error"))
            st = dlp__err(err, DLP_EFORMAT, "%s: line %d: outcome '%s' is not ok, oom or error", csv_path, rec_line,
                          r.f[F_OUTCOME]);
        if (!st && strcmp(r.f[F_MODE], "infer") && strcmp(r.f[F_MODE], "train") && strcmp(r.f[F_MODE], "llm"))
            st = dlp__err(err, DLP_EFORMAT, "%s: line %d: mode '%s' is not infer, train or llm", csv_path, rec_line,
                          r.f[F_MODE]);
        if (!st) st = put_run(dst, &p, &r, NULL, NULL, 0, c, err);
        if (st) break;
    }
    st = finish(dst, st, err);
out:
    if (have_p) put_finalize(&p);
    free(hdr);
    free(fld);
    free(map);
    free(buf);
    return st;
}

/* ---- probe --------------------------------------------------------------------- */

int dlp_store_probe(const char *path) {
    if (!path) return 0;
    size_t L = strlen(path);
    if ((L > 7 && !strcmp(path + L - 7, ".sqlite")) || (L > 3 && !strcmp(path + L - 3, ".db"))) return 1;
    char magic[16] = {0};
    FILE *f = dlp__fopen_regular(path, NULL); /* a named pipe would block */
    if (!f) return 0;
    size_t n = fread(magic, 1, sizeof magic, f);
    fclose(f);
    return n == sizeof magic && !memcmp(magic, "SQLite format 3", 16);
}
