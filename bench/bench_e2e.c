/*
 * bench_e2e.c — `dlperf predict` against NeuSight's measured end-to-end
 * latencies of transformers (fp32 PyTorch 2.1, eager, docs/predict.md,
 * "Whole-model checks: transformers vs NeuSight").
 *
 *   bench_e2e ASPLOS_DIR [--kernels DATASET_DIR] [--md FILE]
 *
 * ASPLOS_DIR is ../shared/data/NeuSight/scripts/asplos.  Every label
 * label/<GPU>/<model>-<inf|train>-<seq>-<batch>.json (settings with a suffix,
 * -fusion/-dpN/-tpN/-ppN_M, are other runtimes and are left out) becomes one
 * row: the model's config (data/DLmodel_configs) built by dlp_llm_build as
 * NeuSight's tracer instantiates it, the GPU from the device database, and
 * dlp_predict in inference or training mode, pure roofline and calibrated.
 *
 * What NeuSight measured (neusight/Tracing/trace.py, measure_e2e): the mean
 * of the 5 fastest of 25 runs, CUDA events around
 *   inference  model(input_ids) under no_grad, eval mode: BERT as
 *              AutoModelForSequenceClassification (pooler + classifier, no
 *              MLM head), GPT-2/GPT-3/OPT as AutoModelForCausalLM;
 *   training   model(input_ids) in train mode (fw_latency) + loss.backward()
 *              (bwall_latency); e2e = fw + bw.  No optimizer step is timed;
 *              BERT is AutoModelForPreTraining (MLM + NSP heads).
 * So a training row is compared with the predicted forward + backward
 * (sum of the per-node forward and backward times), not with step_ms.
 * cudnn.allow_tf32 = False and matmul TF32 off: every kernel is fp32.
 *
 * With --kernels, a third predictor refits the efficiency curves without the
 * row's GPU (leave-one-GPU-out at the end-to-end level; GPUs that were never
 * in the kernel fit get the all-GPU curves, which have not seen them either).
 *
 * Where the error comes from: the label CSVs hold NeuSight's per-op times of
 * one layer (plus embeddings and head); they are summed per op class as
 * non-layer + num_layer x layer and set beside the predicted per-class time;
 * "elementwise+other" is split again by what the op is (dropout, embeddings,
 * the scores' scale/mask/clamp, activation parts, adds, copies), which shows
 * the kernels Hugging Face's eager code runs that the built graph lacks.
 */
/* bench_curves.c brings bench_roofline.c (the NeuSight refits) and the
 * aiconfigurator readers and fit (the MLPerf BERT refits, e2e_vision.c) */
#define BENCH_CURVES_NO_MAIN
#include "bench_curves.c"
#include "bench_waves_data.h"

#include <cJSON.h>
#include <dirent.h>

/* ---- rows ------------------------------------------------------------------------ */

enum { P_PURE, P_CAL, P_LOGO, P_N };
static const char *const pname[P_N] = {"pure", "calibrated", "calib. LOGO"};

/* Measured/predicted per-op-class time buckets. */
enum { B_GEMM, B_MATMUL, B_SOFTMAX, B_NORM, B_ELEM, B_N };
static const char *const bname[B_N] = {"linear (gemm)", "bmm (matmul)", "softmax", "layernorm", "elementwise+other"};

/* "elementwise+other" split by what the op is, measured (label CSV op
 * names) and predicted (kernel names), to show which kernels are missing */
enum { S_DROP, S_EMBED, S_SCORE, S_ACT, S_ADD, S_COPY, S_OTHER, S_N };
static const char *const sname[S_N] = {"dropout",        "embeddings", "scale/mask/clamp", "activation parts",
                                       "add",            "copies",     "other"};

#define MAXR 256
typedef struct {
    char gpu[64], model[32], dev_id[32];
    char key[128];             /* dev_id:model:infer|train:seq:batch (--dump) */
    int train, seq, batch;
    const dlp_device *dev;
    double meas, meas_fw;      /* ms */
    double pred[P_N];          /* ms: inference latency, training fw+bw */
    double pred_fw[P_N];
    double cls_meas[B_N];      /* from the label CSV; < 0: no CSV */
    double cls_pred[B_N];      /* calibrated */
    double sub_meas[S_N], sub_pred[S_N];   /* B_ELEM split (S_*)     */
    int have_csv;
    int in_fit;                /* GPU's kernels were in the shipped fit */
} erow;

static erow E[MAXR];
static int nE;
static char skipped[1024];
static int n_skipped;

static char *slurp(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    if (s) s[n] = 0;
    fclose(f);
    return s;
}

static int bucket_of_class(int c) {
    switch (c) {
    case DLP_OPC_GEMM: return B_GEMM;
    case DLP_OPC_MATMUL: return B_MATMUL;
    case DLP_OPC_SOFTMAX: return B_SOFTMAX;
    case DLP_OPC_NORM: return B_NORM;
    default: return B_ELEM;
    }
}

/* ---- label CSV: per-class measured time --------------------------------------------
 * One layer is traced (num_layer is in the JSON); the layer's ops are the rows
 * from the first one named after layer 0 to the last, extended over the
 * functional ops that follow it (a residual add) up to the next module. */
static int is_layer0(const char *name) {
    return strstr(name, "layer_0_") || strstr(name, "h_0_") || strstr(name, "layers_0_");
}

