/*
 * test_physics.c — `dlp_predict` never answers what cannot be true
 * (issue 23): memory above the device is said (fits = 0), a sequence past
 * the model's learned positions and runtime/mode/device/dtype combinations
 * that do not exist are refused with the reason, and what a runtime really
 * runs is what is timed (a CPU without native fp16 computes it in fp32).
 *
 * Only the public API (dlperf.h), on the shipped weight-free exports of
 * data/models/torchvision and examples/, so it holds without ../shared.
 */
#include <dlperf.h>

#include "tap.h"

static dlp_devdb *DB;

static const dlp_device *dev(const char *id) {
    const dlp_device *d = dlp_devdb_find(DB, id);
    if (!d) fprintf(stderr, "  device %s missing\n", id);
    return d;
}

/* Load a model with batch, seq and (vision exports) a 224 x 224 image. */
static dlp_graph *load(const char *path, int64_t batch, int64_t seq) {
    static const char *const names[] = {"height", "width"};
    static const int64_t vals[] = {224, 224};
    dlp_load_opts lo = {.batch = batch, .seq = seq};
    if (!seq) lo.n_dims = 2, lo.dim_names = names, lo.dim_values = vals;
    dlp_graph *g = NULL;
    dlp_error e = {0};
    if (dlp_graph_load(path, &lo, &g, &e)) fprintf(stderr, "  load %s: %s\n", path, e.msg);
    return g;
}

/* predict; returns the status, the message in *e */
static dlp_status pred(const dlp_graph *g, const char *id, const dlp_predict_opts *o, dlp_prediction *p,
                       dlp_error *e) {
    memset(e, 0, sizeof *e);
    return dlp_predict(g, dev(id), DB, o, p, e);
}

/* VGG16-BN training at batch 4096 on a T4 (16 GiB): the activations alone
 * are 4096 x (224 x 224 x 64 x 4 B x ~2 per conv block ...) >> 16 GiB; the
 * answer says it does not fit.  Batch 1 inference (weights 528 MiB) fits. */
static void t_memory_does_not_fit(void) {
    dlp_graph *g = load("data/models/torchvision/vgg16_bn.onnx", 4096, 0);
    CHECK(g);
    if (!g) return;
    dlp_predict_opts o = {.mode = DLP_PREDICT_TRAIN, .no_learned = 1};
    dlp_prediction p;
    dlp_error e;
    CHECK(!pred(g, "t4", &o, &p, &e));
    CHECK_NEAR(p.device_memory_mb, 16 * 1024.0, 1e-9);    /* T4: 16 GiB, devices.json */
    CHECK(p.memory_mb > p.device_memory_mb);
    CHECK(!p.fits);
    dlp_prediction_clear(&p);
    dlp_graph_free(g);
    g = load("data/models/torchvision/vgg16_bn.onnx", 1, 0);
    dlp_predict_opts oi = {.no_learned = 1};
    CHECK(!pred(g, "t4", &oi, &p, &e));
    CHECK(p.fits && p.memory_mb < p.device_memory_mb);
    dlp_prediction_clear(&p);
    dlp_graph_free(g);
}

/* examples/bert.onnx learns 512 positions (pos.weight is 512 x 768): seq 512
 * runs, a million positions is refused naming the limit. */
static void t_seq_past_positions(void) {
    dlp_graph *g = load("examples/bert.onnx", 1, 512);
    CHECK(g);
    dlp_prediction p;
    dlp_error e;
    dlp_predict_opts o = {.no_learned = 1};
    CHECK(!pred(g, "a100-40gb", &o, &p, &e));
    dlp_prediction_clear(&p);
    dlp_graph_free(g);
    g = load("examples/bert.onnx", 1, 1000000);
    CHECK(g);
    if (!g) return;
    CHECK_I64(pred(g, "a100-40gb", &o, &p, &e), DLP_EINVAL);
    CHECK(strstr(e.msg, "1000000 positions") && strstr(e.msg, "has 512"));
    dlp_graph_free(g);
}

