/*
 * test_corpus_pack.c — the unlabeled-graph corpus and its pack file
 * (src/data/corpus.c):
 *   - a folder with .dlpg files, an .onnx file, a corrupt file, a
 *     subfolder and a manifest.jsonl: counts, sorted order, families and
 *     names from the manifest, one skipped source with a warning naming it;
 *   - every graph read back equals the features it came from (X, CSR,
 *     static features), the ONNX one equals a fresh build at batch 1;
 *   - an existing pack with the same sources is reused (same inode and
 *     mtime), other options rebuild it; dlp_corpus_open opens it alone;
 *   - a truncated pack is a clear error on load and is rebuilt by open;
 *   - a flipped byte in a record is DLP_ECHECKSUM naming pack and graph;
 *   - .dlpd sources (family and name from samples), max_nodes, refusals;
 *   - help-nb201 with max_graphs 20: 20 distinct valid arch strings.
 */
#include <sys/stat.h>
#include <unistd.h>

#include "dlperf.h"
#include "tap.h"

static char tmpdir[256];
static char *tp(const char *name) {
    static char buf[8][512];
    static int k;
    char *b = buf[k++ % 8];
    snprintf(b, 512, "%s/%s", tmpdir, name);
    return b;
}

static const char *A1 = "|nor_conv_3x3~0|+|nor_conv_3x3~0|avg_pool_3x3~1|+|skip_connect~0|none~1|nor_conv_1x1~2|";
static const char *A2 = "|skip_connect~0|+|none~0|nor_conv_1x1~1|+|avg_pool_3x3~0|nor_conv_3x3~1|none~2|";
static const char *A3 = "|avg_pool_3x3~0|+|nor_conv_1x1~0|skip_connect~1|+|nor_conv_3x3~0|none~1|skip_connect~2|";

static dlp_features *nb(const char *arch) {
    dlp_graph *g = NULL;
    dlp_features *f = NULL;
    dlp_error e = {0};
    if (dlp_graph_from_nb201_mode(arch, 1, DLP_NB201_EXECUTED, &g, &e) ||
        dlp_features_build(g, DLP_LAYOUT_TRAPPM, &f, &e))
        fprintf(stderr, "  build %s: %s\n", arch, e.msg);
    dlp_graph_free(g);
    return f;
}

static dlp_features *resnet(void) {
    dlp_load_opts lo = {.batch = 1};
    dlp_graph *g = NULL;
    dlp_features *f = NULL;
    dlp_error e = {0};
    if (dlp_graph_load("examples/resnet18.onnx", &lo, &g, &e) || dlp_features_build(g, DLP_LAYOUT_TRAPPM, &f, &e))
        fprintf(stderr, "  resnet18: %s\n", e.msg);
    dlp_graph_free(g);
    return f;
}

static int same(const dlp_features *a, const dlp_features *b) {
    if (!a || !b) return 0;
    if (a->layout != b->layout || a->layout_version != b->layout_version || a->n_nodes != b->n_nodes ||
        a->n_feat != b->n_feat || a->n_edges != b->n_edges)
        return 0;
    if (memcmp(a->x, b->x, sizeof(float) * (size_t)a->n_nodes * a->n_feat)) return 0;
    if (memcmp(a->rowptr, b->rowptr, sizeof(int32_t) * ((size_t)a->n_nodes + 1))) return 0;
    if (memcmp(a->col, b->col, sizeof(int32_t) * (size_t)a->n_edges)) return 0;
    return !memcmp(a->static_f, b->static_f, sizeof a->static_f);
}

static void write_text(const char *path, const char *s) {
    FILE *f = fopen(path, "wb");
    if (f) {
        fputs(s, f);
        fclose(f);
    }
}

static int n_warn;
static char last_warn[1024];
static void on_warn(void *u, const char *msg) {
    (void)u;
    n_warn++;
    snprintf(last_warn, sizeof last_warn, "%s", msg);
}

static dlp_features *fa, *fb, *fc, *fd, *fr;
static char srcdir[512];