static int bucket_of_op(const char *op, const char *target, const char *name) {
    if (!strcmp(op, "call_module")) {
        if (strstr(target, "LayerNorm") || strstr(target, "layer_norm") || strstr(target, "ln_"))
            return B_NORM;
        if (strstr(target, "drop") || strstr(target, "embed") || strstr(target, "wte") || strstr(target, "wpe") ||
            strstr(target, "activation"))
            return B_ELEM;
        return B_GEMM;         /* nn.Linear (BERT, OPT, heads) */
    }
    if (strstr(target, "addmm") || strstr(target, "linear")) return B_GEMM;   /* GPT-2 Conv1D */
    if (strstr(target, "matmul") || strstr(target, "bmm")) return B_MATMUL;
    if (strstr(target, "softmax")) return B_SOFTMAX;
    if (strstr(target, "layer_norm")) return B_NORM;
    (void)name;
    return B_ELEM;
}

/* The S_* part of an elementwise op: by the label's target (measured) or
 * the kernel's aten name (predicted; backward rows carry their op's name). */
static int sub_of_name(const char *t) {
    if (strstr(t, "drop")) return S_DROP;
    if (strstr(t, "embed") || strstr(t, "wte") || strstr(t, "wpe") || strstr(t, "index_select") ||
        strstr(t, "zero_"))
        return S_EMBED;
    if (strstr(t, "truediv") || strstr(t, "div") || strstr(t, "where") || strstr(t, "max") || strstr(t, "masked"))
        return S_SCORE;
    if (strstr(t, "gelu") || strstr(t, "tanh") || strstr(t, "pow") || strstr(t, "activation") || strstr(t, "relu") ||
        strstr(t, "mul"))
        return S_ACT;
    if (strstr(t, "add") || strstr(t, "sum")) return S_ADD;
    if (strstr(t, "contiguous") || strstr(t, "copy") || strstr(t, "reshape") || strstr(t, "permute") ||
        strstr(t, "view") || strstr(t, "transpose"))
        return S_COPY;
    return S_OTHER;
}

static int read_label_csv(const char *path, int layers, int train, double *cls, double *sub) {
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    size_t cap = 1 << 20;
    char *line = malloc(cap), *hl = malloc(cap);
    char *h[64], *v[64];
    if (!fgets(hl, (int)cap, f)) {
        fclose(f);
        free(line), free(hl);
        return 0;
    }
    int nh = csv_split(hl, h, 64);
    int cOp = col(h, nh, "op"), cT = col(h, nh, "target"), cN = col(h, nh, "Name"), cOut = col(h, nh, "output_shape");
    int cL = col(h, nh, train ? "fw_latency" : "latency"), cB = train ? col(h, nh, "bw_latency") : -1;
    typedef struct { int b, s, layer0, module; double t; } op_t;
    op_t *ops = NULL;
    int n = 0, capo = 0;
    while (fgets(line, (int)cap, f)) {
        int k = csv_split(line, v, 64);
        if (k < nh || cOp < 0 || cT < 0 || cN < 0 || cL < 0) continue;
        if (n == capo) {
            capo = capo ? 2 * capo : 256;
            ops = realloc(ops, sizeof *ops * (size_t)capo);
        }
        op_t *o = &ops[n++];
        o->b = bucket_of_op(v[cOp], v[cT], v[cN]);
        o->s = sub_of_name(v[cT]);
        o->layer0 = is_layer0(v[cN]);
        o->module = !strcmp(v[cOp], "call_module") || !strcmp(v[cOp], "get_attr");
        o->t = atof(v[cL]) + (cB >= 0 ? atof(v[cB]) : 0);
        /* host-side ops (size, getitem on shapes, view, permute ...) return
         * tiny or aliasing outputs; their ~6-10 us are the tracer's timing
         * floor, not GPU work: count only ops that make a tensor > 1 elem
         * and take longer than the floor. */
        if (cOut >= 0 && !strcmp(v[cOut], "(1,)")) o->t = 0;
        if (o->t < 0.012) o->t = 0;
    }
    fclose(f);
    free(line), free(hl);
    int first = -1, last = -1;
    for (int i = 0; i < n; i++)
        if (ops[i].layer0) {
            if (first < 0) first = i;
            last = i;
        }
    if (last >= 0)
        while (last + 1 < n && !ops[last + 1].module) last++;
    for (int b = 0; b < B_N; b++) cls[b] = 0;
    for (int k = 0; k < S_N; k++) sub[k] = 0;
    for (int i = 0; i < n; i++) {
        double w = (first >= 0 && i >= first && i <= last) ? layers : 1;
        cls[ops[i].b] += w * ops[i].t;
        if (ops[i].b == B_ELEM) sub[ops[i].s] += w * ops[i].t;
    }
    free(ops);
    return 1;
}

/* ---- prediction ---------------------------------------------------------------------- */

static const dlp__wave_params *logo_waves_for(const dlp_device *d);
static const dlp__amd_softmax_params *amd_logo_for(const dlp_device *d);

/* NeuSight's measure_e2e (trace.py) runs 25 forward + loss.backward()
 * iterations and never calls zero_grad() nor an optimizer, so from the
 * second iteration on every parameter's .grad already exists and
 * AccumulateGrad adds the new gradient into it in place: one add kernel per
 * parameter tensor, read two and write one fp32 value per parameter (12 B),
 * inside the timed backward (NeuSight's own per-op tables time it as
 * acc_latency).  dlp_predict's PyTorch 2.x step assumes zero_grad(set_to_none)
 * and steals the gradient instead; its PyTorch 1.x step keeps the .grad
 * tensors and lists exactly this kernel ("AccumulateGrad (aten::add_)",
 * backward.c dlp__step_param_kernels), so its time is read from a 1.x
 * prediction of the same graph (that row depends only on the parameters and
 * the device).  Returns ms (0: none). */
