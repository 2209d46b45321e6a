/*
 * test_store.c — the C side of the measurement store (src/data/store.c):
 * opening (missing file, not a database, not a store, another schema version),
 * creating, querying runs and metrics (NULL -> NaN), noise, merge rules
 * (duplicates, the earlier measurement wins, repeats follow) and the CSV
 * round trip.  Stores are filled with plain SQL, as the Python writer would.
 */
#include <sqlite3.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dlperf.h"
#include "tap.h"

static char tmpdir[256];

static void path_of(char *buf, size_t n, const char *name) { snprintf(buf, n, "%s/%s", tmpdir, name); }

static int sql(const char *path, const char *q) {
    sqlite3 *db;
    if (sqlite3_open(path, &db) != SQLITE_OK) return -1;
    char *msg = NULL;
    int rc = sqlite3_exec(db, q, NULL, NULL, &msg);
    if (rc != SQLITE_OK) fprintf(stderr, "  sql: %s\n", msg ? msg : "?");
    sqlite3_free(msg);
    sqlite3_close(db);
    return rc == SQLITE_OK ? 0 : -1;
}

/* A new store (created through the library) with one device, one model and runs. */
static void make_store(const char *path, const char *uid_prefix, const char *started, double latency) {
    dlp_store *s = NULL;
    dlp_error err = {0};
    unlink(path);
    CHECK(dlp_store_open(path, DLP_STORE_CREATE, &s, &err) == DLP_OK);
    dlp_store_close(s);
    char q[4096];
    snprintf(q, sizeof q,
             "INSERT INTO devices(id, name, kind, model, features, host, created) VALUES "
             "(1, 'cpu-test-2c', 'cpu', 'Test CPU', '{\"cores\":2}', 'h', '2024-01-01T00:00:00Z');"
             "INSERT INTO models(id, hash, family, variant, spec, onnx_path, input, params, onnx_bytes, created) "
             "VALUES "
             "(1, 'aaaa', 'resnet', 'resnet18@64', '{\"family\":\"resnet\"}', 'graphs/aaaa.onnx', '{}', 100, 10, 'x'),"
             "(2, 'bbbb', 'vgg', 'vgg11@224', '{\"family\":\"vgg\"}', 'graphs/bbbb.onnx', '{}', 200, 20, 'x');"
             "INSERT INTO runs(id, uid, model_id, device_id, mode, batch, seq, dtype, config, warmup, iters, loadavg, "
             "harness, versions, started, wall_s, outcome, message, repeat_of) VALUES "
             "(1, '%s-1', 1, 1, 'infer', 8, 0, 'float32', 'mode=infer,batch=8,seq=0,dtype=float32', 5, 30, 1.5, "
             "'h 1', '{}', '%s', 2.0, 'ok', NULL, NULL),"
             "(2, '%s-2', 2, 1, 'train', 32, 0, 'float32', 'mode=train,batch=32,seq=0,dtype=float32', 1, 0, 1.5, "
             "'h 1', '{}', '%s', 2.0, 'oom', 'CUDA out of memory', NULL),"
             "(3, '%s-3', 1, 1, 'infer', 8, 0, 'float32', 'mode=infer,batch=8,seq=0,dtype=float32', 5, 30, 1.5, "
             "'h 1', '{}', '%s9', 2.0, 'ok', NULL, 1);"
             "INSERT INTO measurements(run_id, metric, unit, n, mean, median, std, min, max, source, samples) VALUES "
             "(1, 'latency_ms', 'ms', 30, %g, %g, %g, %g, %g, 'perf_counter', '[1,2]'),"
             "(1, 'energy_j', 'J', 0, NULL, NULL, NULL, NULL, NULL, 'unavailable: RAPL', NULL),"
             "(3, 'latency_ms', 'ms', 30, %g, %g, %g, %g, %g, 'perf_counter', NULL);",
             uid_prefix, started, uid_prefix, started, uid_prefix, started, latency, latency, latency * 0.1,
             latency * 0.9, latency * 1.2, latency * 1.1, latency * 1.1, latency * 0.1, latency, latency * 1.3);
    CHECK(sql(path, q) == 0);
}

