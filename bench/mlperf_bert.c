/*
 * mlperf_bert.c — predicted BERT-large offline throughput for the MLPerf
 * Inference check in bench/bench_e2e.sh (bench/e2e_vision.c).
 *
 *   mlperf_bert BATCH SEQ|squad DTYPE DEVICE...      DTYPE: int8 | fp16
 *
 * `dlperf predict` takes ONNX files only and `dlperf llm` has no runtime
 * presets, so this builds bert-large-uncased (24 layers, hidden 1024, 16
 * heads) with the transformer builder (dlp_llm_build, fp16 activations) and
 * predicts it with dlp_predict twice per device:
 *   tensorrt   what `predict --runtime tensorrt` sets: epilogue fusion,
 *              tensor-core GEMMs and attention on the TensorRT-LLM-fitted
 *              curves, the rest on the pure roofline, no launch overhead
 *              (docs/predict.md, "TensorRT")
 *   eager      the default: calibrated efficiency curves, 5 us per kernel
 * DTYPE int8 scales the float tensors to 1 byte and uses the INT8 tensor
 * peak, as `predict --dtype int8` does.  The builder's pooler (one dense +
 * tanh on token 0) stands in for MLPerf's SQuAD QA head (a 1024 -> 2 dense
 * on every token): both are < 0.01% of the encoder's FLOPs.
 *
 * SEQ "squad" times what MLPerf runs: the SQuAD v1.1 features (max_seq_len
 * 384, doc stride 128) without their padding.  NVIDIA's TensorRT harness
 * "truncate[s] the padded part of the input sequences and concatenate[s]
 * the truncated sequences when forming a batch" (closed/NVIDIA/code/bert/
 * tensorrt/README.md, "Variable Sequence Lengths", mlcommons/
 * inference_results_v4.0): its GEMMs run over the sum of the real tokens
 * and its fused attention over each sequence at its own length, so a batch
 * costs sum(L) tokens of GEMM and sum(L^2) of attention.  squad_shape()
 * turns the histogram below into the graph of the same two sums.
 * Prints one line per device: id, tensorrt samples/s, eager samples/s.
 * bench/e2e_vision.c includes this file for sps() (MLPERF_BERT_NO_MAIN).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dlperf.h"

/* Real tokens per SQuAD v1.1 feature with BERT's uncased WordPiece
 * tokenizer, max_seq_len 384, doc stride 128: squad_hist[i] features have
 * i + 1 tokens ([CLS] question [SEP] context [SEP]; 1,054 contexts fill all
 * 384).  Graphcore's histogram of the packing paper (Krell et al.,
 * "Efficient Sequence Packing without Cross-contamination", arXiv
 * 2107.02027), graphcore/examples tutorials/blogs_code/packedBERT/
 * histograms.py, squad_1_1_histogram: 88,641 features, the training split.
 * MLPerf runs the dev split (10,833 features of 10,570 questions), whose
 * histogram is not published; both splits are Wikipedia paragraphs with
 * crowd questions cut by the same preprocessing, so the training split's
 * distribution stands in for it (mean 172.0 tokens, E[L^2] 33,682; the
 * Graphcore/ByteMLPerf IPU backend also times SQuAD at "~172" average).  */
static const int squad_hist[384] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 3, 2, 0, 9, 10, 16, 22, 24, 36, 35, 46, 42, 48,
    57, 86, 83, 86, 87, 86, 97, 90, 99, 85, 94, 105, 114, 110, 93, 116,
    118, 114, 116, 117, 127, 115, 155, 137, 145, 157, 151, 153, 149, 163, 157, 134,
    150, 144, 132, 166, 162, 177, 160, 149, 151, 138, 156, 148, 176, 163, 182, 188,
    182, 177, 199, 182, 203, 201, 264, 250, 244, 289, 346, 327, 298, 377, 386, 444,
    431, 503, 553, 532, 570, 611, 677, 648, 673, 712, 722, 745, 692, 697, 747, 754,
    741, 777, 781, 825, 813, 836, 777, 776, 756, 789, 790, 765, 753, 729, 748, 772,
    766, 760, 741, 725, 729, 759, 732, 730, 730, 741, 705, 708, 725, 656, 688, 688,
    677, 662, 628, 635, 618, 586, 527, 562, 619, 562, 578, 538, 558, 582, 541, 575,
    526, 556, 498, 529, 486, 528, 541, 482, 521, 483, 466, 514, 459, 447, 436, 383,
    401, 408, 381, 369, 364, 381, 420, 391, 388, 358, 365, 357, 358, 355, 297, 290,
    267, 308, 329, 304, 332, 289, 282, 304, 242, 263, 288, 238, 257, 271, 288, 277,
    264, 253, 239, 217, 260, 214, 247, 237, 212, 205, 193, 200, 208, 195, 193, 201,
    187, 170, 176, 195, 156, 201, 179, 159, 183, 169, 178, 163, 153, 171, 144, 138,
    181, 165, 171, 161, 159, 166, 142, 138, 151, 155, 134, 141, 132, 123, 119, 109,
    125, 123, 131, 135, 115, 108, 102, 117, 105, 99, 84, 100, 85, 85, 85, 95,
    122, 105, 114, 113, 100, 80, 96, 86, 79, 80, 87, 92, 73, 73, 64, 76,
    72, 77, 67, 60, 71, 77, 79, 72, 55, 67, 42, 59, 65, 72, 49, 43,
    62, 48, 50, 54, 45, 42, 53, 56, 45, 43, 32, 30, 36, 42, 37, 45,
    28, 41, 31, 44, 35, 36, 47, 47, 48, 65, 32, 23, 35, 38, 20, 23,
    22, 21, 27, 20, 26, 18, 18, 22, 17, 17, 14, 26, 15, 20, 22, 19,
    24, 17, 15, 20, 20, 22, 22, 17, 20, 16, 21, 16, 23, 12, 14, 1054,
};