static double accumulate_grad_ms(dlp_graph *g, const dlp_device *d, const dlp_devdb *db, const dlp_predict_opts *o) {
    dlp_predict_opts a = *o;
    a.runtime = DLP_RUNTIME_EAGER1X;
    dlp_prediction p;
    dlp_error err = {0};
    if (dlp_predict(g, d, db, &a, &p, &err)) return 0;
    double ms = 0;
    for (int i = 0; i < p.n_kernel_rows; i++)
        if (p.kernel_rows[i].phase == 2 && strstr(p.kernel_rows[i].name, "AccumulateGrad"))
            ms += p.kernel_rows[i].time_ms;
    dlp_prediction_clear(&p);
    return ms;
}

/* --dump GPU:model:mode:seq:batch (e.g. a100-pcie-40gb:gpt3_xl:infer:2048:2):
 * the calibrated kernel list of that row on stderr, to take an op class
 * apart against the label CSV's per-op times */
static const char *dump_row;

static void dump_kernels(const erow *r, const dlp_prediction *p) {
    fprintf(stderr, "# %s: phase name class count ms/launch bytes/launch ratio curve\n", r->key);
    for (int i = 0; i < p->n_kernel_rows; i++) {
        const dlp_kernel_pred *k = &p->kernel_rows[i];
        fprintf(stderr, "%d\t%s\t%d\t%d\t%.4f\t%.4g\t%.3f\t%s\n", k->phase, k->name, k->kclass, k->count, k->kernel_ms,
                k->bytes, k->ratio, k->curve ? k->curve : "-");
    }
}

static void predict_row(erow *r, dlp_graph *g, const dlp_devdb *db, const dlp_efficiency *eff, int which) {
    dlp_predict_opts o = {0};
    o.mode = r->train ? DLP_PREDICT_TRAIN : DLP_PREDICT_INFER;
    o.dtype = DLP_DT_FLOAT;
    o.batch = r->batch;
    o.pure_roofline = which == P_PURE;
    o.eff = which == P_LOGO ? eff : NULL;
    /* NeuSight traced Hugging Face models of 2023 (transformers 4.3x) under
     * PyTorch 2.1: their BERT/GPT-2/OPT attention is written out (matmul,
     * scale, mask, softmax, matmul) and calls no SDPA, so it runs as written */
    o.no_sdpa = 1;
    dlp_prediction p;
    dlp_error err = {0};
    /* leave-one-GPU-out: the wave model refitted without the row's GPU too */
    dlp__wave_params_override(which == P_LOGO ? logo_waves_for(r->dev) : NULL);
    dlp__amd_softmax_override(which == P_LOGO ? amd_logo_for(r->dev) : NULL);
    dlp_status st = dlp_predict(g, r->dev, db, &o, &p, &err);
    dlp__wave_params_override(NULL);
    dlp__amd_softmax_override(NULL);
    if (st) {
        fprintf(stderr, "predict %s %s: %s\n", r->model, r->dev_id, err.msg);
        r->pred[which] = NAN;
        return;
    }
    double fb = 0;
    for (int i = 0; i < p.n_nodes; i++) {
        double t = p.nodes[i].time_ms + p.nodes[i].bwd_ms;
        fb += t;
        if (which == P_CAL) {
            /* linear layers (MatMul on a 2-D weight, with the bias Add folded
             * into it) are NeuSight's addmm / nn.Linear rows */
            dlp_node_info ni;
            ni = *dlp_graph_node_at(g, i);
            int b = bucket_of_class(p.nodes[i].op_class);
            if (ni.op_class == DLP_OPC_MATMUL && ni.n_inputs > 1 && ni.inputs[1] >= 0) {
                dlp_tensor_info w;
                w = *dlp_graph_tensor_at(g, ni.inputs[1]);
                if (w.is_initializer && w.rank == 2) b = B_GEMM;
            }
            r->cls_pred[b] += t;
        }
    }
    if (which == P_CAL && dump_row && !strcmp(dump_row, r->key)) dump_kernels(r, &p);
    if (which == P_CAL)
        for (int i = 0; i < p.n_kernel_rows; i++) {
            const dlp_kernel_pred *k = &p.kernel_rows[i];
            if (k->phase > 1 || k->node < 0 || bucket_of_class(p.nodes[k->node].op_class) != B_ELEM) continue;
            r->sub_pred[sub_of_name(k->name)] += k->time_ms;
        }
    r->pred_fw[which] = p.latency_ms;
    dlp_prediction_clear(&p);
    if (r->train) {
        dlp__wave_params_override(which == P_LOGO ? logo_waves_for(r->dev) : NULL);
        fb += accumulate_grad_ms(g, r->dev, db, &o);
        dlp__wave_params_override(NULL);
    }
    r->pred[which] = r->train ? fb : r->pred_fw[which];
}

static int in_kernel_fit(const dlp_device *d, const dlp_devdb *db) {
    for (size_t i = 0; i < sizeof kernel_gpus / sizeof kernel_gpus[0]; i++)
        if (dlp_devdb_find(db, kernel_gpus[i]) == d) return 1;
    return 0;
}

static int cmp_row(const void *a, const void *b) {
    const erow *x = a, *y = b;
    int c = strcmp(x->gpu, y->gpu);
    if (c) return c;
    if (x->train != y->train) return x->train - y->train;
    c = strcmp(x->model, y->model);
    if (c) return c;
    if (x->seq != y->seq) return x->seq - y->seq;
    return x->batch - y->batch;
}

/* ---- report ---------------------------------------------------------------------------- */

static FILE *md;
static int have_logo;

