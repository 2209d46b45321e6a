/*
 * test_corpus.c — the acceptance check of the graph layer on the real
 * torchvision corpus (../shared/models/torchvision), against golden values
 * produced independently by tools/golden/make_golden.py with Debian's
 * python3-onnx and torch (tests/golden/torchvision.json):
 *   - at batches 1, 8, 64 every node output has a known shape;
 *   - params == elements of float initializers used (python3-onnx count);
 *   - Conv/ConvTranspose/Gemm/MatMul/Einsum MACs == those of a static-batch
 *     re-export measured with python3-onnx shape inference, exactly;
 *   - every tensor shape python's own inference resolved on the shared file
 *     (batch fixed) equals ours.
 */
#include <cJSON.h>

#include "dlperf.h"
#include "tap.h"

static cJSON *golden;

static int64_t mac_ops(const dlp_graph *g) {
    int64_t s = 0;
    for (int i = 0; i < dlp_graph_node_count(g); i++) {
        dlp_node_info ni;
        ni = *dlp_graph_node_at(g, i);
        if (!strcmp(ni.op_type, "Conv") || !strcmp(ni.op_type, "ConvTranspose") ||
            !strcmp(ni.op_type, "Gemm") || !strcmp(ni.op_type, "MatMul") || !strcmp(ni.op_type, "Einsum"))
            s += ni.macs;
    }
    return s;
}

static void check_model(const cJSON *m, const char *name) {
    char path[512];
    snprintf(path, sizeof path, "%s/models/torchvision/%s.onnx", tap_shared(), name);
    const int batches[3] = {1, 8, 64};
    int64_t want_params = (int64_t)cJSON_GetObjectItem(m, "params")->valuedouble;
    const cJSON *macs = cJSON_GetObjectItem(m, "macs");
    const cJSON *shapes = cJSON_GetObjectItem(m, "shapes");
    for (int bi = 0; bi < 3; bi++) {
        char bk[8];
        snprintf(bk, sizeof bk, "%d", batches[bi]);
        dlp_load_opts o = {0};
        o.batch = batches[bi];
        dlp_graph *g;
        dlp_error e = {0};
        if (dlp_graph_load(path, &o, &g, &e)) {
            fprintf(stderr, "  %s: %s\n", name, e.msg);
            CHECK(0);
            continue;
        }
        dlp_graph_stats st;
        dlp_graph_stats_get(g, &st);
        if (st.shapes_known != st.node_outputs)
            fprintf(stderr, "  %s batch %d: %lld/%lld shapes known\n", name, batches[bi],
                    (long long)st.shapes_known, (long long)st.node_outputs);
        CHECK_I64(st.shapes_known, st.node_outputs);
        CHECK_I64(st.n_unknown_ops, 0);
        CHECK_I64(st.params, want_params);
        const cJSON *mb = cJSON_GetObjectItem(macs, bk);
        if (mb) {
            int64_t want = (int64_t)cJSON_GetObjectItem(mb, "total")->valuedouble;
            int64_t got = mac_ops(g);
            if (got != want) fprintf(stderr, "  %s batch %d: MACs %lld, golden %lld\n", name, batches[bi], (long long)got, (long long)want);
            CHECK_I64(got, want);
        }
        /* shapes python's inference resolved on the shared file */
        const cJSON *sb = shapes ? cJSON_GetObjectItem(shapes, bk) : NULL;
        if (sb) {
            int n_checked = 0, n_bad = 0;
            int nt = dlp_graph_tensor_count(g);
            for (int t = 0; t < nt; t++) {
                dlp_tensor_info ti;
                ti = *dlp_graph_tensor_at(g, t);
                const cJSON *want = cJSON_GetObjectItem(sb, ti.name);
                if (!want || !cJSON_IsArray(want)) continue;
                n_checked++;
                int ok = cJSON_GetArraySize(want) == ti.rank;
                for (int d = 0; ok && d < ti.rank; d++)
                    ok = (int64_t)cJSON_GetArrayItem(want, d)->valuedouble == ti.dims[d];
                if (!ok && n_bad++ < 3) fprintf(stderr, "  %s batch %d: tensor '%s' shape differs from python3-onnx\n", name, batches[bi], ti.name);
            }
            CHECK_I64(n_bad, 0);
            CHECK(n_checked > 0);
        }
        dlp_graph_free(g);
    }
}

#define MODEL_TEST(fn, nm) \
    static void fn(void) {                                                  \
        const cJSON *m = cJSON_GetObjectItem(cJSON_GetObjectItem(golden, "models"), nm); \
        CHECK(m != NULL);                                                   \
        if (m) check_model(m, nm);                                          \
    }
MODEL_TEST(t_alexnet, "alexnet")
MODEL_TEST(t_convnext_tiny, "convnext_tiny")
MODEL_TEST(t_densenet121, "densenet121")
MODEL_TEST(t_efficientnet_b0, "efficientnet_b0")
MODEL_TEST(t_googlenet, "googlenet")
MODEL_TEST(t_mnasnet1_0, "mnasnet1_0")
MODEL_TEST(t_mobilenet_v2, "mobilenet_v2")
MODEL_TEST(t_mobilenet_v3_small, "mobilenet_v3_small")
MODEL_TEST(t_regnet_y_400mf, "regnet_y_400mf")
MODEL_TEST(t_resnet18, "resnet18")
MODEL_TEST(t_resnet50, "resnet50")
MODEL_TEST(t_shufflenet_v2_x1_0, "shufflenet_v2_x1_0")
MODEL_TEST(t_squeezenet1_0, "squeezenet1_0")
MODEL_TEST(t_squeezenet1_1, "squeezenet1_1")
MODEL_TEST(t_swin_t, "swin_t")
MODEL_TEST(t_vgg16, "vgg16")
MODEL_TEST(t_vit_b_16, "vit_b_16")

int main(void) {
    char *txt = tap_slurp("tests/golden/torchvision.json", NULL);
    char probe[512];
    snprintf(probe, sizeof probe, "%s/models/torchvision/resnet18.onnx", tap_shared());
    FILE *pf = fopen(probe, "rb");
    if (!txt || !pf) {
        printf("SKIP corpus: %s\n", !txt ? "tests/golden/torchvision.json missing" : "../shared models missing");
        free(txt);
        if (pf) fclose(pf);
        return txt ? 0 : 1;
    }
    fclose(pf);
    golden = cJSON_Parse(txt);
    free(txt);
    CHECK(golden != NULL);
    if (!golden) return 1;
    RUN(t_alexnet);
    RUN(t_convnext_tiny);
    RUN(t_densenet121);
    RUN(t_efficientnet_b0);
    RUN(t_googlenet);
    RUN(t_mnasnet1_0);
    RUN(t_mobilenet_v2);
    RUN(t_mobilenet_v3_small);
    RUN(t_regnet_y_400mf);
    RUN(t_resnet18);
    RUN(t_resnet50);
    RUN(t_shufflenet_v2_x1_0);
    RUN(t_squeezenet1_0);
    RUN(t_squeezenet1_1);
    RUN(t_swin_t);
    RUN(t_vgg16);
    RUN(t_vit_b_16);
    cJSON_Delete(golden);
    return TAP_DONE();
}
