/*
 * test_dataset.c — datasets and .dlpd files: round trip, shared graphs,
 * fingerprint stability and sensitivity, and every refusal of a bad file
 * (corrupted byte -> DLP_ECHECKSUM, truncated -> DLP_EFORMAT, other version
 * -> DLP_EVERSION, bad magic), plus argument checks.
 */
#include <unistd.h>

#include "tap.h"

#include "dlperf.h"

#define ARCH_A "|nor_conv_3x3~0|+|nor_conv_3x3~0|avg_pool_3x3~1|+|skip_connect~0|nor_conv_3x3~1|skip_connect~2|"
#define ARCH_B "|avg_pool_3x3~0|+|nor_conv_1x1~0|skip_connect~1|+|nor_conv_1x1~0|skip_connect~1|skip_connect~2|"

static char tmpdir[256];

static const char *tmp_path(const char *name) {
    static char buf[512];
    snprintf(buf, sizeof buf, "%s/%s", tmpdir, name);
    return buf;
}

static dlp_features *feat(const char *arch, int64_t batch, int layout) {
    dlp_graph *g = NULL;
    dlp_features *f = NULL;
    dlp_error err = {0};
    if (dlp_graph_from_nb201(arch, batch, &g, &err) || dlp_features_build(g, layout, &f, &err))
        fprintf(stderr, "  %s\n", err.msg);
    dlp_graph_free(g);
    return f;
}

/* Two archs at batch 32 on two devices (shared graphs), one at batch 1. */
static dlp_dataset *make(int layout) {
    static const char *const tn[2] = {"latency_ms", "energy_j"};
    dlp_dataset *ds = NULL;
    dlp_error err = {0};
    if (dlp_dataset_new(layout, 2, tn, &ds, &err)) {
        fprintf(stderr, "  %s\n", err.msg);
        return NULL;
    }
    int ga, gb;
    dlp_dataset_add_device(ds, "titanxp_32");
    if (dlp_dataset_add_graph(ds, feat(ARCH_A, 32, layout), &ga, &err) ||
        dlp_dataset_add_graph(ds, feat(ARCH_B, 32, layout), &gb, &err)) {
        fprintf(stderr, "  %s\n", err.msg);
        dlp_dataset_free(ds);
        return NULL;
    }
    float t[2] = {9.7657f, NAN};
    dlp_dataset_add_sample(ds, ga, t, "nb201", "titanxp_32", ARCH_A, &err);
    t[0] = 8.1f;
    t[1] = 1.5f;
    dlp_dataset_add_sample(ds, ga, t, "nb201", "2080ti_32", ARCH_A, &err);
    t[0] = 7.38505f;
    dlp_dataset_add_sample(ds, gb, t, "nb201", "titanxp_32", ARCH_B, &err);
    dlp_dataset_add(ds, feat(ARCH_B, 1, layout), NULL, "nb201", "titanxp_1", ARCH_B, &err);
    return ds;
}

static int same_features(const dlp_features *a, const dlp_features *b) {
    if (a->layout != b->layout || a->layout_version != b->layout_version || a->n_nodes != b->n_nodes ||
        a->n_feat != b->n_feat || a->n_edges != b->n_edges || strcmp(a->name, b->name))
        return 0;
    if (memcmp(a->static_f, b->static_f, sizeof a->static_f)) return 0;
    if (memcmp(a->x, b->x, sizeof(float) * (size_t)a->n_nodes * (size_t)a->n_feat)) return 0;
    if (memcmp(a->rowptr, b->rowptr, sizeof(int32_t) * ((size_t)a->n_nodes + 1))) return 0;
    return !memcmp(a->col, b->col, sizeof(int32_t) * (size_t)a->n_edges);
}