#define OUT(...)                                                                                                  \
    do {                                                                                                          \
        printf(__VA_ARGS__);                                                                                      \
        if (md) fprintf(md, __VA_ARGS__);                                                                         \
    } while (0)

static double ape(const erow *r, int p) { return fabs(r->pred[p] - r->meas) / r->meas; }

/* MAPE of rows for which key(r) == val; n rows out. */
typedef const char *(*keyfn)(const erow *);
static const char *k_gpu(const erow *r) { return r->dev_id; }
static const char *k_model(const erow *r) { return r->model; }
static const char *k_mode(const erow *r) { return r->train ? "train" : "infer"; }
static const char *k_all(const erow *r) {
    (void)r;
    return "all rows";
}
static const char *k_fit(const erow *r) {
    return r->in_fit ? "GPU in the kernel fit" : "GPU never in the kernel fit";
}

static void group_table(const char *title, keyfn key) {
    OUT("\n| %s | rows |", title);
    for (int p = 0; p < P_N; p++)
        if (p != P_LOGO || have_logo) OUT(" %s |", pname[p]);
    OUT(" median meas./calib. |\n|---|---:|");
    for (int p = 0; p < P_N; p++)
        if (p != P_LOGO || have_logo) OUT("---:|");
    OUT("---:|\n");
    const char *seen[MAXR];
    int ns = 0;
    for (int i = 0; i < nE; i++) {
        const char *k = key(&E[i]);
        int dup = 0;
        for (int j = 0; j < ns; j++) dup |= !strcmp(seen[j], k);
        if (dup) continue;
        seen[ns++] = k;
        double s[P_N] = {0}, ratios[MAXR];
        int n = 0;
        for (int j = 0; j < nE; j++) {
            if (strcmp(key(&E[j]), k)) continue;
            for (int p = 0; p < P_N; p++) s[p] += ape(&E[j], p);
            ratios[n++] = E[j].meas / E[j].pred[P_CAL];
        }
        OUT("| %s | %d |", k, n);
        for (int p = 0; p < P_N; p++)
            if (p != P_LOGO || have_logo) OUT(" %.1f%% |", 100 * s[p] / n);
        OUT(" %.2f |\n", quantile(ratios, (size_t)n, 0.5));
    }
}

/* ---- leave-one-GPU-out curves: one fit per kernel-table GPU -------------------------- */

static rows KR[K_N];
static dlp_efficiency logo_eff[MAX_DEV + 1];
static const dlp_device *logo_dev[MAX_DEV + 1];
static int n_logo;

static dlp__wave_params logo_waves[MAX_DEV + 1];
static int have_logo_waves[MAX_DEV + 1];

/* The fp32 wave parameters fitted without d when d's kernels were in the
 * fit; NULL: the shipped ones. */
static const dlp__wave_params *logo_waves_for(const dlp_device *d) {
    for (int q = 0; q < n_logo; q++)
        if (logo_dev[q] && logo_dev[q] == d) return have_logo_waves[q] ? &logo_waves[q] : NULL;
    return NULL;
}

static void setup_logo(const dlp_devdb *db, const char *kdir) {
    if (!kdir) return;
    if (load_kernel_tables(db, kdir, KR) > 0) {
        wrows WR = {0};
        int waves = wload(db, kdir, &WR) > 0;
        for (int g = 0; g < n_devs; g++) {
            fit_efficiency(KR, devs[g], &logo_eff[n_logo]);
            /* the shipped protocol of bench/bench_waves.c (4,000 kernels) */
            have_logo_waves[n_logo] = waves && wfit_without(&WR, devs[g], 4000, &logo_waves[n_logo], NULL) == DLP_OK;
            logo_dev[n_logo++] = devs[g];
        }
        free(WR.r);
        fit_efficiency(KR, NULL, &logo_eff[n_logo]);   /* all GPUs: for GPUs never in the fit */
        logo_dev[n_logo++] = NULL;
        have_logo = 1;
    } else {
        fprintf(stderr, "bench_e2e: no kernel tables under %s; no leave-one-GPU-out column\n", kdir);
    }
}

/* Curves refitted without d when d's kernels were in the fit (kind 0); else
 * NULL = the shipped all-GPU curves (kind 1). */
static const dlp_efficiency *logo_for(const dlp_device *d, int *kind) {
    for (int q = 0; q < n_logo; q++)
        if (logo_dev[q] && logo_dev[q] == d) {
            *kind = 0;
            return &logo_eff[q];
        }
    *kind = 1;
    return NULL;
}

/* "elementwise+other" by part, per mode and GPU: predicted / measured, and
 * each part's share of all measured op time (where the missing kernels are:
 * a part predicted at ~0 runs kernels the graph does not have). */
static void sub_tables(void) {
    OUT("\n\"elementwise+other\" by part (measured: the label's op names; predicted: the kernels' names); "
        "predicted / measured, and the part's share of all measured op time.\n");
    for (int mode = 0; mode < 2; mode++) {
        OUT("\n| %s: GPU |", mode ? "training (fw+bw)" : "inference");
        for (int k = 0; k < S_N; k++) OUT(" %s |", sname[k]);
        OUT("\n|---|");
        for (int k = 0; k < S_N; k++) OUT("---:|");
        OUT("\n");
        double am[S_N] = {0}, tot = 0;
        for (int i = 0; i < nE;) {
            int j = i, any = 0;
            double m[S_N] = {0}, p[S_N] = {0};
            for (; j < nE && !strcmp(E[j].dev_id, E[i].dev_id); j++) {
                if (E[j].train != mode || !E[j].have_csv) continue;
                any = 1;
                for (int k = 0; k < S_N; k++) m[k] += E[j].sub_meas[k], p[k] += E[j].sub_pred[k], am[k] += E[j].sub_meas[k];
                for (int b = 0; b < B_N; b++) tot += E[j].cls_meas[b];
            }
            if (any) {
                OUT("| %s |", E[i].dev_id);
                for (int k = 0; k < S_N; k++) {
                    if (m[k] > 0) OUT(" %.2f |", p[k] / m[k]);
                    else OUT(" - |");
                }
                OUT("\n");
            }
            i = j;
        }
        OUT("| share of measured time |");
        for (int k = 0; k < S_N; k++) OUT(" %.1f%% |", tot > 0 ? 100 * am[k] / tot : 0);
        OUT("\n");
    }
}