/* Combinations that do not exist: refused, with the reason. */
static void t_refused_combinations(void) {
    dlp_graph *g = load("data/models/torchvision/resnet50.onnx", 1, 0);
    CHECK(g);
    if (!g) return;
    dlp_prediction p;
    dlp_error e;
    dlp_predict_opts o = {0};
    dlp_predict_use_runtime(&o, DLP_RUNTIME_TENSORRT);
    o.mode = DLP_PREDICT_TRAIN;
    CHECK_I64(pred(g, "h100-sxm", &o, &p, &e), DLP_EINVAL);
    CHECK(strstr(e.msg, "does not train"));
    o.mode = DLP_PREDICT_INFER;
    CHECK_I64(pred(g, "mi300x", &o, &p, &e), DLP_EINVAL);     /* TensorRT on AMD */
    CHECK(strstr(e.msg, "NVIDIA GPUs only"));
    CHECK_I64(pred(g, "cpu-amd-epyc-2c", &o, &p, &e), DLP_EINVAL);
    o.dtype = DLP_DT_FLOAT8E4M3FN;                              /* fp8 convs: TensorRT runs them */
    CHECK(!pred(g, "h100-sxm", &o, &p, &e));
    dlp_prediction_clear(&p);
    dlp_predict_opts oe = {.dtype = DLP_DT_FLOAT8E4M3FN};       /* ... eager PyTorch has none */
    CHECK_I64(pred(g, "h100-sxm", &oe, &p, &e), DLP_EINVAL);
    CHECK(strstr(e.msg, "no fp8 convolution"));
    oe.runtime = DLP_RUNTIME_COMPILE;
    CHECK_I64(pred(g, "h100-sxm", &oe, &p, &e), DLP_EINVAL);
    oe.dtype = DLP_DT_INT8, oe.runtime = DLP_RUNTIME_ORT;       /* int8 convs: onnxruntime has them */
    CHECK(!pred(g, "h100-sxm", &oe, &p, &e));
    dlp_prediction_clear(&p);
    dlp_predict_opts of = {.mode = DLP_PREDICT_TRAIN, .fuse = 1};
    CHECK_I64(pred(g, "h100-sxm", &of, &p, &e), DLP_EINVAL);
    CHECK(strstr(e.msg, "--fuse is inference-only"));
    dlp_graph_free(g);
}

/* Zen 4 has no AVX-512 FP16: fp16 is computed in fp32, so it is never
 * faster than fp32 (before: 2.6x faster from the halved bytes), and the
 * method says so; memory keeps the half-size tensors. */
static void t_cpu_half_not_faster(void) {
    dlp_graph *g = load("data/models/torchvision/resnet18.onnx", 8, 0);
    CHECK(g);
    if (!g) return;
    dlp_prediction p32, p16;
    dlp_error e;
    for (int learned = 0; learned < 2; learned++)
        for (int mode = 0; mode < 2; mode++) {
            dlp_predict_opts o = {.mode = mode, .no_learned = !learned, .dtype = DLP_DT_FLOAT};
            CHECK(!pred(g, "cpu-amd-epyc-2c", &o, &p32, &e));
            o.dtype = DLP_DT_FLOAT16;
            CHECK(!pred(g, "cpu-amd-epyc-2c", &o, &p16, &e));
            double t32 = mode ? p32.step_ms : p32.latency_ms, t16 = mode ? p16.step_ms : p16.latency_ms;
            CHECK(t16 >= t32 * (1 - 1e-12));
            CHECK(strstr(p16.method, "computed in fp32"));
            if (!learned) CHECK(p16.weights_mb < p32.weights_mb || mode);   /* training: fp32 masters */
            dlp_prediction_clear(&p32);
            dlp_prediction_clear(&p16);
        }
    dlp_graph_free(g);
}