static void t_open_errors(void) {
    char p[512];
    dlp_store *s = NULL;
    dlp_error err = {0};
    path_of(p, sizeof p, "missing.sqlite");
    CHECK(dlp_store_open(p, DLP_STORE_READ, &s, &err) == DLP_EIO);
    CHECK(s == NULL);
    CHECK(strstr(err.msg, "missing.sqlite") != NULL);
    /* not a database */
    path_of(p, sizeof p, "junk.sqlite");
    FILE *f = fopen(p, "w");
    fputs("this is not an sqlite file, clearly not one at all, padding padding padding padding padding\n", f);
    fclose(f);
    memset(&err, 0, sizeof err);
    CHECK(dlp_store_open(p, DLP_STORE_READ, &s, &err) == DLP_EFORMAT);
    CHECK(strstr(err.msg, "junk.sqlite") != NULL);
    /* an SQLite file that is not a store */
    path_of(p, sizeof p, "other.sqlite");
    unlink(p);
    CHECK(sql(p, "CREATE TABLE t(x);") == 0);
    memset(&err, 0, sizeof err);
    CHECK(dlp_store_open(p, DLP_STORE_READ, &s, &err) == DLP_EFORMAT);
    CHECK(strstr(err.msg, "not a dlperf store") != NULL);
    /* read-only open of a missing file never creates it */
    path_of(p, sizeof p, "missing2.sqlite");
    CHECK(dlp_store_open(p, DLP_STORE_WRITE, &s, &err) == DLP_EIO);
    struct stat sb;
    CHECK(stat(p, &sb) != 0);
}

static void t_version_mismatch(void) {
    char p[512];
    path_of(p, sizeof p, "v2.sqlite");
    make_store(p, "v", "2024-01-01T00:00:00Z", 10);
    CHECK(sql(p, "PRAGMA user_version = 2;") == 0);
    dlp_store *s = NULL;
    dlp_error err = {0};
    CHECK(dlp_store_open(p, DLP_STORE_READ, &s, &err) == DLP_EVERSION);
    CHECK(s == NULL);
    CHECK(strstr(err.msg, "v2.sqlite") != NULL);
    CHECK(strstr(err.msg, "schema version 2") != NULL);
    CHECK(strstr(err.msg, "reads version 1") != NULL);
}

static void t_query(void) {
    char p[512];
    path_of(p, sizeof p, "q.sqlite");
    make_store(p, "q", "2024-01-01T00:00:00Z", 10);
    CHECK(sql(p, "INSERT INTO devices(name, kind, model, features, created) VALUES ('nvidia-h100-80gb-hbm3', "
                 "'cuda', 'NVIDIA H100 80GB HBM3', '{}', 'x');") == 0);
    dlp_store *s = NULL;
    dlp_error err = {0};
    CHECK(dlp_store_open(p, DLP_STORE_READ, &s, &err) == DLP_OK);
    if (!s) return;
    CHECK_I64(dlp_store_device_count(s), 2);
    /* a database alias finds the store's name for the same GPU */
    const dlp_store_device *h = dlp_store_find_device(s, "h100-sxm", NULL);
    CHECK(h != NULL && !strcmp(h->name, "nvidia-h100-80gb-hbm3"));
    CHECK_STR(dlp_store_device_at(s, 0)->name, "cpu-test-2c");
    CHECK(dlp_store_find_device(s, "CPU-TEST-2C", NULL) == dlp_store_device_at(s, 0));
    CHECK(dlp_store_find_device(s, "a100-40gb", NULL) == NULL);
    CHECK_STR(dlp_store_dir(s), tmpdir);
    dlp_store_runs *r = NULL;
    CHECK(dlp_store_query(s, NULL, &r, &err) == DLP_OK);
    CHECK_I64(dlp_store_runs_count(r), 3);
    const dlp_store_run *u = dlp_store_runs_at(r, 0);
    CHECK_STR(u->variant, "resnet18@64");
    CHECK_STR(u->onnx_path, "graphs/aaaa.onnx");
    CHECK_I64(u->batch, 8);
    CHECK_STR(u->message, "");
    CHECK_I64(u->n_metrics, 2);
    const dlp_store_metric *m = dlp_store_run_metric(u, "latency_ms");
    CHECK(m && m->n == 30);
    CHECK_NEAR(m ? m->mean : 0, 10, 1e-12);
    m = dlp_store_run_metric(u, "energy_j");
    CHECK(m && m->n == 0 && isnan(m->mean));
    CHECK(dlp_store_run_metric(u, "power_w") == NULL);
    CHECK_STR(dlp_store_runs_at(r, 1)->outcome, "oom");
    CHECK_I64(dlp_store_runs_at(r, 2)->repeat_of, 1);
    dlp_store_runs_free(r);
    dlp_store_filter f = {.ok_only = 1, .first_only = 1, .mode = "infer"};
    CHECK(dlp_store_query(s, &f, &r, &err) == DLP_OK);
    CHECK_I64(dlp_store_runs_count(r), 1);
    dlp_store_runs_free(r);
    /* noise: within-run CV 0.1, one repeat pair 10 vs 11 */
    dlp_store_noise *nz = NULL;
    int nn = 0;
    CHECK(dlp_store_noise_get(s, &nz, &nn, &err) == DLP_OK);
    int found = 0;
    for (int i = 0; i < nn; i++) {
        if (strcmp(nz[i].metric, "latency_ms")) continue;
        found = 1;
        CHECK_I64(nz[i].runs, 1);
        CHECK_NEAR(nz[i].cv_within_median, 0.1, 1e-9);
        CHECK_I64(nz[i].pairs, 1);
        CHECK_NEAR(nz[i].cv_repeat_median, sqrt(2.0) * 1.0 / 21.0, 1e-9);
    }
    CHECK(found);
    free(nz);
    dlp_store_close(s);
}

