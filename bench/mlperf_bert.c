/*
 * mlperf_bert.c — predicted BERT-large offline throughput for the MLPerf
 * Inference check in bench/bench_roofline.sh.
 *
 *   mlperf_bert BATCH SEQ DTYPE DEVICE...      DTYPE: int8 | fp16
 *
 * `dlperf predict` takes ONNX files only and `dlperf llm` has no runtime
 * presets, so this builds bert-large-uncased (24 layers, hidden 1024, 16
 * heads) with the transformer builder (dlp_llm_build, fp16 activations) and
 * predicts it with dlp_predict twice per device:
 *   tensorrt   what `predict --runtime tensorrt` sets: epilogue fusion, pure
 *              roofline, no launch overhead
 *   eager      the default: calibrated efficiency curves, 5 us per kernel
 * DTYPE int8 scales the float tensors to 1 byte and uses the INT8 tensor
 * peak, as `predict --dtype int8` does.  The builder's pooler (one dense +
 * tanh on token 0) stands in for MLPerf's SQuAD QA head (a 1024 -> 2 dense
 * on every token): both are < 0.01% of the encoder's FLOPs.
 * Prints one line per device: id, tensorrt samples/s, eager samples/s.
 * bench/e2e_vision.c includes this file for sps() (MLPERF_BERT_NO_MAIN).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dlperf.h"

static double sps(const dlp_graph *g, const dlp_device *d, const dlp_devdb *db, int dtype, int64_t batch,
                  int trt) {
    dlp_predict_opts o = {0};
    o.dtype = dtype;
    o.batch = batch;
    o.no_learned = 1;          /* the shipped models are fp32-only anyway */
    if (trt) dlp_predict_use_runtime(&o, DLP_RUNTIME_TENSORRT);   /* what predict --runtime tensorrt sets */
    dlp_prediction p;
    dlp_error e = {0};
    if (dlp_predict(g, d, db, &o, &p, &e)) {
        fprintf(stderr, "mlperf_bert: %s: %s\n", d->id, e.msg);
        return -1;
    }
    double v = p.throughput_sps;
    dlp_prediction_clear(&p);
    return v;
}

#ifndef MLPERF_BERT_NO_MAIN
int main(int argc, char **argv) {
    if (argc < 5) {
        fprintf(stderr, "usage: mlperf_bert BATCH SEQ int8|fp16 DEVICE...\n");
        return 2;
    }
    int64_t batch = atoll(argv[1]), seq = atoll(argv[2]);
    int dtype = !strcmp(argv[3], "int8") ? DLP_DT_INT8 : !strcmp(argv[3], "fp16") ? DLP_DT_FLOAT16 : 0;
    if (batch < 1 || seq < 1 || !dtype) {
        fprintf(stderr, "mlperf_bert: bad batch, seq or dtype\n");
        return 2;
    }
    dlp_error e = {0};
    dlp_llm_config c;
    dlp_devdb *db = NULL;
    dlp_graph *g = NULL;
    if (dlp_llm_catalogue_get("bert-large-uncased", &c, &e) || dlp_devdb_load(NULL, &db, &e) ||
        dlp_llm_build(&c, batch, seq, DLP_QT_FP16, &g, NULL, &e)) {
        fprintf(stderr, "mlperf_bert: %s\n", e.msg);
        dlp_devdb_free(db);
        return 1;
    }
    int rc = 0;
    for (int i = 4; i < argc; i++) {
        const dlp_device *d = dlp_devdb_find(db, argv[i]);
        if (!d) {
            fprintf(stderr, "mlperf_bert: unknown device '%s'\n", argv[i]);
            rc = 1;
            continue;
        }
        printf("%s %.6g %.6g\n", argv[i], sps(g, d, db, dtype, batch, 1), sps(g, d, db, dtype, batch, 0));
    }
    dlp_graph_free(g);
    dlp_devdb_free(db);
    return rc;
}
#endif