/* g in fp16 on gpu, eager (*pe) and compiled (*pc). */
static void eager_and_compiled(dlp_graph *g, const char *gpu, dlp_prediction *pe, dlp_prediction *pc) {
    dlp_error e;
    dlp_predict_opts o = {.dtype = DLP_DT_FLOAT16};
    CHECK(!pred(g, gpu, &o, pe, &e));
    dlp_predict_use_runtime(&o, DLP_RUNTIME_COMPILE);
    CHECK(!pred(g, gpu, &o, pc, &e));
}

/* torch.compile never slower than eager on a conv net: the conv+ReLU
 * epilogue group is a conv kernel, so inductor cannot fold the MaxPool after
 * it into a Triton reduction (before: VGG16 fp16 batch 64 on an H100 17.8 ms
 * compiled vs 7.2 ms eager, B200 14.7 vs 3.3). */
static void t_compile_not_slower(void) {
    static const char *const models[] = {"data/models/torchvision/vgg11.onnx", "data/models/torchvision/vgg19.onnx"};
    static const char *const gpus[] = {"h100-sxm", "b200", "rtx4090"};
    for (int m = 0; m < 2; m++) {
        dlp_graph *g = load(models[m], 64, 0);
        CHECK(g);
        if (!g) continue;
        for (int k = 0; k < 3; k++) {
            dlp_prediction pe, pc;
            eager_and_compiled(g, gpus[k], &pe, &pc);
            CHECK(pc.latency_ms <= pe.latency_ms);
            /* no conv in a generated (Triton) kernel */
            for (int r = 0; r < pc.n_kernel_rows; r++)
                if (!strcmp(pc.kernel_rows[r].name, "triton_fused")) CHECK(pc.kernel_rows[r].kclass != DLP_KC_CONV);
            dlp_prediction_clear(&pe);
            dlp_prediction_clear(&pc);
        }
        dlp_graph_free(g);
    }
}

/* Issue 23's own cases, as the issue states them.  VGG16 fp16 batch 64:
 * compiled was 17.8 ms vs 7.2 ms eager on an H100 and 14.7 vs 3.3 on a
 * B200; compiled must not be slower.  ../shared's plain VGG16 where the
 * shared data is there, and the shipped VGG16-BN always (inference folds its
 * BatchNorms, so the compiled graph is VGG16's; eager runs them).  ResNet-50
 * fp16 under TensorRT at batch 1 on an H100 SXM and a B200: was 0.032 ms, 56
 * kernels of 0.6 us, outside its own band; now each of the 56 costs at least
 * the 5 us device minimum (>= 0.28 ms, "hundreds of us" as MLPerf
 * SingleStream measures) and the band holds the point. */