static void setup(void) {
    fa = nb(A1);
    fb = nb(A2);
    fc = nb(A3);
    fd = nb("|nor_conv_3x3~0|+|nor_conv_3x3~0|nor_conv_3x3~1|+|nor_conv_3x3~0|nor_conv_3x3~1|nor_conv_3x3~2|");
    fr = resnet();
    snprintf(srcdir, sizeof srcdir, "%s", tp("src"));
    mkdir(srcdir, 0755);
    mkdir(tp("src/zsub"), 0755);
    dlp_error e = {0};
    dlp_features_save(fa, tp("src/a.dlpg"), &e);
    dlp_features_save(fb, tp("src/b.dlpg"), &e);
    dlp_features_save(fc, tp("src/c.dlpg"), &e);
    dlp_features_save(fd, tp("src/zsub/d.dlpg"), &e);
    write_text(tp("src/bad.dlpg"), "DLPG this is not a graph file at all, just text");
    write_text(tp("src/notes.txt"), "ignored");
    char abs[1024];
    if (getcwd(abs, sizeof abs)) {
        strncat(abs, "/examples/resnet18.onnx", sizeof abs - strlen(abs) - 1);
        if (symlink(abs, tp("src/h1.onnx"))) perror("symlink");
    }
    write_text(tp("src/manifest.jsonl"),
               "{\"family\":\"nb201\",\"hash\":\"b\",\"spec_hash\":\"x\",\"variant\":\"cellB\"}\n"
               "{\"error\":\"export failed\",\"family\":\"vit\",\"variant\":\"vit_x\"}\n"
               "{\"family\":\"resnet\",\"file\":\"h1.onnx\",\"hash\":\"h1\",\"variant\":\"resnet18\"}\n"
               "{\"family\":\"torn");
}

static void t_open_dir(void) {
    const char *src[1] = {srcdir};
    dlp_corpus_opts o = {.batch = 1, .warn = on_warn};
    dlp_corpus *c = NULL;
    dlp_error e = {0};
    n_warn = 0;
    CHECK_I64(dlp_corpus_pack(src, 1, tp("c.dlpc"), &o, &c, &e), DLP_OK);
    if (!c) {
        fprintf(stderr, "  %s\n", e.msg);
        return;
    }
    CHECK_I64(dlp_corpus_count(c), 5);
    CHECK_I64(dlp_corpus_skipped(c), 1);
    CHECK_I64(dlp_corpus_layout(c), DLP_LAYOUT_TRAPPM);
    CHECK_I64(n_warn, 1);
    CHECK(strstr(last_warn, "bad.dlpg") != NULL);
    /* sorted byte order: a, b, bad (skipped), c, h1, zsub/d */
    CHECK_STR(dlp_corpus_name(c, 0), "a");
    CHECK_STR(dlp_corpus_family(c, 0), "");
    CHECK_STR(dlp_corpus_name(c, 1), "cellB");
    CHECK_STR(dlp_corpus_family(c, 1), "nb201");
    CHECK_STR(dlp_corpus_name(c, 2), "c");
    CHECK_STR(dlp_corpus_name(c, 3), "resnet18");
    CHECK_STR(dlp_corpus_family(c, 3), "resnet");
    CHECK_STR(dlp_corpus_name(c, 4), "d");
    CHECK(dlp_corpus_name(c, 5) == NULL && dlp_corpus_name(c, -1) == NULL);
    CHECK_I64(dlp_corpus_nodes(c, 3), fr ? fr->n_nodes : -2);
    const dlp_features *want[5] = {fa, fb, fc, fr, fd};
    for (int i = 0; i < 5; i++) {
        dlp_features *g = NULL;
        CHECK_I64(dlp_corpus_read(c, i, &g, &e), DLP_OK);
        CHECK(same(g, want[i]));
        dlp_features_free(g);
    }
    dlp_features *g = NULL;
    CHECK_I64(dlp_corpus_read(c, 5, &g, &e), DLP_EINVAL);
    dlp_corpus_close(c);
    /* the pack alone */
    CHECK_I64(dlp_corpus_open(tp("c.dlpc"), &c, &e), DLP_OK);
    CHECK_I64(dlp_corpus_count(c), 5);
    CHECK_I64(dlp_corpus_skipped(c), 1);
    CHECK_STR(dlp_corpus_name(c, 3), "resnet18");
    dlp_corpus_close(c);
}