static void t_accessors(void) {
    dlp_dataset *ds = make(DLP_LAYOUT_DIPPM);
    CHECK(ds != NULL);
    if (!ds) return;
    CHECK_I64(dlp_dataset_count(ds), 4);
    CHECK_I64(dlp_dataset_graph_count(ds), 3);
    CHECK_I64(dlp_dataset_layout(ds), DLP_LAYOUT_DIPPM);
    CHECK_I64(dlp_dataset_target_count(ds), 2);
    CHECK_STR(dlp_dataset_target_at(ds, 1), "energy_j");
    CHECK(dlp_dataset_target_at(ds, 2) == NULL);
    CHECK_I64(dlp_dataset_target_index(ds, "latency_ms"), 0);
    CHECK_I64(dlp_dataset_target_index(ds, "power"), -1);
    CHECK_I64(dlp_dataset_device_count(ds), 3);
    CHECK_STR(dlp_dataset_device_at(ds, 0), "titanxp_32");
    CHECK_STR(dlp_dataset_device_at(ds, 2), "titanxp_1");
    dlp_dataset_sample s;
    CHECK(dlp_dataset_at(ds, 1) != NULL);
    s = *dlp_dataset_at(ds, 1);
    CHECK_STR(s.device, "2080ti_32");
    CHECK_I64(s.device_id, 1);
    CHECK_I64(s.graph, 0);
    CHECK_I64(s.batch, 32);
    CHECK_STR(s.family, "nb201");
    CHECK_STR(s.name, ARCH_A);
    CHECK_NEAR(s.targets[0], 8.1, 1e-6);
    s = *dlp_dataset_at(ds, 0);
    CHECK(isnan(s.targets[1]));
    s = *dlp_dataset_at(ds, 3);
    CHECK_I64(s.batch, 1);
    CHECK(isnan(s.targets[0]) && isnan(s.targets[1]));
    CHECK(s.features == dlp_dataset_graph_at(ds, 2));
    /* four samples: 4 and -1 are out of range */
    CHECK(dlp_dataset_at(ds, 4) == NULL);
    CHECK(dlp_dataset_at(ds, -1) == NULL);
    CHECK(dlp_dataset_at(NULL, 0) == NULL);
    dlp_dataset_free(ds);
}

static void t_roundtrip(void) {
    for (int layout = DLP_LAYOUT_TRAPPM; layout <= DLP_LAYOUT_DIPPM; layout++) {
        dlp_dataset *ds = make(layout), *ld = NULL;
        CHECK(ds != NULL);
        if (!ds) return;
        dlp_error err = {0};
        const char *p = tmp_path("rt.dlpd");
        CHECK_I64(dlp_dataset_save(ds, p, &err), DLP_OK);
        CHECK_I64(dlp_dataset_load(p, &ld, &err), DLP_OK);
        if (!ld) {
            fprintf(stderr, "  %s\n", err.msg);
            dlp_dataset_free(ds);
            return;
        }
        CHECK_I64(dlp_dataset_count(ld), dlp_dataset_count(ds));
        CHECK_I64(dlp_dataset_graph_count(ld), dlp_dataset_graph_count(ds));
        CHECK_I64(dlp_dataset_layout(ld), layout);
        CHECK_I64(dlp_dataset_device_count(ld), 3);
        CHECK_STR(dlp_dataset_target_at(ld, 0), "latency_ms");
        CHECK(dlp_dataset_fingerprint(ld) == dlp_dataset_fingerprint(ds));
        for (int i = 0; i < dlp_dataset_count(ds); i++) {
            dlp_dataset_sample a, b;
            a = *dlp_dataset_at(ds, i);
            b = *dlp_dataset_at(ld, i);
            CHECK(same_features(a.features, b.features));
            CHECK_I64(a.graph, b.graph);
            CHECK_I64(a.device_id, b.device_id);
            CHECK_I64(a.batch, b.batch);
            CHECK_STR(a.family, b.family);
            CHECK_STR(a.device, b.device);
            CHECK_STR(a.name, b.name);
            for (int k = 0; k < 2; k++)
                CHECK(memcmp(&a.targets[k], &b.targets[k], sizeof(float)) == 0);
        }
        /* a loaded set takes more samples and saves identically again */
        dlp_error e2 = {0};
        float t[2] = {1, 2};
        CHECK_I64(dlp_dataset_add_sample(ld, 0, t, "nb201", "pixel3", ARCH_A, &e2), DLP_OK);
        CHECK_I64(dlp_dataset_add_sample(ds, 0, t, "nb201", "pixel3", ARCH_A, &e2), DLP_OK);
        CHECK(dlp_dataset_fingerprint(ld) == dlp_dataset_fingerprint(ds));
        CHECK_I64(dlp_dataset_device_count(ld), 4);
        dlp_dataset_free(ld);
        dlp_dataset_free(ds);
        unlink(p);
    }
}