/* Training rows split into the forward (in train mode) and the backward
 * (loss.backward(), with the in-place gradient accumulation), measured
 * (the label's fw_latency, bwall_latency) over calibrated: which half of
 * the step an error is in. */
static void train_split_table(void) {
    OUT("\nTraining rows, forward and backward apart (measured / calibrated; the backward includes the "
        "in-place gradient accumulation, see bench_e2e.c accumulate_grad_ms).\n\n"
        "| GPU | model | seq | batch | fw measured ms | fw calibrated ms | fw meas./calib. | bw measured ms | "
        "bw calibrated ms | bw meas./calib. |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (int i = 0; i < nE; i++) {
        const erow *r = &E[i];
        if (!r->train || !(r->meas_fw > 0) || !(r->pred_fw[P_CAL] > 0)) continue;
        double mb = r->meas - r->meas_fw, pb = r->pred[P_CAL] - r->pred_fw[P_CAL];
        OUT("| %s | %s | %d | %d | %.1f | %.1f | %.2f | %.1f | %.1f | %.2f |\n", r->dev_id, r->model, r->seq, r->batch,
            r->meas_fw, r->pred_fw[P_CAL], r->meas_fw / r->pred_fw[P_CAL], mb, pb, pb > 0 ? mb / pb : NAN);
    }
}

/* ---- AMD GPUs (docs/predict.md, "AMD GPUs") ----------------------------------------
 * The block softmax's rate on CDNA (waves.h, dlp__amd_softmax_time) from the
 * AMD inference label CSVs: every softmax op over rows longer than the warp
 * softmax takes gives elements / (time x CUs x boost clock); the rate is
 * their median.  The leave-one-out column refits it without the row's
 * architecture (MI210 and MI250 are one chip, so leaving one GPU out
 * would leave its twin in). */
#define AMD_SMX_MAX 64
typedef struct {
    const dlp_device *d;
    double rate;
} amd_smx;
static amd_smx AS[AMD_SMX_MAX];
static int nAS;
static dlp__amd_softmax_params amd_logo[MAX_DEV + 1];
static const char *amd_logo_arch[MAX_DEV + 1];
static int n_amd_logo;

/* Softmax ops of one label CSV into AS[]. */
static void amd_softmax_csv(const char *path, const dlp_device *d) {
    FILE *f = fopen(path, "r");
    if (!f) return;
    size_t cap = 1 << 20;
    char *line = malloc(cap), *hl = malloc(cap);
    char *h[64], *v[64];
    int nh = line && hl && fgets(hl, (int)cap, f) ? csv_split(hl, h, 64) : 0;
    int cT = col(h, nh, "target"), cS = col(h, nh, "input_shapes"), cL = col(h, nh, "latency");
    const dlp__amd_softmax_params *sp = dlp__amd_softmax_builtin();
    while (nh && cT >= 0 && cS >= 0 && cL >= 0 && fgets(line, (int)cap, f) && nAS < AMD_SMX_MAX) {
        if (csv_split(line, v, 64) < nh || !strstr(v[cT], "softmax")) continue;
        double numel = 1, dim = 0, t = atof(v[cL]) * 1e-3;
        for (char *q = v[cS]; *q && *q != ']'; q++)   /* the first input's dims */
            if (*q >= '0' && *q <= '9') dim = strtod(q, &q), numel *= dim, q--;
        if (dim > sp->min_row && t > 0) AS[nAS++] = (amd_smx){d, numel / (t * d->sm_count * d->boost_clock_mhz * 1e6)};
    }
    fclose(f);
    free(line), free(hl);
}