static void t_reuse(void) {
    const char *src[1] = {srcdir};
    dlp_corpus_opts o = {.batch = 1};
    dlp_corpus *c = NULL;
    dlp_error e = {0};
    struct stat s1, s2;
    CHECK(stat(tp("c.dlpc"), &s1) == 0);
    n_warn = 0;
    o.warn = on_warn;
    CHECK_I64(dlp_corpus_pack(src, 1, tp("c.dlpc"), &o, &c, &e), DLP_OK);
    CHECK_I64(n_warn, 0);   /* nothing converted: no warning again */
    CHECK_I64(dlp_corpus_count(c), 5);
    CHECK_I64(dlp_corpus_skipped(c), 1);
    dlp_corpus_close(c);
    CHECK(stat(tp("c.dlpc"), &s2) == 0);
    CHECK(s1.st_ino == s2.st_ino && s1.st_mtim.tv_sec == s2.st_mtim.tv_sec &&
          s1.st_mtim.tv_nsec == s2.st_mtim.tv_nsec);
    /* other options: rebuilt (rename: a new inode) */
    o.max_graphs = 2;
    CHECK_I64(dlp_corpus_pack(src, 1, tp("c.dlpc"), &o, &c, &e), DLP_OK);
    CHECK_I64(dlp_corpus_count(c), 2);
    dlp_corpus_close(c);
    CHECK(stat(tp("c.dlpc"), &s2) == 0);
    CHECK(s1.st_ino != s2.st_ino);
    /* max_nodes just under the largest graph leaves out that one (or those) */
    const dlp_features *all[5] = {fa, fb, fc, fr, fd};
    int mx = 0, under = 0;
    for (int i = 0; i < 5; i++)
        if (all[i] && all[i]->n_nodes > mx) mx = all[i]->n_nodes;
    for (int i = 0; i < 5; i++) under += all[i] && all[i]->n_nodes < mx;
    o.max_graphs = 0;
    o.max_nodes = mx - 1;
    CHECK_I64(dlp_corpus_pack(src, 1, tp("c.dlpc"), &o, &c, &e), DLP_OK);
    CHECK(under >= 1 && under < 5);
    CHECK_I64(dlp_corpus_count(c), under);
    for (int i = 0; i < dlp_corpus_count(c); i++) CHECK(dlp_corpus_nodes(c, i) < mx);
    dlp_corpus_close(c);
    /* a source changed on disk: rebuilt with it */
    o.max_nodes = 0;
    CHECK_I64(dlp_corpus_pack(src, 1, tp("c.dlpc"), &o, &c, &e), DLP_OK);
    dlp_corpus_close(c);
    dlp_features_save(fa, tp("src/zsub/e.dlpg"), &e);
    CHECK_I64(dlp_corpus_pack(src, 1, tp("c.dlpc"), &o, &c, &e), DLP_OK);
    CHECK_I64(dlp_corpus_count(c), 6);
    dlp_corpus_close(c);
    unlink(tp("src/zsub/e.dlpg"));
}

static unsigned char *slurp(const char *path, size_t *n) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *b = malloc((size_t)len + 1);
    if (b && fread(b, 1, (size_t)len, f) != (size_t)len) {
        free(b);
        b = NULL;
    }
    fclose(f);
    *n = (size_t)len;
    return b;
}
static void spit(const char *path, const unsigned char *b, size_t n) {
    FILE *f = fopen(path, "wb");
    if (!f) return;
    fwrite(b, 1, n, f);
    fclose(f);
}

static void t_damage(void) {
    const char *src[1] = {srcdir};
    dlp_corpus_opts o = {.batch = 1};
    dlp_corpus *c = NULL;
    dlp_error e = {0};
    CHECK_I64(dlp_corpus_pack(src, 1, tp("d.dlpc"), &o, &c, &e), DLP_OK);
    dlp_corpus_close(c);
    size_t n = 0, na = 0;
    unsigned char *b = slurp(tp("d.dlpc"), &n), *ga = slurp(tp("src/a.dlpg"), &na);
    if (!b || !ga) {
        CHECK(0);
        return;
    }
    /* record 0 holds exactly a.dlpg's bytes, right after the 64-byte header */
    CHECK(n > 64 + na && !memcmp(b + 64, ga, na));
    /* truncated: a clear error on load, a rebuild on open */
    spit(tp("t.dlpc"), b, n - 10);
    c = NULL;
    CHECK_I64(dlp_corpus_open(tp("t.dlpc"), &c, &e), DLP_EFORMAT);
    CHECK(c == NULL);
    CHECK(strstr(e.msg, "t.dlpc") != NULL && strstr(e.msg, "truncated") != NULL);
    CHECK_I64(dlp_corpus_pack(src, 1, tp("t.dlpc"), &o, &c, &e), DLP_OK);
    CHECK_I64(dlp_corpus_count(c), 5);
    dlp_corpus_close(c);
    /* not a pack at all */
    spit(tp("x.dlpc"), (const unsigned char *)"hello", 5);
    CHECK_I64(dlp_corpus_open(tp("x.dlpc"), &c, &e), DLP_EFORMAT);
    CHECK_I64(dlp_corpus_open(tp("absent.dlpc"), &c, &e), DLP_EIO);
    CHECK(strstr(e.msg, "absent.dlpc") != NULL);
    /* a flipped byte inside record 1 */
    b[64 + na + 200] ^= 0x40;
    spit(tp("f.dlpc"), b, n);
    CHECK_I64(dlp_corpus_open(tp("f.dlpc"), &c, &e), DLP_OK);
    dlp_features *g = NULL;
    CHECK_I64(dlp_corpus_read(c, 0, &g, &e), DLP_OK);
    dlp_features_free(g);
    g = NULL;
    CHECK_I64(dlp_corpus_read(c, 1, &g, &e), DLP_ECHECKSUM);
    CHECK(g == NULL);
    CHECK(strstr(e.msg, "f.dlpc") != NULL && strstr(e.msg, "graph 1") != NULL);
    dlp_corpus_close(c);
    /* a flipped byte in the index (the record flip undone) */
    b[64 + na + 200] ^= 0x40;
    b[n - 48 - 5] ^= 0x01;
    spit(tp("i.dlpc"), b, n);
    CHECK_I64(dlp_corpus_open(tp("i.dlpc"), &c, &e), DLP_ECHECKSUM);
    CHECK(strstr(e.msg, "i.dlpc") != NULL);
    free(b);
    free(ga);
}