static void t_empty(void) {
    dlp_dataset *ds = NULL, *ld = NULL;
    dlp_error err = {0};
    CHECK_I64(dlp_dataset_new(DLP_LAYOUT_TRAPPM, 0, NULL, &ds, &err), DLP_OK);
    const char *p = tmp_path("empty.dlpd");
    CHECK_I64(dlp_dataset_save(ds, p, &err), DLP_OK);
    CHECK_I64(dlp_dataset_load(p, &ld, &err), DLP_OK);
    CHECK_I64(dlp_dataset_count(ld), 0);
    CHECK(dlp_dataset_fingerprint(ld) == dlp_dataset_fingerprint(ds));
    dlp_dataset_free(ds);
    dlp_dataset_free(ld);
    unlink(p);
}

static void t_fingerprint(void) {
    dlp_dataset *a = make(DLP_LAYOUT_DIPPM), *b = make(DLP_LAYOUT_DIPPM);
    CHECK(a && b);
    if (!a || !b) return;
    uint64_t fa = dlp_dataset_fingerprint(a);
    CHECK(fa == dlp_dataset_fingerprint(b));   /* same content, same hash */
    CHECK(fa != 0);
    dlp_error err = {0};
    float t[2] = {1.0f, 2.0f}, t2[2] = {1.0f, 2.0000002f};
    dlp_dataset_add_sample(a, 0, t, "nb201", "x", "n", &err);
    dlp_dataset_add_sample(b, 0, t2, "nb201", "x", "n", &err);
    CHECK(dlp_dataset_fingerprint(a) != dlp_dataset_fingerprint(b)); /* one ulp of one target */
    CHECK(dlp_dataset_fingerprint(a) != fa);
    dlp_dataset_free(a);
    dlp_dataset_free(b);
    /* a name, a device, the layout, a target name each change it */
    a = make(DLP_LAYOUT_DIPPM);
    b = make(DLP_LAYOUT_DIPPM);
    dlp_dataset_add_sample(a, 1, t, "nb201", "x", "n1", &err);
    dlp_dataset_add_sample(b, 1, t, "nb201", "x", "n2", &err);
    CHECK(dlp_dataset_fingerprint(a) != dlp_dataset_fingerprint(b));
    dlp_dataset_free(a);
    dlp_dataset_free(b);
    a = make(DLP_LAYOUT_DIPPM);
    b = make(DLP_LAYOUT_TRAPPM);
    CHECK(dlp_dataset_fingerprint(a) != dlp_dataset_fingerprint(b));
    dlp_dataset_free(a);
    dlp_dataset_free(b);
    static const char *const n1[1] = {"latency_ms"}, *const n2[1] = {"energy_j"};
    dlp_dataset_new(DLP_LAYOUT_DIPPM, 1, n1, &a, &err);
    dlp_dataset_new(DLP_LAYOUT_DIPPM, 1, n2, &b, &err);
    CHECK(dlp_dataset_fingerprint(a) != dlp_dataset_fingerprint(b));
    /* sharing does not matter: one graph twice == two copies of it */
    dlp_dataset_free(b);
    dlp_dataset_new(DLP_LAYOUT_DIPPM, 1, n1, &b, &err);
    int g;
    dlp_dataset_add_graph(a, feat(ARCH_B, 1, DLP_LAYOUT_DIPPM), &g, &err);
    dlp_dataset_add_sample(a, g, t, "nb201", "d1", ARCH_B, &err);
    dlp_dataset_add_sample(a, g, t, "nb201", "d2", ARCH_B, &err);
    dlp_dataset_add(b, feat(ARCH_B, 1, DLP_LAYOUT_DIPPM), t, "nb201", "d1", ARCH_B, &err);
    dlp_dataset_add(b, feat(ARCH_B, 1, DLP_LAYOUT_DIPPM), t, "nb201", "d2", ARCH_B, &err);
    CHECK(dlp_dataset_fingerprint(a) == dlp_dataset_fingerprint(b));
    dlp_dataset_free(a);
    dlp_dataset_free(b);
}