static void t_merge(void) {
    char a[512], b[512], o[512];
    path_of(a, sizeof a, "shard_a.sqlite");
    path_of(b, sizeof b, "shard_b.sqlite");
    path_of(o, sizeof o, "merged.sqlite");
    /* b measured the same configurations earlier: its runs win */
    make_store(a, "a", "2024-02-01T00:00:00Z", 10);
    make_store(b, "b", "2024-01-01T00:00:00Z", 20);
    unlink(o);
    dlp_store *s = NULL;
    dlp_error err = {0};
    CHECK(dlp_store_open(o, DLP_STORE_CREATE, &s, &err) == DLP_OK);
    if (!s) return;
    dlp_store_merge_counts c;
    CHECK(dlp_store_merge(s, a, &c, &err) == DLP_OK);
    CHECK_I64(c.runs_added, 2);
    CHECK_I64(c.repeats_added, 1);
    CHECK_I64(c.models_added, 2);
    CHECK_I64(c.devices_added, 1);
    CHECK_I64(c.graphs_missing, 2); /* the test stores have no graph files */
    CHECK(dlp_store_merge(s, b, &c, &err) == DLP_OK);
    CHECK_I64(c.runs_added, 0);
    CHECK_I64(c.runs_replaced, 2);
    CHECK_I64(c.repeats_added, 1);
    CHECK_I64(c.models_added, 0);
    /* merging a again: everything is a duplicate */
    CHECK(dlp_store_merge(s, a, &c, &err) == DLP_OK);
    CHECK_I64(c.runs_added + c.runs_replaced + c.repeats_added, 0);
    CHECK_I64(c.repeats_duplicate, 1);
    CHECK_I64(c.runs_duplicate, 2);
    CHECK(dlp_store_merge(s, o, &c, &err) == DLP_EINVAL);
    dlp_store_runs *r = NULL;
    dlp_store_filter f = {.first_only = 1};
    CHECK(dlp_store_query(s, &f, &r, &err) == DLP_OK);
    CHECK_I64(dlp_store_runs_count(r), 2);
    for (int i = 0; i < dlp_store_runs_count(r); i++) CHECK(dlp_store_runs_at(r, i)->uid[0] == 'b');
    const dlp_store_metric *m = dlp_store_run_metric(dlp_store_runs_at(r, 0), "latency_ms");
    CHECK_NEAR(m ? m->mean : 0, 20, 1e-12);
    dlp_store_runs_free(r);
    /* both repeats now point at the kept first measurement */
    CHECK(dlp_store_query(s, NULL, &r, &err) == DLP_OK);
    CHECK_I64(dlp_store_runs_count(r), 4);
    int reps = 0;
    for (int i = 0; i < dlp_store_runs_count(r); i++) {
        const dlp_store_run *u = dlp_store_runs_at(r, i);
        if (!u->repeat_of) continue;
        reps++;
        int ok = 0;
        for (int j = 0; j < dlp_store_runs_count(r); j++)
            ok |= dlp_store_runs_at(r, j)->id == u->repeat_of && dlp_store_runs_at(r, j)->uid[0] == 'b';
        CHECK(ok);
    }
    CHECK_I64(reps, 2);
    dlp_store_runs_free(r);
    dlp_store_close(s);
    /* a merge into a store opened read-only is refused */
    CHECK(dlp_store_open(o, DLP_STORE_READ, &s, &err) == DLP_OK);
    CHECK(dlp_store_merge(s, a, &c, &err) == DLP_EINVAL);
    dlp_store_close(s);
}