static void t_issue23_cases(void) {
    static const char *const vgg[] = {"../shared/models/torchvision/vgg16.onnx",
                                      "data/models/torchvision/vgg16_bn.onnx"};
    static const char *const gpus[] = {"h100-sxm", "b200"};
    int n = 0;
    for (int m = 0; m < 2; m++) {
        FILE *f = fopen(vgg[m], "rb");
        if (!f) {
            fprintf(stderr, "  %s absent: skipped\n", vgg[m]);
            continue;
        }
        fclose(f);
        dlp_graph *g = load(vgg[m], 64, 0);
        CHECK(g);
        if (!g) continue;
        for (int k = 0; k < 2; k++) {
            dlp_prediction pe, pc;
            eager_and_compiled(g, gpus[k], &pe, &pc);
            fprintf(stderr, "  %s %s fp16 batch 64: eager %.3f ms, compile %.3f ms\n", vgg[m], gpus[k],
                    pe.latency_ms, pc.latency_ms);
            CHECK(pc.latency_ms <= pe.latency_ms);
            n++;
            dlp_prediction_clear(&pe);
            dlp_prediction_clear(&pc);
        }
        dlp_graph_free(g);
    }
    CHECK(n >= 2);   /* the shipped VGG16-BN always ran */
    /* the issue's `predict vgg16.onnx --device t4 --batch 4096 --mode train`
     * (608,828 MiB on a 16 GiB card, said nothing): does not fit */
    FILE *f16 = fopen(vgg[0], "rb");
    if (f16) {
        fclose(f16);
        dlp_graph *gt = load(vgg[0], 4096, 0);
        CHECK(gt);
        dlp_prediction p;
        dlp_error e;
        dlp_predict_opts o = {.mode = DLP_PREDICT_TRAIN, .no_learned = 1};
        if (gt && !pred(gt, "t4", &o, &p, &e)) {
            CHECK(!p.fits && p.memory_mb > p.device_memory_mb);
            dlp_prediction_clear(&p);
        } else {
            CHECK(0);
        }
        dlp_graph_free(gt);
    }
    dlp_graph *g = load("data/models/torchvision/resnet50.onnx", 1, 0);
    CHECK(g);
    if (!g) return;
    for (int k = 0; k < 2; k++) {
        dlp_prediction p;
        dlp_error e;
        dlp_predict_opts o = {.dtype = DLP_DT_FLOAT16};
        dlp_predict_use_runtime(&o, DLP_RUNTIME_TENSORRT);
        CHECK(!pred(g, gpus[k], &o, &p, &e));
        CHECK(p.kernels >= 50);
        CHECK(p.latency_ms >= 0.2);
        CHECK(p.latency_ms >= p.kernels * 5e-3 * (1 - 1e-12));
        CHECK(p.band_lo_ms <= p.latency_ms && p.latency_ms <= p.band_hi_ms);
        dlp_prediction_clear(&p);
    }
    dlp_graph_free(g);
}

/* TensorRT at batch 1: ResNet-50 is 56 kernels; each costs at least the
 * 5 us device minimum, so >= 0.28 ms (before: 0.032 ms, 0.6 us a kernel).
 * MLPerf Inference SingleStream, ResNet-50 int8 TensorRT, mean latency
 * including host I/O (inference_results_v3.0/v4.1): H100-PCIe 0.42-0.48 ms,
 * A100-SXM 0.46-0.51, L4 0.33-0.39, L40S 0.32 -- inside the band, which
 * always holds the point. */
static void t_tensorrt_floor_and_band(void) {
    dlp_graph *g = load("data/models/torchvision/resnet50.onnx", 1, 0);
    CHECK(g);
    if (!g) return;
    static const struct { const char *dev; double measured_ms; } mlperf[] = {
        {"h100-pcie", 0.4207}, {"a100-80gb", 0.4572}, {"l4", 0.3291}, {"l40s", 0.3324}};
    for (int k = 0; k < 4; k++) {
        dlp_prediction p;
        dlp_error e;
        dlp_predict_opts o = {0};
        dlp_predict_use_runtime(&o, DLP_RUNTIME_TENSORRT);
        o.dtype = DLP_DT_INT8;
        CHECK(!pred(g, mlperf[k].dev, &o, &p, &e));
        CHECK(p.latency_ms >= p.kernels * 5e-3 * (1 - 1e-12));
        CHECK(p.band_lo_ms <= p.latency_ms && p.latency_ms <= p.band_hi_ms);
        CHECK(p.band_lo_ms <= mlperf[k].measured_ms && mlperf[k].measured_ms <= p.band_hi_ms);
        dlp_prediction_clear(&p);
    }
    dlp_graph_free(g);
}

/* The host issues one kernel every host_us (eager PyTorch's dispatch); a
 * kernel starts at the later of the previous kernel's end and its issue
 * time.  Hand-worked: when host_us exceeds every kernel's time plus its
 * launch gap, kernel i starts at i x host_us, so the pass ends at
 * n x host_us + the last kernel (< 1 ms for ResNet-50 at batch 1) — our
 * H100 measurement (data/measured/h100) shows such host-bound steps.  A
 * host never makes a pass faster, a tiny host cost changes it by at most
 * n x host_us, and TensorRT (an engine replay) has no host to wait for. */