/* Read a whole file into memory. */
static unsigned char *slurp(const char *p, size_t *n) {
    FILE *f = fopen(p, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *b = malloc((size_t)len + 1);
    *n = fread(b, 1, (size_t)len, f);
    fclose(f);
    return b;
}

static void spit(const char *p, const unsigned char *b, size_t n) {
    FILE *f = fopen(p, "wb");
    fwrite(b, 1, n, f);
    fclose(f);
}

/* CRC-32 (IEEE), bit by bit: to forge a valid checksum over edited bytes. */
static uint32_t crc32_ieee(const unsigned char *p, size_t n) {
    uint32_t c = 0xffffffffu;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++) c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
    }
    return ~c;
}

static dlp_status load_status(const char *p, dlp_error *err) {
    dlp_dataset *ds = (dlp_dataset *)1;
    dlp_status st = dlp_dataset_load(p, &ds, err);
    if (st) CHECK(ds == NULL);
    else dlp_dataset_free(ds);
    return st;
}

static void t_bad_files(void) {
    dlp_dataset *ds = make(DLP_LAYOUT_DIPPM);
    CHECK(ds != NULL);
    if (!ds) return;
    dlp_error err = {0};
    const char *p = tmp_path("bad.dlpd");
    CHECK_I64(dlp_dataset_save(ds, p, &err), DLP_OK);
    dlp_dataset_free(ds);
    size_t n = 0;
    unsigned char *good = slurp(p, &n), *b = malloc(n);
    CHECK(good && n > 200);
    if (!good || !b) return;
    /* a flipped byte anywhere after the header (strings, graphs, samples, crc) */
    size_t offs[5] = {80, n / 3, n / 2, n - 30, n - 1};
    for (int k = 0; k < 5; k++) {
        memcpy(b, good, n);
        b[offs[k]] ^= 0x40;
        spit(p, b, n);
        CHECK_I64(load_status(p, &err), DLP_ECHECKSUM);
    }
    CHECK(strstr(err.msg, "bad.dlpd") != NULL);
    /* truncated at several points, header included */
    size_t cuts[5] = {n - 1, n / 2, 100, 40, 3};
    for (int k = 0; k < 5; k++) {
        spit(p, good, cuts[k]);
        CHECK_I64(load_status(p, &err), DLP_EFORMAT);
    }
    /* one byte too many */
    spit(p, good, n);
    {
        FILE *f = fopen(p, "ab");
        fputc(0, f);
        fclose(f);
    }
    CHECK_I64(load_status(p, &err), DLP_EFORMAT);
    /* format version 2 (header byte 4) */
    memcpy(b, good, n);
    b[4] = 2;
    spit(p, b, n);
    CHECK_I64(load_status(p, &err), DLP_EVERSION);
    CHECK(strstr(err.msg, "version 2") != NULL);
    /* layout version bumped, checksum fixed up: another layout version */
    memcpy(b, good, n);
    b[12] = 99;
    uint32_t c = crc32_ieee(b, n - 4);
    memcpy(b + n - 4, &c, 4);
    spit(p, b, n);
    CHECK_I64(load_status(p, &err), DLP_EVERSION);
    CHECK(strstr(err.msg, "layout version 99") != NULL);
    /* valid checksum over inconsistent content: a sample's graph id out of
     * range, then a target changed behind the stored fingerprint */
    size_t samples = n - 4 - 4 * (16 + 2 * 4); /* 4 samples, 2 targets */
    memcpy(b, good, n);
    uint32_t bad_graph = 999;
    memcpy(b + samples, &bad_graph, 4);
    c = crc32_ieee(b, n - 4);
    memcpy(b + n - 4, &c, 4);
    spit(p, b, n);
    CHECK_I64(load_status(p, &err), DLP_EFORMAT);
    CHECK(strstr(err.msg, "out of range") != NULL);
    memcpy(b, good, n);
    b[samples + 16] ^= 1;
    c = crc32_ieee(b, n - 4);
    memcpy(b + n - 4, &c, 4);
    spit(p, b, n);
    CHECK_I64(load_status(p, &err), DLP_EFORMAT);
    CHECK(strstr(err.msg, "fingerprint") != NULL);
    /* not a dataset at all */
    memcpy(b, good, n);
    b[0] = 'X';
    spit(p, b, n);
    CHECK_I64(load_status(p, &err), DLP_EFORMAT);
    /* a count in the header inflated: sizes no longer add up */
    memcpy(b, good, n);
    b[40] += 1; /* n_samples */
    spit(p, b, n);
    CHECK_I64(load_status(p, &err), DLP_EFORMAT);
    /* missing file */
    CHECK_I64(load_status(tmp_path("nope.dlpd"), &err), DLP_EIO);
    /* the untouched bytes still load */
    spit(p, good, n);
    CHECK_I64(load_status(p, &err), DLP_OK);
    free(good);
    free(b);
    unlink(p);
}