static void t_dataset_source(void) {
    const char *tn[1] = {"latency_ms"};
    dlp_dataset *ds = NULL;
    dlp_error e = {0};
    CHECK_I64(dlp_dataset_new(DLP_LAYOUT_TRAPPM, 1, tn, &ds, &e), DLP_OK);
    int g0, g1;
    dlp_dataset_add_graph(ds, nb(A1), &g0, &e);
    dlp_dataset_add_graph(ds, nb(A3), &g1, &e);
    float t1 = 1.5f;
    dlp_dataset_add_sample(ds, g1, &t1, "nb201", "titanxp_1", "cell3", &e);
    dlp_dataset_add_sample(ds, g0, &t1, "other", "titanxp_1", "cell1", &e);
    dlp_dataset_add_sample(ds, g0, &t1, "nb201", "titanxp_32", "cell1b", &e);
    CHECK_I64(dlp_dataset_save(ds, tp("d.dlpd"), &e), DLP_OK);
    dlp_dataset_free(ds);
    const char *src[2] = {tp("d.dlpd"), tp("src/c.dlpg")};
    dlp_corpus *c = NULL;
    CHECK_I64(dlp_corpus_pack(src, 2, tp("ds.dlpc"), NULL, &c, &e), DLP_OK);
    if (!c) return;
    CHECK_I64(dlp_corpus_count(c), 3);
    CHECK_STR(dlp_corpus_name(c, 0), "cell1");
    CHECK_STR(dlp_corpus_family(c, 0), "other");
    CHECK_STR(dlp_corpus_name(c, 1), "cell3");
    CHECK_STR(dlp_corpus_family(c, 1), "nb201");
    CHECK_STR(dlp_corpus_name(c, 2), "c");
    dlp_features *g = NULL;
    CHECK_I64(dlp_corpus_read(c, 1, &g, &e), DLP_OK);
    CHECK(same(g, fc));
    dlp_features_free(g);
    dlp_corpus_close(c);
}

static void t_refusals(void) {
    dlp_corpus *c = NULL;
    dlp_error e = {0};
    const char *s1[1] = {tp("nope")};
    CHECK_I64(dlp_corpus_pack(s1, 1, tp("r.dlpc"), NULL, &c, &e), DLP_EIO);
    CHECK(strstr(e.msg, "nope") != NULL);
    const char *s2[1] = {tp("src/notes.txt")};
    CHECK_I64(dlp_corpus_pack(s2, 1, tp("r.dlpc"), NULL, &c, &e), DLP_EINVAL);
    CHECK(strstr(e.msg, "notes.txt") != NULL);
    /* nothing readable: an error, and neither pack nor temp file is left */
    const char *s3[1] = {tp("src/bad.dlpg")};
    n_warn = 0;
    dlp_corpus_opts o = {.warn = on_warn};
    CHECK_I64(dlp_corpus_pack(s3, 1, tp("r.dlpc"), &o, &c, &e), DLP_EINVAL);
    CHECK(c == NULL);
    CHECK_I64(n_warn, 1);
    CHECK(access(tp("r.dlpc"), F_OK) != 0);
    char tmpname[600];
    snprintf(tmpname, sizeof tmpname, "%s.tmp.%ld", tp("r.dlpc"), (long)getpid());
    CHECK(access(tmpname, F_OK) != 0);
    /* a dippm graph in a trappm corpus is skipped with a reason */
    dlp_graph *gr = NULL;
    dlp_features *fdp = NULL;
    dlp_graph_from_nb201(A1, 1, &gr, &e);
    dlp_features_build(gr, DLP_LAYOUT_DIPPM, &fdp, &e);
    dlp_graph_free(gr);
    dlp_features_save(fdp, tp("dippm.dlpg"), &e);
    dlp_features_free(fdp);
    const char *s4[2] = {tp("dippm.dlpg"), tp("src/a.dlpg")};
    n_warn = 0;
    CHECK_I64(dlp_corpus_pack(s4, 2, tp("r.dlpc"), &o, &c, &e), DLP_OK);
    CHECK_I64(dlp_corpus_count(c), 1);
    CHECK_I64(dlp_corpus_skipped(c), 1);
    CHECK(strstr(last_warn, "dippm.dlpg") && strstr(last_warn, "dippm layout"));
    dlp_corpus_close(c);
}