static void t_host_bound(void) {
    dlp_graph *g = load("data/models/torchvision/resnet50.onnx", 1, 0);
    CHECK(g);
    if (!g) return;
    dlp_prediction p0, ph, ps, pt0, pth;
    dlp_error e;
    dlp_predict_opts o = {0};
    o.no_learned = 1;
    o.dtype = DLP_DT_FLOAT16;
    CHECK(!pred(g, "h100-sxm", &o, &p0, &e));
    o.host_us = 1000;
    CHECK(!pred(g, "h100-sxm", &o, &ph, &e));
    CHECK(ph.kernels == p0.kernels && p0.kernels > 50);
    CHECK(ph.latency_ms >= ph.kernels * 1.0 && ph.latency_ms <= ph.kernels * 1.0 + 1.0);
    CHECK(ph.energy_j > p0.energy_j);
    o.host_us = 0.1;
    CHECK(!pred(g, "h100-sxm", &o, &ps, &e));
    CHECK(ps.latency_ms >= p0.latency_ms && ps.latency_ms <= p0.latency_ms + ps.kernels * 1e-4 + 1e-9);
    dlp_predict_opts t = {0};
    t.no_learned = 1;
    t.dtype = DLP_DT_FLOAT16;
    dlp_predict_use_runtime(&t, DLP_RUNTIME_TENSORRT);
    CHECK(!pred(g, "h100-sxm", &t, &pt0, &e));
    t.host_us = 1000;
    CHECK(!pred(g, "h100-sxm", &t, &pth, &e));
    CHECK(pth.latency_ms == pt0.latency_ms);
    t.host_us = -1;
    dlp_prediction bad;
    CHECK(pred(g, "h100-sxm", &t, &bad, &e) == DLP_EINVAL);
    dlp_prediction_clear(&p0), dlp_prediction_clear(&ph), dlp_prediction_clear(&ps);
    dlp_prediction_clear(&pt0), dlp_prediction_clear(&pth);
    dlp_graph_free(g);
}

/* Clocks under a power cap (docs/predict.md): lowering nvidia-smi's limit
 * on an A40 (300 W, idle 30 W) from 300 to 100 W never makes a ResNet-18
 * training step faster, the average power stays under each limit, and the
 * clock never goes below the floor of 0.1 of boost (DLP__DVFS_MIN_CLOCK)
 * even where the GDDR6's own draw leaves the SMs little of the limit. */
static void t_power_limit_monotone(void) {
    dlp_graph *g = load("examples/resnet18.onnx", 32, 0);
    if (!g) return;
    dlp_predict_opts o = {.mode = DLP_PREDICT_TRAIN, .no_learned = 1};
    double last = 0;
    for (int w = 300; w >= 100; w -= 50) {
        dlp_prediction p;
        dlp_error e;
        o.power_limit_w = w < 300 ? w : 0;
        if (pred(g, "a40", &o, &p, &e)) {
            CHECK(0);
            fprintf(stderr, "  a40 %d W: %s\n", w, e.msg);
            break;
        }
        CHECK(p.step_ms >= last * (1 - 1e-12));
        CHECK(p.power_w <= w + 1e-9);
        CHECK(p.clock_share >= 0.1 - 1e-12 && p.clock_share <= 1);
        last = p.step_ms;
        dlp_prediction_clear(&p);
    }
    dlp_graph_free(g);
}

int main(void) {
    dlp_error e = {0};
    if (dlp_devdb_load(NULL, &DB, &e)) {
        fprintf(stderr, "devdb: %s\n", e.msg);
        return 1;
    }
    RUN(t_memory_does_not_fit);
    RUN(t_seq_past_positions);
    RUN(t_refused_combinations);
    RUN(t_cpu_half_not_faster);
    RUN(t_compile_not_slower);
    RUN(t_tensorrt_floor_and_band);
    RUN(t_issue23_cases);
    RUN(t_host_bound);
    RUN(t_power_limit_monotone);
    dlp_devdb_free(DB);
    return TAP_DONE();
}