static int cmp_dbl(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Median rate of the samples not of architecture `out` (NULL: all); 0: none. */
static double amd_softmax_fit(const char *out, int *n) {
    double r[AMD_SMX_MAX];
    int k = 0;
    for (int i = 0; i < nAS; i++)
        if (!out || strcmp(AS[i].d->arch, out)) r[k++] = AS[i].rate;
    *n = k;
    if (!k) return 0;
    qsort(r, (size_t)k, sizeof r[0], cmp_dbl);
    return k % 2 ? r[k / 2] : 0.5 * (r[k / 2 - 1] + r[k / 2]);
}

/* Read the samples of every AMD GPU's inference CSVs and fit the rate with
 * each AMD architecture left out. */
static void amd_setup(const char *dir, const dlp_devdb *db) {
    char path[2048];
    snprintf(path, sizeof path, "%s/label", dir);
    DIR *dg = opendir(path);
    struct dirent *ge;
    while (dg && (ge = readdir(dg))) {
        char dname[128];
        snprintf(dname, sizeof dname, "%s", ge->d_name);
        for (char *p = dname; *p; p++)
            if (*p == '_') *p = ' ';
        const dlp_device *d = ge->d_name[0] != '.' ? dlp_devdb_find(db, dname) : NULL;
        if (!dlp__is_amd_gpu(d) || !d->arch) continue;
        snprintf(path, sizeof path, "%s/label/%s", dir, ge->d_name);
        DIR *df = opendir(path);
        struct dirent *fe;
        while (df && (fe = readdir(df))) {
            size_t l = strlen(fe->d_name);
            if (!strstr(fe->d_name, "-inf-") || l < 4 || strcmp(fe->d_name + l - 4, ".csv")) continue;
            char cp[2400];
            snprintf(cp, sizeof cp, "%s/%s", path, fe->d_name);
            amd_softmax_csv(cp, d);
        }
        if (df) closedir(df);
        int seen = 0;
        for (int q = 0; q < n_amd_logo; q++) seen |= !strcmp(amd_logo_arch[q], d->arch);
        if (!seen && n_amd_logo < MAX_DEV) amd_logo_arch[n_amd_logo++] = d->arch;
    }
    if (dg) closedir(dg);
    int n;
    printf("AMD block softmax (elements per CU per clock; shipped %.4f): all %d samples %.4f", 
           dlp__amd_softmax_builtin()->elem_per_cu_clk, nAS, amd_softmax_fit(NULL, &n));
    for (int q = 0; q < n_amd_logo; q++) {
        amd_logo[q] = *dlp__amd_softmax_builtin();
        amd_logo[q].elem_per_cu_clk = amd_softmax_fit(amd_logo_arch[q], &n);
        printf("; without %s %d samples %.4f", amd_logo_arch[q], n, amd_logo[q].elem_per_cu_clk);
    }
    printf("\n");
}

/* The rate fitted without d's architecture; NULL: the shipped one. */
static const dlp__amd_softmax_params *amd_logo_for(const dlp_device *d) {
    for (int q = 0; d && d->arch && q < n_amd_logo; q++)
        if (!strcmp(amd_logo_arch[q], d->arch) && amd_logo[q].elem_per_cu_clk > 0) return &amd_logo[q];
    return NULL;
}

/* AMD inference rows per GPU and model: predicted / measured per op class
 * (where the AMD error is, model by model). */
static void amd_model_table(void) {
    OUT("\nAMD inference per GPU and model (rows with an op-level CSV, batches summed): predicted / measured per "
        "op class, and the end-to-end error (calibrated).\n\n| GPU | model |");
    for (int b = 0; b < B_N; b++) OUT(" %s |", bname[b]);
    OUT(" e2e err |\n|---|---|");
    for (int b = 0; b <= B_N; b++) OUT("---:|");
    OUT("\n");
    for (int i = 0; i < nE; i++) {
        if (E[i].train || !E[i].have_csv || !dlp__is_amd_gpu(E[i].dev)) continue;
        int first = 1;
        for (int j = 0; j < i; j++)
            if (!E[j].train && E[j].have_csv && E[j].dev == E[i].dev && !strcmp(E[j].model, E[i].model)) first = 0;
        if (!first) continue;
        double m[B_N] = {0}, p[B_N] = {0}, em = 0, ep = 0;
        for (int j = i; j < nE; j++) {
            if (E[j].train || !E[j].have_csv || E[j].dev != E[i].dev || strcmp(E[j].model, E[i].model)) continue;
            for (int b = 0; b < B_N; b++) m[b] += E[j].cls_meas[b], p[b] += E[j].cls_pred[b];
            em += E[j].meas, ep += E[j].pred[P_CAL];
        }
        OUT("| %s | %s |", E[i].dev_id, E[i].model);
        for (int b = 0; b < B_N; b++) OUT(" %.2f |", m[b] > 0 ? p[b] / m[b] : NAN);
        OUT(" %+.0f%% |\n", 100 * (ep / em - 1));
    }
}

/* NeuSight's labels into E[] and its report (docs/results_e2e.md). */
static int run_neusight(const char *dir, const dlp_devdb *db, const char *mdpath) {
    char path[2048];
    snprintf(path, sizeof path, "%s/label", dir);
    DIR *dg = opendir(path);
    if (!dg) {
        printf("neusight: no labels under %s; skipped\n", path);
        return 0;
    }
    amd_setup(dir, db);
    struct dirent *ge;
    char gpus[32][128];
    int ng = 0;
    while ((ge = readdir(dg)) && ng < 32)
        if (ge->d_name[0] != '.') snprintf(gpus[ng++], sizeof gpus[0], "%s", ge->d_name);
    closedir(dg);
    for (int gi = 0; gi < ng; gi++) {
        char dname[128];
        snprintf(dname, sizeof dname, "%s", gpus[gi]);
        for (char *p = dname; *p; p++)
            if (*p == '_') *p = ' ';
        const dlp_device *d = dlp_devdb_find(db, dname);
        snprintf(path, sizeof path, "%s/label/%s", dir, gpus[gi]);
        DIR *df = opendir(path);
        if (!df) continue;
        struct dirent *fe;
        while ((fe = readdir(df)) && nE < MAXR) {
            char model[32], mode[8];
            int seq, batch, k = 0;
            if (sscanf(fe->d_name, "%31[^-]-%7[^-]-%d-%d%n", model, mode, &seq, &batch, &k) != 4) continue;
            if (strcmp(fe->d_name + k, ".json")) continue;
            char jp[2300], cp[2300], cfgp[2300];
            snprintf(jp, sizeof jp, "%s/%s", path, fe->d_name);
            snprintf(cp, sizeof cp, "%s/%.*s.csv", path, k, fe->d_name);
            snprintf(cfgp, sizeof cfgp, "%s/data/DLmodel_configs/%s.json", dir, model);
            char what[96];
            snprintf(what, sizeof what, "%s", model);
            dlp_llm_config c;
            dlp_error e = {0};
            if (!d || dlp_llm_config_load(cfgp, &c, &e)) {
                n_skipped++;
                if (!strstr(skipped, d ? what : gpus[gi])) {
                    size_t l = strlen(skipped);
                    snprintf(skipped + l, sizeof skipped - l, "%s%s (%s)", l ? "; " : "", d ? what : gpus[gi],
                             d ? e.msg : "GPU not in the database");
                }
                continue;
            }
            erow *r = &E[nE];
            memset(r, 0, sizeof *r);
            snprintf(r->gpu, sizeof r->gpu, "%s", gpus[gi]);
            snprintf(r->model, sizeof r->model, "%s", model);
            snprintf(r->dev_id, sizeof r->dev_id, "%s", d->id);
            r->train = !strcmp(mode, "train");
            r->seq = seq, r->batch = batch, r->dev = d;
            snprintf(r->key, sizeof r->key, "%s:%s:%s:%d:%d", d->id, model, r->train ? "train" : "infer", seq, batch);
            r->in_fit = in_kernel_fit(d, db);
            char *txt = slurp(jp);
            cJSON *j = txt ? cJSON_Parse(txt) : NULL;
            const cJSON *e2e = cJSON_GetObjectItemCaseSensitive(j, "e2e_latency");
            const cJSON *fw = cJSON_GetObjectItemCaseSensitive(j, "fw_latency");
            const cJSON *nl = cJSON_GetObjectItemCaseSensitive(j, "num_layer");
            int ok = cJSON_IsNumber(e2e) && e2e->valuedouble > 0;
            r->meas = ok ? e2e->valuedouble : 0;
            r->meas_fw = cJSON_IsNumber(fw) ? fw->valuedouble : 0;
            int layers = cJSON_IsNumber(nl) ? nl->valueint : 0;
            cJSON_Delete(j);
            free(txt);
            if (!ok) continue;
            /* the heads NeuSight's tracer instantiates (trace.py get_model) */
            if (!strcmp(c.model_type, "bert")) {
                c.pooler = 1;
                c.mlm_head = r->train;   /* ForPreTraining vs ForSequenceClassification */
            }
            dlp_graph *g = NULL;
            if (dlp_llm_build(&c, batch, seq, DLP_QT_FP32, &g, NULL, &e)) {
                fprintf(stderr, "build %s: %s\n", model, e.msg);
                continue;
            }
            const dlp_efficiency *le = NULL;
            for (int q = 0; q < n_logo; q++)
                if (logo_dev[q] == d) le = &logo_eff[q];
            if (have_logo && !le) le = &logo_eff[n_logo - 1];
            predict_row(r, g, db, NULL, P_PURE);
            predict_row(r, g, db, NULL, P_CAL);
            if (le) predict_row(r, g, db, le, P_LOGO);
            else r->pred[P_LOGO] = r->pred[P_CAL];
            dlp_graph_free(g);
            r->have_csv = layers > 0 && read_label_csv(cp, layers, r->train, r->cls_meas, r->sub_meas);
            nE++;
        }
        closedir(df);
    }
    if (!nE) {
        printf("neusight: no label rows under %s/label; skipped\n", dir);
        return 0;
    }
    qsort(E, (size_t)nE, sizeof E[0], cmp_row);
    if (mdpath && !(md = fopen(mdpath, "w"))) {
        fprintf(stderr, "bench_e2e: cannot write %s\n", mdpath);
        return 1;
    }
    if (md)
        fprintf(md, "# End-to-end check: `dlperf predict` vs NeuSight's measured transformers\n\n"
                    "GENERATED by `bench/bench_e2e.sh` (bench/bench_e2e.c); do not edit.  Protocol and "
                    "discussion: docs/predict.md, \"Whole-model checks: transformers vs NeuSight\".\n\n"
                    "fp32 PyTorch 2.1 eager; inference = one forward pass, training = forward + "
                    "`loss.backward()` (NeuSight times no optimizer step).  ms; error = predicted / "
                    "measured - 1.\n");
    OUT("\n== dlperf predict vs NeuSight end-to-end labels: %d rows; skipped %d (%s) ==\n\n", nE, n_skipped,
        skipped[0] ? skipped : "none");
    OUT("| GPU | model | mode | seq | batch | measured ms | pure ms | err | calibrated ms | err |%s\n",
        have_logo ? " calib. LOGO ms | err |" : "");
    OUT("|---|---|---|---:|---:|---:|---:|---:|---:|---:|%s\n", have_logo ? "---:|---:|" : "");
    for (int i = 0; i < nE; i++) {
        erow *r = &E[i];
        OUT("| %s | %s | %s | %d | %d | %.1f | %.1f | %+.0f%% | %.1f | %+.0f%% |", r->dev_id, r->model,
            r->train ? "train" : "infer", r->seq, r->batch, r->meas, r->pred[P_PURE],
            100 * (r->pred[P_PURE] / r->meas - 1), r->pred[P_CAL], 100 * (r->pred[P_CAL] / r->meas - 1));
        if (have_logo) OUT(" %.1f | %+.0f%% |", r->pred[P_LOGO], 100 * (r->pred[P_LOGO] / r->meas - 1));
        OUT("\n");
    }
    OUT("\nMAPE (mean |predicted - measured| / measured).  \"calib. LOGO\": curves refitted on the kernel tables "
        "without the row's GPU.\n");
    group_table("overall", k_all);
    group_table("mode", k_mode);
    group_table("GPU", k_gpu);
    group_table("model", k_model);
    group_table("kernels of the GPU", k_fit);
    train_split_table();

    /* where the time goes: per op class, measured (label CSV, one layer x
     * num_layer) vs calibrated prediction, summed over rows that have a CSV */
    OUT("\nPer op class, rows with an op-level CSV (measured = NeuSight's per-op times, one traced layer x "
        "num_layer + embeddings/head; host-side ops excluded).  ratio = predicted / measured.\n");
    for (int mode = 0; mode < 2; mode++) {
        OUT("\n| %s: GPU |", mode ? "training (fw+bw)" : "inference");
        for (int b = 0; b < B_N; b++) OUT(" %s |", bname[b]);
        OUT(" sum of ops / e2e |\n|---|");
        for (int b = 0; b < B_N; b++) OUT("---:|");
        OUT("---:|\n");
        for (int i = 0; i < nE;) {
            int j = i;
            double m[B_N] = {0}, p[B_N] = {0}, se = 0, sm = 0;
            int any = 0;
            for (; j < nE && !strcmp(E[j].dev_id, E[i].dev_id); j++) {
                if (E[j].train != mode || !E[j].have_csv) continue;
                any = 1;
                for (int b = 0; b < B_N; b++) m[b] += E[j].cls_meas[b], p[b] += E[j].cls_pred[b], sm += E[j].cls_meas[b];
                se += E[j].meas;
            }
            if (any) {
                OUT("| %s |", E[i].dev_id);
                for (int b = 0; b < B_N; b++) OUT(" %.2f |", m[b] > 0 ? p[b] / m[b] : NAN);
                OUT(" %.2f |\n", sm / se);
            }
            i = j;
        }
        double m[B_N] = {0}, p[B_N] = {0}, tot = 0;
        for (int i = 0; i < nE; i++)
            if (E[i].train == mode && E[i].have_csv)
                for (int b = 0; b < B_N; b++) m[b] += E[i].cls_meas[b], p[b] += E[i].cls_pred[b], tot += E[i].cls_meas[b];
        OUT("| share of measured time |");
        for (int b = 0; b < B_N; b++) OUT(" %.0f%% |", tot > 0 ? 100 * m[b] / tot : 0);
        OUT(" |\n");
    }
    sub_tables();
    amd_model_table();
    if (md) fclose(md);
    md = NULL;
    return 0;
}

#include "e2e_vision.c"

int main(int argc, char **argv) {
    const char *dir = NULL, *kdir = NULL, *mdpath = NULL, *timm = NULL, *map = "bench/timm_map.csv", *rn50 = NULL;
    const char *zeus = NULL, *mdv = NULL, *mdirs[4], *mlp[8];
    int nmd = 0, nmlp = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--kernels") && i + 1 < argc) kdir = argv[++i];
        else if (!strcmp(argv[i], "--md") && i + 1 < argc) mdpath = argv[++i];
        else if (!strcmp(argv[i], "--md-vision") && i + 1 < argc) mdv = argv[++i];
        else if (!strcmp(argv[i], "--timm") && i + 1 < argc) timm = argv[++i];
        else if (!strcmp(argv[i], "--map") && i + 1 < argc) map = argv[++i];
        else if (!strcmp(argv[i], "--models") && i + 1 < argc && nmd < 4) mdirs[nmd++] = argv[++i];
        else if (!strcmp(argv[i], "--mlperf") && i + 1 < argc && nmlp < 8) mlp[nmlp++] = argv[++i];
        else if (!strcmp(argv[i], "--rn50") && i + 1 < argc) rn50 = argv[++i];
        else if (!strcmp(argv[i], "--zeus") && i + 1 < argc) zeus = argv[++i];
        else if (!strcmp(argv[i], "--neusight") && i + 1 < argc) dir = argv[++i];
        else if (!strcmp(argv[i], "--dump") && i + 1 < argc) dump_row = argv[++i];
        else if (argv[i][0] != '-') dir = argv[i];
        else {
            fprintf(stderr, "bench_e2e: unknown argument %s\n", argv[i]);
            return 2;
        }
    }
    if (!dir && !timm && !nmlp && !zeus) {
        fprintf(stderr, "usage: bench_e2e [ASPLOS_DIR] [--kernels DATASET_DIR] [--md FILE] [--timm RESULTS_DIR "
                        "[--map CSV] --models DIR...] [--mlperf SUMMARY_CSV... --rn50 ONNX] [--zeus TRACE_DIR] "
                        "[--md-vision FILE]\n");
        return 2;
    }
    dlp_devdb *db;
    dlp_error err = {0};
    if (dlp_devdb_load(NULL, &db, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    setup_logo(db, kdir);
    int rc = 0;
    if (dir) rc = run_neusight(dir, db, mdpath);
    int only_neusight = !timm && !nmlp && !zeus;
    if (!rc && !only_neusight) {
        pool_neusight();
        if (timm) run_timm(timm, map, mdirs, nmd, db);
        if (nmlp) run_mlperf(mlp, nmlp, rn50, db), run_mlperf_ss(mlp, nmlp, rn50, db);
        if (zeus) run_zeus(zeus, rn50, db);
        FILE *f = NULL;
        if (mdv && !(f = fopen(mdv, "w"))) fprintf(stderr, "bench_e2e: cannot write %s\n", mdv), rc = 1;
        vision_report(f, dir != NULL && nE > 0, timm != NULL, nmlp > 0, zeus != NULL);
        if (f) fclose(f);
        md = NULL;
    }
    dlp_devdb_free(db);
    for (int k = 0; k < K_N; k++) free(KR[k].r);
    free(V);
    return rc;
}