static int valid_arch(const char *s) {
    static const char *ops[5] = {"none", "skip_connect", "nor_conv_1x1", "nor_conv_3x3", "avg_pool_3x3"};
    char want[200];
    /* rebuild the string from its six ops found in order; equal iff valid */
    const char *p = s;
    const char *found[6];
    for (int e = 0; e < 6; e++) {
        p = strchr(p, '|');
        if (!p) return 0;
        if (p[1] == '+') p = strchr(p + 1, '|');
        if (!p) return 0;
        p++;
        found[e] = NULL;
        for (int k = 0; k < 5; k++)
            if (!strncmp(p, ops[k], strlen(ops[k])) && p[strlen(ops[k])] == '~') found[e] = ops[k];
        if (!found[e]) return 0;
    }
    snprintf(want, sizeof want, "|%s~0|+|%s~0|%s~1|+|%s~0|%s~1|%s~2|", found[0], found[1], found[2], found[3],
             found[4], found[5]);
    return !strcmp(want, s);
}

static void t_nb201(void) {
    const char *src[1] = {"help-nb201"};
    dlp_corpus_opts o = {.max_graphs = 20};
    dlp_corpus *c = NULL;
    dlp_error e = {0};
    CHECK_I64(dlp_corpus_pack(src, 1, tp("nb.dlpc"), &o, &c, &e), DLP_OK);
    if (!c) {
        fprintf(stderr, "  %s\n", e.msg);
        return;
    }
    CHECK_I64(dlp_corpus_count(c), 20);
    CHECK_I64(dlp_corpus_skipped(c), 0);
    int distinct_first_edge = 0;
    char seen[5] = {0};
    for (int i = 0; i < 20; i++) {
        const char *nm = dlp_corpus_name(c, i);
        CHECK(valid_arch(nm));
        CHECK_STR(dlp_corpus_family(c, i), "nb201");
        dlp_graph *g = NULL;
        CHECK_I64(dlp_graph_from_nb201(nm, 1, &g, &e), DLP_OK);
        dlp_graph_free(g);
        for (int j = 0; j < i; j++) CHECK(strcmp(nm, dlp_corpus_name(c, j)) != 0);
        static const char *first[5] = {"|none~", "|skip_connect~", "|nor_conv_1x1~", "|nor_conv_3x3~",
                                       "|avg_pool_3x3~"};
        int k = 0;
        for (int q = 0; q < 5; q++)
            if (!strncmp(nm, first[q], strlen(first[q]))) k = q;
        if (!seen[k]) distinct_first_edge++;
        seen[k] = 1;
    }
    /* a prefix spreads over the space: the first edge takes several ops */
    CHECK(distinct_first_edge >= 3);
    /* graph 0 is the executed build of its arch string at batch 1 */
    dlp_features *g = NULL, *w = nb(dlp_corpus_name(c, 0));
    CHECK_I64(dlp_corpus_read(c, 0, &g, &e), DLP_OK);
    CHECK(same(g, w));
    dlp_features_free(g);
    dlp_features_free(w);
    dlp_corpus_close(c);
}

static void rm_rf(const char *dir) {
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd)) fprintf(stderr, "  could not remove %s\n", dir);
}

int main(void) {
    snprintf(tmpdir, sizeof tmpdir, "/tmp/dlp_test_corpus.XXXXXX");
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    setup();
    RUN(t_open_dir);
    RUN(t_reuse);
    RUN(t_damage);
    RUN(t_dataset_source);
    RUN(t_refusals);
    RUN(t_nb201);
    dlp_features_free(fa);
    dlp_features_free(fb);
    dlp_features_free(fc);
    dlp_features_free(fd);
    dlp_features_free(fr);
    rm_rf(tmpdir);
    return TAP_DONE();
}