/* The (batch, seq) graph that does the work of `samples` SQuAD features
 * without padding: batch x seq = samples x E[L] tokens through every GEMM
 * and batch x seq^2 = samples x E[L^2] through attention, so seq =
 * E[L^2] / E[L] and batch = samples x E[L] / seq (rounded).  0 when
 * samples < 1. */
static int squad_shape(int64_t samples, int64_t *batch, int64_t *seq) {
    double n = 0, s1 = 0, s2 = 0;
    for (int i = 0; i < 384; i++) {
        double l = i + 1;
        n += squad_hist[i], s1 += squad_hist[i] * l, s2 += squad_hist[i] * l * l;
    }
    if (samples < 1 || n <= 0) return 0;
    double mean = s1 / n, msq = s2 / n;
    *seq = (int64_t)llround(msq / mean);
    *batch = (int64_t)llround((double)samples * mean / (double)*seq);
    return *batch >= 1 && *seq >= 1;
}

/* Samples/s of `samples` samples that the graph g (of batch `batch`)
 * stands for. */
static double sps(const dlp_graph *g, const dlp_device *d, const dlp_devdb *db, int dtype, int64_t batch,
                  double samples, int trt) {
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
    double v = p.throughput_sps > 0 ? p.throughput_sps * samples / (double)batch : -1;
    dlp_prediction_clear(&p);
    return v;
}

#ifndef MLPERF_BERT_NO_MAIN
int main(int argc, char **argv) {
    if (argc < 5) {
        fprintf(stderr, "usage: mlperf_bert BATCH SEQ|squad int8|fp16 DEVICE...\n");
        return 2;
    }
    int64_t samples = atoll(argv[1]), batch = samples, seq = atoll(argv[2]);
    int dtype = !strcmp(argv[3], "int8") ? DLP_DT_INT8 : !strcmp(argv[3], "fp16") ? DLP_DT_FLOAT16 : 0;
    if (!strcmp(argv[2], "squad") && !squad_shape(samples, &batch, &seq)) batch = 0;
    if (batch < 1 || seq < 1 || !dtype) {
        fprintf(stderr, "mlperf_bert: bad batch, seq or dtype\n");
        return 2;
    }
    dlp_error e = {0};
    dlp_llm_config c;
    dlp_devdb *db = NULL;
    dlp_graph *g = NULL, *gt = NULL;
    /* eager runs Hugging Face's graph; a TensorRT engine its engine form
     * (the mask inside the fused attention) */
    if (dlp_llm_catalogue_get("bert-large-uncased", &c, &e) || dlp_devdb_load(NULL, &db, &e) ||
        dlp_llm_build(&c, batch, seq, DLP_QT_FP16, &g, NULL, &e) ||
        (c.engine_form = 1, dlp_llm_build(&c, batch, seq, DLP_QT_FP16, &gt, NULL, &e))) {
        fprintf(stderr, "mlperf_bert: %s\n", e.msg);
        dlp_graph_free(g);
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
        printf("%s %.6g %.6g\n", argv[i], sps(gt, d, db, dtype, batch, (double)samples, 1),
               sps(g, d, db, dtype, batch, (double)samples, 0));
    }
    dlp_graph_free(g);
    dlp_graph_free(gt);
    dlp_devdb_free(db);
    return rc;
}
#endif