static void t_bad_args(void) {
    dlp_dataset *ds = NULL;
    dlp_error err = {0};
    static const char *const dup[2] = {"a", "a"}, *const empty[1] = {""};
    CHECK_I64(dlp_dataset_new(0, 0, NULL, &ds, &err), DLP_EINVAL);
    CHECK_I64(dlp_dataset_new(DLP_LAYOUT_DIPPM, 2, dup, &ds, &err), DLP_EINVAL);
    CHECK_I64(dlp_dataset_new(DLP_LAYOUT_DIPPM, 1, empty, &ds, &err), DLP_EINVAL);
    CHECK_I64(dlp_dataset_new(DLP_LAYOUT_DIPPM, -1, NULL, &ds, &err), DLP_EINVAL);
    CHECK(ds == NULL);
    CHECK_I64(dlp_dataset_new(DLP_LAYOUT_DIPPM, 0, NULL, &ds, &err), DLP_OK);
    /* wrong layout: refused, and f is freed (ASan checks the leak) */
    CHECK_I64(dlp_dataset_add_graph(ds, feat(ARCH_A, 1, DLP_LAYOUT_TRAPPM), NULL, &err), DLP_EINVAL);
    CHECK(strstr(err.msg, "trappm") != NULL);
    CHECK_I64(dlp_dataset_add_graph(ds, NULL, NULL, &err), DLP_EINVAL);
    CHECK_I64(dlp_dataset_add_sample(ds, 0, NULL, "f", "d", "n", &err), DLP_EINVAL);
    /* broken CSR */
    dlp_features *f = feat(ARCH_A, 1, DLP_LAYOUT_DIPPM);
    if (f && f->n_edges) f->col[0] = f->n_nodes;
    CHECK_I64(dlp_dataset_add_graph(ds, f, NULL, &err), DLP_EINVAL);
    CHECK_I64(dlp_dataset_count(ds), 0);
    CHECK_I64(dlp_dataset_graph_count(ds), 0);
    dlp_dataset_free(ds);
    dlp_dataset_free(NULL);
    CHECK_I64(dlp_dataset_count(NULL), 0);
}

int main(void) {
    snprintf(tmpdir, sizeof tmpdir, "/tmp/dlp_test_dataset.XXXXXX");
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    RUN(t_accessors);
    RUN(t_roundtrip);
    RUN(t_empty);
    RUN(t_fingerprint);
    RUN(t_bad_files);
    RUN(t_bad_args);
    rmdir(tmpdir);
    return TAP_DONE();
}
