/*
 * test_lmtext.c — the language model's text (src/lm/lmtext.c) and its
 * pre-training loop (src/lm/lm_pretrain.c): number words, device text
 * (hand-checked against data/devices.json for a GPU and a CPU, and a
 * device described by hand), the §7.7.3 graph summary of ResNet-18
 * (depth and width counted by hand), a deterministic corpus, and
 * pre-training that resumes on the same trajectory.
 */
#include "tap.h"

#include <sys/stat.h>
#include <unistd.h>

#include "lm/lm.h"
#include "lm/lmtext.h"

static void t_words(void) {
    char b[48];
    CHECK_STR(dlp__lm_words(0, b, sizeof b), "0");
    CHECK_STR(dlp__lm_words(999, b, sizeof b), "999");
    CHECK_STR(dlp__lm_words(1000, b, sizeof b), "1 thousand");
    CHECK_STR(dlp__lm_words(1234567, b, sizeof b), "1.23 million");
    CHECK_STR(dlp__lm_words(12.1e9, b, sizeof b), "12.1 billion");
    CHECK_STR(dlp__lm_words(3.3e12, b, sizeof b), "3.3 trillion");
}

static const dlp_device *dev(dlp_devdb **db, const char *name) {
    if (!*db && dlp_devdb_load(NULL, db, NULL) != DLP_OK) return NULL;
    return dlp_devdb_find(*db, name);
}

/* RTX 3090 in data/devices.json: 82 SMs x 128 lanes, 1695 MHz, FP32 35600 GFLOP/s, FP64 556, FP16 35600,
 * tensor FP16/BF16 71, TF32 35.6, INT8 284 TOP/s, 24 GiB GDDR6X at 936 GB/s, L2 6 MiB, 350 W. */
static void t_device_text_gpu(void) {
    dlp_devdb *db = NULL;
    const dlp_device *d = dev(&db, "RTX 3090");
    CHECK(d != NULL);
    if (!d) return;
    dlp__sb b = {0};
    dlp__lm_device_text(d, NULL, "fp16", "PyTorch 2.4", 32, &b);
    CHECK_STR(b.s, "Device: NVIDIA GeForce RTX 3090, a GPU (ampere architecture, GA102). 82 SMs with 128 FP32 lanes "
                   "each at 1695 MHz. Peak FP32 35.6 TFLOP/s, FP64 556 GFLOP/s, FP16 35.6 TFLOP/s, FP16 tensor 71 "
                   "TFLOP/s, BF16 tensor 71 TFLOP/s, TF32 tensor 35.6 TFLOP/s, INT8 tensor 284 TOP/s. Memory 24 GiB "
                   "GDDR6X at 936 GB/s. L2 cache 6 MiB. Power limit 350 W. Setting: precision fp16, runtime PyTorch "
                   "2.4, batch 32.\n");
    dlp__sb_free(&b);
    /* no setting: the sentence is left out */
    dlp__lm_device_text(d, NULL, NULL, NULL, 0, &b);
    CHECK(b.s && !strstr(b.s, "Setting"));
    dlp__sb_free(&b);
    dlp_devdb_free(db);
}

/* The CPU the project measured (cpu-amd-epyc-2c): 2 cores x 16 lanes at 2596 MHz, 166.1 / 83.1 GFLOP/s,
 * 23.5 GiB at 28.2 GB/s, 32 MiB last-level cache, no power, no tensor rates. */
static void t_device_text_cpu(void) {
    dlp_devdb *db = NULL;
    const dlp_device *d = dev(&db, "epyc-2c");
    CHECK(d != NULL);
    if (!d) return;
    dlp__sb b = {0};
    dlp__lm_device_text(d, NULL, "fp32", NULL, 1, &b);
    CHECK_STR(b.s, "Device: AMD EPYC (Zen 4, 2-vCPU KVM guest), a CPU (zen4 architecture, EPYC 9004 'Genoa' "
                   "(family 25, model 17)). 2 cores with 16 FP32 lanes each at 2596 MHz. Peak FP32 166.1 GFLOP/s, "
                   "FP64 83.1 GFLOP/s. Memory 23.5 GiB DDR5 (host RAM of the VM) at 28.2 GB/s. Last-level cache 32 "
                   "MiB. Setting: precision fp32, batch 1.\n");
    dlp__sb_free(&b);
    dlp_devdb_free(db);
}