static void t_csv_round_trip(void) {
    char a[512], c1[512], c2[512], o[512];
    path_of(a, sizeof a, "csv_a.sqlite");
    path_of(o, sizeof o, "csv_b.sqlite");
    path_of(c1, sizeof c1, "a.csv");
    path_of(c2, sizeof c2, "b.csv");
    make_store(a, "c", "2024-01-01T00:00:00Z", 0.1 + 1e-9); /* a value that needs 17 digits */
    CHECK(sql(a, "UPDATE runs SET message = 'has, a comma and \"quotes\"' WHERE id = 2;") == 0);
    dlp_store *s = NULL, *t = NULL;
    dlp_error err = {0};
    CHECK(dlp_store_open(a, DLP_STORE_READ, &s, &err) == DLP_OK);
    CHECK(dlp_store_export_csv(s, c1, &err) == DLP_OK);
    dlp_store_close(s);
    unlink(o);
    CHECK(dlp_store_open(o, DLP_STORE_CREATE, &t, &err) == DLP_OK);
    dlp_store_merge_counts c;
    CHECK(dlp_store_import_csv(t, c1, &c, &err) == DLP_OK);
    CHECK_I64(c.runs_added, 2);
    CHECK_I64(c.repeats_added, 1);
    CHECK(dlp_store_export_csv(t, c2, &err) == DLP_OK);
    /* importing again: all duplicates */
    CHECK(dlp_store_import_csv(t, c1, &c, &err) == DLP_OK);
    CHECK_I64(c.runs_duplicate, 2);
    CHECK_I64(c.repeats_duplicate, 1);
    dlp_store_close(t);
    size_t n1 = 0, n2 = 0;
    char *x = tap_slurp(c1, &n1), *y = tap_slurp(c2, &n2);
    CHECK(x && y && n1 == n2 && !memcmp(x, y, n1));
    CHECK(x && strstr(x, "\"has, a comma and \"\"quotes\"\"\"") != NULL);
    free(x);
    free(y);
    /* malformed CSV: error names the file and the line */
    FILE *f = fopen(c2, "w");
    fputs("run_uid,model_hash\nx,y\n", f);
    fclose(f);
    CHECK(dlp_store_open(o, DLP_STORE_WRITE, &t, &err) == DLP_OK);
    memset(&err, 0, sizeof err);
    CHECK(dlp_store_import_csv(t, c2, &c, &err) == DLP_EFORMAT);
    CHECK(strstr(err.msg, "b.csv") != NULL && strstr(err.msg, "required column") != NULL);
    dlp_store_close(t);
}

int main(void) {
    snprintf(tmpdir, sizeof tmpdir, "/tmp/dlp_test_store.XXXXXX");
    if (!mkdtemp(tmpdir)) return 1;
    RUN(t_open_errors);
    RUN(t_version_mismatch);
    RUN(t_query);
    RUN(t_merge);
    RUN(t_csv_round_trip);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0) fprintf(stderr, "  could not remove %s\n", tmpdir);
    return TAP_DONE();
}
