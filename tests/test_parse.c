/*
 * test_parse.c — the public name parsers share one convention (dlperf.h,
 * predict section): the enum value, or -1 for an unknown name or NULL, case
 * ignored.  Also the one JSON writer's basic shape (src/json/).
 */
#include "dlperf.h"
#include "tap.h"

static void t_parsers_unknown_is_minus_one(void) {
    const char *bad[] = {"", "bogus", "fp33", NULL};
    for (int i = 0; i < 4; i++) {
        CHECK_I64(dlp_dtype_parse(bad[i]), -1);
        CHECK_I64(dlp_predict_mode_parse(bad[i]), -1);
        CHECK_I64(dlp_optimizer_parse(bad[i]), -1);
        CHECK_I64(dlp_layout_parse(bad[i]), -1);
        CHECK_I64(dlp_memfmt_parse(bad[i]), -1);
        CHECK_I64(dlp_runtime_parse(bad[i]), -1);
    }
}

static void t_parsers_known_any_case(void) {
    CHECK_I64(dlp_dtype_parse("BF16"), DLP_DT_BFLOAT16);
    CHECK_I64(dlp_predict_mode_parse("Train"), DLP_PREDICT_TRAIN);
    CHECK_I64(dlp_predict_mode_parse("inference"), DLP_PREDICT_INFER);
    CHECK_I64(dlp_optimizer_parse("AdamW"), DLP_OPTIM_ADAM);
    CHECK_I64(dlp_optimizer_parse("momentum"), DLP_OPTIM_SGD_MOMENTUM);
    CHECK_I64(dlp_optimizer_parse("sgd"), DLP_OPTIM_SGD);
    CHECK_I64(dlp_layout_parse("DIPPM"), DLP_LAYOUT_DIPPM);
    CHECK_I64(dlp_layout_parse("trappm"), DLP_LAYOUT_TRAPPM);
    CHECK_I64(dlp_memfmt_parse("Channels_Last"), DLP_MEMFMT_NHWC);
    CHECK_I64(dlp_runtime_parse("TensorRT"), DLP_RUNTIME_TENSORRT);
}

static void t_version(void) { CHECK_STR(dlp_version(), DLP_VERSION_STRING); }

static void t_mig_json_shape(void) {
    dlp_devdb *db = NULL;
    dlp_error err = {0};
    CHECK(dlp_devdb_load(NULL, &db, &err) == DLP_OK);
    if (!db) return;
    const dlp_device *d = dlp_devdb_find(db, "h100-sxm");
    dlp_mig_choice c;
    CHECK(d && dlp_mig_recommend(d, 7300, 0.1, 0, 0, &c) == DLP_OK);
    char *buf = NULL;
    size_t len = 0;
    CHECK(dlp_mig_json(d, 7300, 0.1, 0, 0, &c, &buf, &len, &err) == DLP_OK);
    CHECK(buf && len == strlen(buf) && buf[0] == '{' && buf[len - 1] == '\n' && buf[len - 2] == '}');
    CHECK(buf && strstr(buf, "\"recommendation\":\"1g.10gb\""));
    CHECK(buf && strstr(buf, "\"latency_ms_full_gpu\":null"));
    dlp_free(buf);
    dlp_devdb_free(db);
}

int main(void) {
    RUN(t_parsers_unknown_is_minus_one);
    RUN(t_parsers_known_any_case);
    RUN(t_version);
    RUN(t_mig_json_shape);
    return TAP_DONE();
}