/* A device outside the database, described from a few fields. */
static void t_device_text_described(void) {
    dlp_device d;
    memset(&d, 0, sizeof d);
    d.name = "Raspberry Pi 4";
    d.chip = "Broadcom BCM2711, 4x Cortex-A72";
    d.kind = DLP_DEVICE_CPU;
    d.sm_count = 4;
    d.boost_clock_mhz = 1500;
    d.memory_gib = 4;
    dlp__sb b = {0};
    dlp__lm_device_text(&d, "single-board computer", "fp32", NULL, 0, &b);
    CHECK_STR(b.s, "Device: Raspberry Pi 4, a single-board computer (Broadcom BCM2711, 4x Cortex-A72). 4 cores at "
                   "1500 MHz. Memory 4 GiB. Setting: precision fp32.\n");
    dlp__sb_free(&b);
}

/* ResNet-18 (examples/resnet18.onnx, BatchNorm folded): the longest path counts the stem conv, relu and
 * max pool (3), 8 blocks of conv-relu-conv-add-relu (40), global pooling and the Gemm (2) = 45 operators;
 * a downsampling block runs its 1x1 conv beside the first 3x3: width 2.  The totals are inspect's. */
static void t_graph_summary(void) {
    dlp_load_opts o;
    memset(&o, 0, sizeof o);
    o.batch = 1;
    dlp_graph *g = NULL;
    CHECK(dlp_graph_load("examples/resnet18.onnx", &o, &g, NULL) == DLP_OK);
    if (!g) return;
    dlp__sb b = {0};
    dlp__lm_graph_summary(g, "resnet18", &b);
    static const char head[] = "Q: Summarise the graph of resnet18\n"
                          "A: The graph contains 65 nodes and 72 edges. The batch size is 1. The graph has 3.64 "
                          "billion FLOPs, 11.7 million parameters, and 1.81 billion MACs. Its depth is 45 operators "
                          "and its width is 2 operators. Weights take 44.56 MiB and the peak memory is 50.70 MiB.\n"
                          "Layer sequence: convolution, relu, max pooling, convolution, relu, convolution, addition, "
                          "relu,";
    CHECK(b.s && !strncmp(b.s, head, sizeof head - 1));
    CHECK(b.s && strstr(b.s, "\nLayer Stats Summary:\nLayer: convolution, Implemented: 20 times, FLOPs: 3.63 "
                             "billion, MACs: 1.81 billion, Parameters: 11.2 million\nLayer: relu, Implemented: 17 "
                             "times,"));
    CHECK(b.s && strstr(b.s, ", and 24 more.\n"));
    dlp__sb_free(&b);
    dlp_graph_free(g);
}

static char *slurp(const char *dir, const char *name) {
    char p[512];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return tap_slurp(p, NULL);
}

static void t_corpus_deterministic(void) {
    char d1[] = "/tmp/dlp_lmtext_XXXXXX", d2[] = "/tmp/dlp_lmtext_XXXXXX";
    CHECK(mkdtemp(d1) && mkdtemp(d2));
    const char *g[] = {"examples/resnet18.onnx"};
    dlp__lm_corpus_opts o;
    memset(&o, 0, sizeof o);
    o.graphs = g;
    o.n_graphs = 1;
    dlp__lm_corpus_report r1, r2;
    CHECK(dlp__lm_corpus_build(d1, &o, &r1, NULL) == DLP_OK);
    CHECK(dlp__lm_corpus_build(d2, &o, &r2, NULL) == DLP_OK);
    CHECK_I64(r1.docs[0], 1);
    CHECK(r1.docs[1] > 50);      /* every database device, plain and in settings */
    CHECK_I64(r1.docs[2], 0);    /* no shared folder: no measured statements */
    for (int i = 0; i < 3; i++) {
        char *a = slurp(d1, dlp__lm_corpus_files[i]), *b = slurp(d2, dlp__lm_corpus_files[i]);
        CHECK(a && b && !strcmp(a, b));
        CHECK_I64(r1.bytes[i], a ? (long long)strlen(a) : -1);
        free(a);
        free(b);
    }
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s %s", d1, d2);
    CHECK(system(cmd) == 0);
}

/* A tiny corpus: 60 short documents, tiny model, 12 steps straight vs 5 + resume. */
static void t_pretrain_resume(void) {
    char d[] = "/tmp/dlp_lmpre_XXXXXX";
    CHECK(mkdtemp(d) != NULL);
    char p[512];
    snprintf(p, sizeof p, "%s/a.txt", d);
    FILE *f = fopen(p, "w");
    CHECK(f != NULL);
    if (!f) return;
    for (int i = 0; i < 60; i++)
        fprintf(f, "The graph contains %d nodes and %d edges. resnet%d at batch %d runs in %d.%d ms.\n\n", 10 + i,
                12 + 2 * i, 18 + i % 4, 1 << (i % 6), 3 + i % 7, i % 10);
    fclose(f);
    char out_a[600], out_b[600], ck_a[600], ck_b[600];
    snprintf(out_a, sizeof out_a, "%s/a.dlpm", d);
    snprintf(out_b, sizeof out_b, "%s/b.dlpm", d);
    snprintf(ck_a, sizeof ck_a, "%s/a.ckpt", d);
    snprintf(ck_b, sizeof ck_b, "%s/b.ckpt", d);
    dlp__lm_pretrain_opts o;
    memset(&o, 0, sizeof o);
    o.corpus = d;
    o.config = "tiny";
    o.steps = 12;
    o.seq = 16;
    o.checkpoint_every = 4;
    o.bpe_bytes = 4000;
    o.out = out_a;
    o.checkpoint = ck_a;
    dlp__lm_pretrain_report ra, rb, rc;
    dlp_error e = {0};
    CHECK(dlp__lm_pretrain(&o, &ra, &e) == DLP_OK);
    CHECK_I64(ra.steps_done, 12);
    CHECK_I64(ra.docs, 60);
    CHECK_I64(ra.heldout_docs, 1);
    CHECK(isfinite(ra.heldout_loss) && ra.heldout_ppl > 1);
    o.out = out_b;
    o.checkpoint = ck_b;
    o.stop_after = 5;
    CHECK(dlp__lm_pretrain(&o, &rb, &e) == DLP_OK);
    CHECK(rb.stopped && rb.steps_done == 5);
    o.stop_after = 0;
    o.resume = 1;
    o.steps = 0;                 /* from the checkpoint */
    CHECK(dlp__lm_pretrain(&o, &rc, &e) == DLP_OK);
    CHECK_I64(rc.steps_done, 12);
    size_t na, nb;
    char *a = tap_slurp(out_a, &na), *b = tap_slurp(out_b, &nb);
    CHECK(a && b && na == nb && !memcmp(a, b, na));   /* the same trajectory, bit for bit */
    free(a);
    free(b);
    a = tap_slurp(ck_a, &na);
    b = tap_slurp(ck_b, &nb);
    CHECK(a && b && na == nb && !memcmp(a, b, na));
    free(a);
    free(b);
    /* the model loads with its tokenizer */
    dlp__lm m;
    dlp__bpe tok;
    CHECK(dlp__lm_load(out_a, NULL, 0, &m, &tok, NULL, &e) == DLP_OK);
    CHECK_I64(m.c.max_seq, 16);
    dlp__lm_free(&m);
    dlp__bpe_free(&tok);
    /* a resume on another corpus is refused, naming the checkpoint */
    FILE *g = fopen(p, "a");
    if (g) {
        fputs("one more document\n", g);
        fclose(g);
    }
    CHECK(dlp__lm_pretrain(&o, &rc, &e) == DLP_EINVAL && strstr(e.msg, ck_b));
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", d);
    CHECK(system(cmd) == 0);
}

int main(void) {
    RUN(t_words);
    RUN(t_device_text_gpu);
    RUN(t_device_text_cpu);
    RUN(t_device_text_described);
    RUN(t_graph_summary);
    RUN(t_corpus_deterministic);
    RUN(t_pretrain_resume);
    return TAP_DONE();
}
