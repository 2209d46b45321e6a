/*
 * e2e_vision.c — the other end-to-end checks of `bench/bench_e2e.sh --all`,
 * pooled with NeuSight's rows (included by bench_e2e.c after its NeuSight
 * part; protocol in docs/results_e2e_vision.md, which this writes):
 *
 *   timm     RTX 3090 AMP benchmarks of pytorch-image-models (6 inference
 *            files: NCHW/NHWC x PyTorch 1.13/2.1/2.4; 1 NHWC training file,
 *            PyTorch 1.12), the timm models with a torchvision architecture
 *            (bench/timm_map.csv -> an ONNX file in data/models/torchvision or
 *            ../shared/models/torchvision)
 *   mlperf   ResNet-50 (int8) and BERT-large (int8, fp16) offline throughput,
 *            MLPerf Inference closed v2.1-v4.1, TensorRT
 *   zeus     ResNet-50 fp32 training step time and power (Zeus, NSDI'23)
 *
 * Every row is one measured time and one prediction in ms, so rows of all
 * data sets pool; MAPE is on time (MLPerf: error of 1 / throughput).
 */
#define MLPERF_BERT_NO_MAIN
#include "mlperf_bert.c"

#include <strings.h>

static const char *dt_short(int dt) {
    return dt == DLP_DT_FLOAT16 ? "fp16" : dt == DLP_DT_INT8 ? "int8" : dt == DLP_DT_BFLOAT16 ? "bf16" : "fp32";
}

typedef struct {
    const char *set;           /* "neusight", "timm", "mlperf", "zeus" */
    char gpu[32], model[48], family[24], ver[24], file[24], onnx[40], match[8];
    int dtype, train, memfmt;  /* memfmt -1: not a vision model */
    int batch, img;
    double meas, pred, logo;   /* ms */
    int logo_kind;             /* 0 refit without the GPU, 1 GPU in no fit: all-GPU, 2 no curves (pure) */
    int aim;                   /* under the <= 10% aim */
    double extra, extra_meas;  /* zeus: predicted / measured W; mlperf: eager ms */
} vrow;

static vrow *V;
static int nV, capV;
static char vskipped[4096];
static int n_vskipped;

static vrow *vpush(const char *set) {
    if (nV == capV) {
        capV = capV ? 2 * capV : 512;
        V = realloc(V, sizeof *V * (size_t)capV);
        if (!V) exit(1);
    }
    vrow *r = &V[nV++];
    memset(r, 0, sizeof *r);
    r->set = set;
    r->memfmt = -1;
    return r;
}

static void vskip(const char *what, const char *why) {
    n_vskipped++;
    size_t l = strlen(vskipped);
    if (l + 200 < sizeof vskipped)
        snprintf(vskipped + l, sizeof vskipped - l, "%s%s (%s)", l ? "; " : "", what, why);
}

static const char *family_of(const char *m) {
    static const char *const fam[][2] = {
        {"tv_resnext", "resnext"}, {"tv_resnet", "resnet"}, {"tv_densenet", "densenet"}, {"resnext", "resnext"},
        {"wide_resnet", "wide_resnet"}, {"resnet", "resnet"}, {"inception", "inception"}, {"vit_", "vit"},
        {"swin", "swin"}, {"convnext", "convnext"}, {"mobilenet", "mobilenet"}, {"efficientnet", "efficientnet"},
        {"mnasnet", "mnasnet"}, {"densenet", "densenet"}, {"vgg", "vgg"}, {"regnet", "regnet"},
        {"bert", "bert (transformer)"}, {"gpt", "gpt (transformer)"}, {"opt", "opt (transformer)"}};
    for (size_t i = 0; i < sizeof fam / sizeof fam[0]; i++)
        if (!strncmp(m, fam[i][0], strlen(fam[i][0]))) return fam[i][1];
    return "other";
}

/* LOGO curves for device d: refit without it when its kernels were in the
 * fit; else NULL (the shipped all-GPU curves). */
static const dlp_efficiency *logo_for(const dlp_device *d, int *kind);

/* ---- NeuSight rows into the pool ------------------------------------------------------ */

static void pool_neusight(void) {
    for (int i = 0; i < nE; i++) {
        const erow *e = &E[i];
        vrow *r = vpush("neusight");
        snprintf(r->gpu, sizeof r->gpu, "%s", e->dev_id);
        snprintf(r->model, sizeof r->model, "%s", e->model);
        snprintf(r->family, sizeof r->family, "%s", family_of(e->model));
        snprintf(r->ver, sizeof r->ver, "pt2.1 eager");
        r->dtype = DLP_DT_FLOAT, r->train = e->train, r->batch = e->batch;
        r->meas = e->meas, r->pred = e->pred[P_CAL];
        r->logo = have_logo ? e->pred[P_LOGO] : e->pred[P_CAL];
        r->logo_kind = e->in_fit ? 0 : 1;
        r->aim = 1;
    }
}

/* ---- timm ------------------------------------------------------------------------------ */

typedef struct {
    char model[48], onnx[64], match[8];
} tmap;

typedef struct {
    char tag[24];              /* "infer-nchw-pt113" ... */
    int train, memfmt, runtime, cudnn;
    char ver[16];
    int n;
    struct trow {
        char model[48];
        int img, batch;
        double ms;
    } *r;
} tfile;

static int read_timm_file(const char *path, const char *base, tfile *t) {
    char mode[8], fmt[8], pt[8];
    if (sscanf(base, "benchmark-%7[a-z]-amp-%7[a-z]-pt%7[0-9]-", mode, fmt, pt) != 3) return 0;
    if (!strstr(base, "rtx3090")) return 0;
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    memset(t, 0, sizeof *t);
    t->train = !strcmp(mode, "train");
    t->memfmt = !strcmp(fmt, "nhwc") ? DLP_MEMFMT_NHWC : DLP_MEMFMT_NCHW;
    t->runtime = pt[0] == '1' ? DLP_RUNTIME_EAGER1X : DLP_RUNTIME_EAGER;
    /* the cuDNN each wheel ships: 1.x and 2.0-2.3 cuDNN 8 (pt210-cu121 pins
     * nvidia-cudnn-cu12 8.9.2.26), 2.4 on cuDNN 9 (cu124 pins 9.1.0.70,
     * pytorch/pytorch#193491) */
    t->cudnn = pt[0] == '1' || (pt[0] == '2' && atoi(pt + 1) < 40) ? 8 : 9;
    snprintf(t->ver, sizeof t->ver, "pt%c.%s", pt[0], pt + 1);
    if (t->ver[strlen(t->ver) - 1] == '0' && strlen(pt) == 3) t->ver[strlen(t->ver) - 1] = 0;   /* pt2.10 -> pt2.1 */
    snprintf(t->tag, sizeof t->tag, "%s-%s-pt%s", t->train ? "train" : "infer", fmt, pt);
    char line[4096], hl[4096], *h[32], *v[32];
    if (!fgets(hl, sizeof hl, f)) {
        fclose(f);
        return 0;
    }
    int nh = csv_split(hl, h, 32);
    const char *p = t->train ? "train_" : "infer_";
    char cn[64];
    snprintf(cn, sizeof cn, "%simg_size", p);
    int cI = col(h, nh, cn);
    snprintf(cn, sizeof cn, "%sbatch_size", p);
    int cB = col(h, nh, cn);
    snprintf(cn, sizeof cn, "%sstep_time", p);
    int cT = col(h, nh, cn), cM = col(h, nh, "model");
    int cap = 0;
    while (cI >= 0 && cB >= 0 && cT >= 0 && cM >= 0 && fgets(line, sizeof line, f)) {
        if (csv_split(line, v, 32) < nh) continue;
        if (t->n == cap) {
            cap = cap ? 2 * cap : 1024;
            t->r = realloc(t->r, sizeof *t->r * (size_t)cap);
        }
        struct trow *x = &t->r[t->n];
        snprintf(x->model, sizeof x->model, "%s", v[cM]);
        x->img = atoi(v[cI]), x->batch = (int)atof(v[cB]), x->ms = atof(v[cT]);
        if (x->img > 0 && x->batch > 0 && x->ms > 0) t->n++;
    }
    fclose(f);
    return t->n > 0;
}

static int cmp_tfile(const void *a, const void *b) {
    const tfile *x = a, *y = b;
    if (x->train != y->train) return x->train - y->train;
    return strcmp(x->tag, y->tag);
}

/* Graph cache: the same file at the same size and batch serves NCHW/NHWC and
 * three PyTorch versions. */
typedef struct {
    char path[512];
    int img, batch;
    dlp_graph *g;
    char err[256];
} gcache;
static gcache GC[8];
static int gc_next;

static dlp_graph *load_vision(const char *path, int img, int batch, char *why, size_t nwhy) {
    for (int i = 0; i < 8; i++)
        if (GC[i].path[0] && !strcmp(GC[i].path, path) && GC[i].img == img && GC[i].batch == batch) {
            snprintf(why, nwhy, "%s", GC[i].err);
            return GC[i].g;
        }
    gcache *c = &GC[gc_next];
    gc_next = (gc_next + 1) % 8;
    dlp_graph_free(c->g);
    memset(c, 0, sizeof *c);
    snprintf(c->path, sizeof c->path, "%s", path);
    c->img = img, c->batch = batch;
    const char *names[2] = {"height", "width"};
    int64_t vals[2] = {img, img};
    dlp_load_opts lo = {0};
    lo.batch = batch, lo.n_dims = 2, lo.dim_names = names, lo.dim_values = vals;
    dlp_error e = {0};
    if (dlp_graph_load(path, &lo, &c->g, &e)) {
        snprintf(c->err, sizeof c->err, "load: %s", e.msg);
    } else {
        /* a fixed-size export cannot be bound to another image size */
        for (int i = 0; i < dlp_graph_tensor_count(c->g); i++) {
            dlp_tensor_info ti;
            ti = *dlp_graph_tensor_at(c->g, i);
            if (ti.is_input && !ti.is_initializer && ti.rank == 4 && ti.dims[2] != img) {
                snprintf(c->err, sizeof c->err, "export fixed at %lldx%lld, timm runs %d", (long long)ti.dims[2],
                         (long long)ti.dims[3], img);
                dlp_graph_free(c->g);
                c->g = NULL;
                break;
            }
        }
    }
    snprintf(why, nwhy, "%s", c->err);
    return c->g;
}

static void run_timm(const char *dir, const char *mapcsv, const char *const *mdirs, int nmdirs, const dlp_devdb *db) {
    const dlp_device *d = dlp_devdb_find(db, "rtx3090");
    DIR *dd = opendir(dir);
    FILE *mf = fopen(mapcsv, "r");
    if (!dd || !mf || !d) {
        printf("timm: no RTX 3090 files under %s (or no %s); skipped\n", dir, mapcsv);
        if (dd) closedir(dd);
        if (mf) fclose(mf);
        return;
    }
    tfile F[16];
    int nf = 0;
    struct dirent *de;
    char path[2048];
    while ((de = readdir(dd)) && nf < 16) {
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        if (read_timm_file(path, de->d_name, &F[nf])) nf++;
    }
    closedir(dd);
    qsort(F, (size_t)nf, sizeof F[0], cmp_tfile);
    tmap M[256];
    int nm = 0;
    char line[1024], *v[8];
    if (fgets(line, sizeof line, mf))
        while (nm < 256 && fgets(line, sizeof line, mf)) {
            if (csv_split(line, v, 8) < 3 || !v[0][0]) continue;
            snprintf(M[nm].model, sizeof M[nm].model, "%s", v[0]);
            snprintf(M[nm].onnx, sizeof M[nm].onnx, "%s", v[1]);
            snprintf(M[nm].match, sizeof M[nm].match, "%s", v[2]);
            nm++;
        }
    fclose(mf);
    int kind;
    const dlp_efficiency *le = logo_for(d, &kind);
    for (int m = 0; m < nm; m++) {
        /* "../shared:x.onnx" = the shared corpus only; else ours first, then shared */
        char file[512] = "";
        const char *name = M[m].onnx;
        int only_shared = !strncmp(name, "../shared:", 10);
        if (only_shared) name += 10;
        for (int k = only_shared ? 1 : 0; k < nmdirs && !file[0]; k++) {
            snprintf(path, sizeof path, "%s/%s", mdirs[k], name);
            FILE *t = fopen(path, "rb");
            if (t) fclose(t), snprintf(file, sizeof file, "%s", path);
        }
        for (int fi = 0; fi < nf; fi++) {
            for (int j = 0; j < F[fi].n; j++) {
                struct trow *x = &F[fi].r[j];
                if (strcmp(x->model, M[m].model)) continue;
                char what[160], why[256] = "";
                snprintf(what, sizeof what, "timm %s %s", F[fi].tag, x->model);
                if (!file[0]) {
                    vskip(what, "no ONNX file");
                    continue;
                }
                dlp_graph *g = load_vision(file, x->img, x->batch, why, sizeof why);
                if (!g) {
                    vskip(what, why);
                    continue;
                }
                dlp_predict_opts o = {0};
                o.mode = F[fi].train ? DLP_PREDICT_TRAIN : DLP_PREDICT_INFER;
                o.dtype = DLP_DT_FLOAT16;   /* AMP autocast */
                o.batch = x->batch;
                o.runtime = F[fi].runtime;
                o.cudnn = F[fi].cudnn;
                o.memfmt = F[fi].memfmt;
                o.optimizer = DLP_OPTIM_SGD_MOMENTUM;   /* timm benchmark.py: --opt sgd, momentum 0.9 */
                double pr[2];
                int ok = 1;
                for (int w = 0; w < 2; w++) {
                    if (w && !le) {
                        pr[1] = pr[0];
                        break;
                    }
                    o.eff = w ? le : NULL;
                    dlp_prediction p;
                    dlp_error e = {0};
                    if (dlp_predict(g, d, db, &o, &p, &e)) {
                        vskip(what, e.msg);
                        ok = 0;
                        break;
                    }
                    pr[w] = F[fi].train ? p.step_ms : p.latency_ms;
                    dlp_prediction_clear(&p);
                }
                if (!ok) continue;
                vrow *r = vpush("timm");
                snprintf(r->gpu, sizeof r->gpu, "%s", d->id);
                snprintf(r->model, sizeof r->model, "%s", x->model);
                snprintf(r->family, sizeof r->family, "%s", family_of(x->model));
                snprintf(r->ver, sizeof r->ver, "%s eager", F[fi].ver);
                snprintf(r->file, sizeof r->file, "%s", F[fi].tag);
                snprintf(r->onnx, sizeof r->onnx, "%s", name);
                snprintf(r->match, sizeof r->match, "%s", M[m].match);
                r->dtype = DLP_DT_FLOAT16, r->train = F[fi].train, r->memfmt = F[fi].memfmt;
                r->batch = x->batch, r->img = x->img;
                r->meas = x->ms, r->pred = pr[0], r->logo = pr[1], r->logo_kind = kind;
                r->aim = !strcmp(M[m].match, "same");
            }
        }
    }
    for (int i = 0; i < 8; i++) dlp_graph_free(GC[i].g), memset(&GC[i], 0, sizeof GC[i]);
    for (int fi = 0; fi < nf; fi++) free(F[fi].r);
}

/* ---- MLPerf Inference (closed, Offline) ------------------------------------------------ */

/* accelerator name -> device id, as bench_roofline.sh had it */
static const struct {
    const char *acc, *dev;
    int rn50;                  /* also in the ResNet-50 selection */
} mlperf_acc[] = {{"NVIDIA A100-SXM-40GB", "a100-40gb", 1},
                  {"NVIDIA A100-SXM4-40GB", "a100-40gb", 1},
                  {"NVIDIA A100-SXM-80GB", "a100-80gb", 1},
                  {"NVIDIA A100-SXM4-80GB", "a100-80gb", 1},
                  {"NVIDIA A100-PCIe-80GB", "a100-pcie-80gb", 1},
                  {"NVIDIA H100-SXM-80GB", "h100-sxm", 1},
                  {"NVIDIA H100-PCIe-80GB", "h100-pcie", 1},
                  {"NVIDIA H200-SXM-141GB", "h200", 0},
                  {"NVIDIA T4", "t4", 1},
                  {"Tesla T4", "t4", 0},
                  {"NVIDIA L4", "l4", 1},
                  {"NVIDIA L40S", "l40s", 1},
                  {"NVIDIA A10", "a10", 0},
                  {"NVIDIA A40", "a40", 0},
                  {"NVIDIA GeForce RTX 4090 (Ada Lovelace)", "rtx4090", 0}};

typedef struct {
    char bench[12], dev[24];
    double v[256], med;
    int n;
} mlp_cell;

/* Per (benchmark, device) the per-accelerator samples/s of every valid closed
 * Offline result (no MaxQ, MIG or multi-node systems); with ss, the mean
 * latency in ms of every SingleStream result instead (one accelerator
 * answers each query). */
static int read_mlperf(const char *const *paths, int np, mlp_cell *C, int maxc, int ss) {
    int nc = 0;
    for (int pi = 0; pi < np; pi++) {
        FILE *f = fopen(paths[pi], "r");
        if (!f) continue;
        static char line[16384], hl[16384];
        char *h[64], *v[64];
        if (!fgets(hl, sizeof hl, f)) {
            fclose(f);
            continue;
        }
        int nh = csv_split(hl, h, 64);
        int cb = col(h, nh, "benchmark"), cs = col(h, nh, "scenario"), cd = col(h, nh, "division");
        int cv = col(h, nh, "result_valid"), ca = col(h, nh, "accelerator"), csy = col(h, nh, "system");
        int cps = col(h, nh, "samples_per_second"), cn = col(h, nh, "accelerators_per_node");
        int cnn = col(h, nh, "number_of_nodes"), cml = col(h, nh, "mean_latency_ns");
        if (ss && cml < 0) continue;
        while (fgets(line, sizeof line, f)) {
            if (csv_split(line, v, 64) < nh) continue;
            const char *b = v[cb];
            if (strcmp(b, "resnet50") && strcmp(b, "bert-99") && strcmp(b, "bert-99.9")) continue;
            if (strcasecmp(v[cs], ss ? "singlestream" : "offline") || strcmp(v[cd], "closed") || strcmp(v[cv], "VALID"))
                continue;
            if (!ss && !strcmp(b, "resnet50") && strcmp(v[cs], "Offline")) continue;
            if (strstr(v[csy], "MaxQ") || strstr(v[csy], "MIG") || !v[ss ? cml : cps][0]) continue;
            int nodes = atoi(v[cnn]) > 0 ? atoi(v[cnn]) : 1, per = atoi(v[cn]) > 0 ? atoi(v[cn]) : 1;
            if (strcmp(b, "resnet50") && nodes > 1) continue;
            const char *dev = NULL;
            for (size_t i = 0; i < sizeof mlperf_acc / sizeof mlperf_acc[0]; i++)
                if (!strcmp(v[ca], mlperf_acc[i].acc) && (ss || mlperf_acc[i].rn50 || strcmp(b, "resnet50")))
                    dev = mlperf_acc[i].dev;
            if (!dev) continue;
            int c = 0;
            while (c < nc && (strcmp(C[c].bench, b) || strcmp(C[c].dev, dev))) c++;
            if (c == nc) {
                if (nc == maxc) continue;
                memset(&C[nc], 0, sizeof C[nc]);
                snprintf(C[nc].bench, sizeof C[nc].bench, "%s", b);
                snprintf(C[nc].dev, sizeof C[nc].dev, "%s", dev);
                nc++;
            }
            if (C[c].n < 256) C[c].v[C[c].n++] = ss ? atof(v[cml]) / 1e6 : atof(v[cps]) / (per * nodes);
        }
        fclose(f);
    }
    return nc;
}

/* NVIDIA's ResNet-50 Offline engines run at the batch of their harness
 * config (closed/NVIDIA/configs/resnet50/Offline/__init__.py, gpu_batch_size,
 * MLPerf Inference v3.0 and v4.1): 2048 on A100 and H100, 256 on T4, and
 * small batches on the Ada parts, L4 32 and L40S 64, whose activations then
 * stay in their 48 / 96 MB L2 (docs/predict.md, "L2 residency").  A GPU
 * not listed runs at 256. */
static int64_t rn50_offline_batch(const char *dev) {
    static const struct {
        const char *dev;
        int64_t batch;
    } b[] = {{"a100-40gb", 2048}, {"a100-80gb", 2048}, {"a100-pcie-80gb", 2048}, {"h100-sxm", 2048},
             {"h100-pcie", 2048}, {"t4", 256},         {"l4", 32},               {"l40s", 64}};
    for (size_t i = 0; i < sizeof b / sizeof b[0]; i++)
        if (!strcmp(dev, b[i].dev)) return b[i].batch;
    return 256;
}

static int cmp_cell(const void *a, const void *b) {
    const mlp_cell *x = a, *y = b;
    int c = strcmp(x->bench, y->bench);
    if (c) return c;
    return x->med < y->med ? 1 : x->med > y->med ? -1 : 0;
}

static const char *const hopper_ids[] = {"h100-sxm", "h100-pcie", "h200"};
static void run_demobert(const dlp_devdb *db);

/* ---- leave-one-GPU-out for the tensor-core curves (MLPerf BERT) ----------------------------
 * Under TensorRT BERT's time is mostly GEMMs and fused attention on the
 * curves fitted on aiconfigurator's A100-SXM4-80GB and H100-SXM tables
 * (src/predict/curves_table.inc, bench/bench_curves.sh).  A row on one of
 * those dies (GA100, GH100) gets curves refitted without that GPU, exactly as
 * bench_curves.c fits them (fit_rows); a TensorRT prediction takes a
 * caller's dlp_efficiency by kernel class (GEMM -> cls[GEMM], attention ->
 * cls[MATMUL]).  fp8 attention was measured on the H100 only: without it,
 * the attention curve is the half one refitted on the A100. */
static int aic_state;          /* 0 not read, 1 read, -1 none */

static void aic_load(const char *mlperf_csv, const dlp_devdb *db) {
    if (aic_state) return;
    aic_state = -1;
    /* <shared>/data/inference_results_vX/DERIVED_mlperf_summary.csv -> <shared>/data/aiconfigurator */
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", mlperf_csv);
    for (int k = 0; k < 2; k++) {
        char *sl = strrchr(dir, '/');
        if (!sl) return;
        *sl = 0;
    }
    char pat[8192];
    const char *sys = "DERIVED_csv/aic-core/src/aiconfigurator_core/systems/data";
    snprintf(pat, sizeof pat, "%s/aiconfigurator/%s/*/gemm/trtllm/*/gemm_perf.csv", dir, sys);
    long ng = read_glob(db, pat, read_aic_gemm);
    snprintf(pat, sizeof pat, "%s/aiconfigurator/%s/*/attention/trtllm/*/context_attention_perf.csv", dir, sys);
    long na = read_glob(db, pat, read_aic_attn);
    if (ng > 0 && na > 0) aic_state = 1;
}

/* The aiconfigurator GPU on d's die, or -1 (d is in no curve fit) */
static int aic_held(const dlp_device *d) {
    for (int i = 0; i < n_devs; i++)
        if (devs[i]->chip && d->chip && !strcmp(devs[i]->chip, d->chip)) {
            for (int p = DLP__PREC_HALF; p < DLP__PREC_COUNT_; p++)
                for (size_t r = 0; r < AIC[p][KD_GEMM].n; r++)
                    if (AIC[p][KD_GEMM].r[r].dev == i) return i;
        }
    return -1;
}

/* eff = the GEMM and attention curves of dtype's precision refitted without
 * GPU `held`; 0 when a fit has no data */
static int aic_logo_eff(int dtype, int held, dlp_efficiency *eff) {
    int prec = dlp__prec_of_dtype(dtype);
    dlp__eff_fit_result g, a;
    if (fit_rows(&AIC[prec][KD_GEMM], held, &g)) return 0;
    if (fit_rows(&AIC[prec][KD_ATTN], held, &a) && fit_rows(&AIC[DLP__PREC_HALF][KD_ATTN], held, &a)) return 0;
    memset(eff, 0, sizeof *eff);
    eff->name = "aic-logo";
    eff->cls[DLP_OPC_GEMM] = g.curve;
    eff->cls[DLP_OPC_MATMUL] = a.curve;
    return 1;
}

/* sps() with a caller's curves under the tensorrt preset */
static double sps_eff(const dlp_graph *g, const dlp_device *d, const dlp_devdb *db, int dtype, int64_t batch,
                      double samples, const dlp_efficiency *eff) {
    dlp_predict_opts o = {0};
    o.dtype = dtype, o.batch = batch, o.no_learned = 1;
    dlp_predict_use_runtime(&o, DLP_RUNTIME_TENSORRT);
    o.eff = eff;
    dlp_prediction p;
    dlp_error e = {0};
    if (dlp_predict(g, d, db, &o, &p, &e)) return -1;
    double v = p.throughput_sps > 0 ? p.throughput_sps * samples / (double)batch : -1;
    dlp_prediction_clear(&p);
    return v;
}

static void run_mlperf(const char *const *paths, int np, const char *rn50, const dlp_devdb *db) {
    static mlp_cell C[64];
    int nc = read_mlperf(paths, np, C, 64, 0);
    if (!nc) {
        printf("mlperf: no DERIVED_mlperf_summary.csv; skipped\n");
        return;
    }
    for (int i = 0; i < nc; i++) C[i].med = quantile(C[i].v, (size_t)C[i].n, 0.5);
    qsort(C, (size_t)nc, sizeof C[0], cmp_cell);
    dlp_graph *g_rn = NULL, *g_bert[2] = {NULL, NULL};
    dlp_error e = {0};
    dlp_load_opts lo = {0};
    lo.batch = 256;
    if (!rn50 || dlp_graph_load(rn50, &lo, &g_rn, &e)) vskip("mlperf resnet50", "no resnet50.onnx");
    /* BERT: 256 SQuAD features without their padding (mlperf_bert.c) */
    dlp_llm_config c;
    int64_t bb = 0, bs = 0;
    if (!squad_shape(256, &bb, &bs)) vskip("mlperf bert", "no SQuAD histogram");
    else if (dlp_llm_catalogue_get("bert-large-uncased", &c, &e) || dlp_llm_build(&c, bb, bs, DLP_QT_FP16, &g_bert[0], NULL, &e))
        vskip("mlperf bert", e.msg);
    /* what a TensorRT engine runs: the mask inside the fused attention
     * (the builder's engine form); g_bert[0], the eager form, for eager */
    else if ((c.engine_form = 1, dlp_llm_build(&c, bb, bs, DLP_QT_FP16, &g_bert[1], NULL, &e)))
        vskip("mlperf bert", e.msg);
    for (int i = 0; i < nc; i++) {
        int bert = strcmp(C[i].bench, "resnet50") != 0;
        const dlp_device *d = dlp_devdb_find(db, C[i].dev);
        dlp_graph *g = bert ? g_bert[1] : g_rn;
        if (!d || !g) continue;
        /* the graph's batch is fixed at load: ResNet-50 again at the GPU's
         * harness batch (the 256 load only says the file is there) */
        dlp_graph *g_b = NULL;
        if (!bert) {
            lo.batch = rn50_offline_batch(d->id);
            if (dlp_graph_load(rn50, &lo, &g_b, &e)) continue;
            g = g_b;
        }
        int hop = 0;
        for (int k = 0; k < 3; k++) hop |= !strcmp(C[i].dev, hopper_ids[k]);
        int dt = !bert || !strcmp(C[i].bench, "bert-99") || hop ? DLP_DT_INT8 : DLP_DT_FLOAT16;
        double m = C[i].med;
        /* mlperf_bert.c's sps(): the tensorrt preset and the eager default */
        /* eager PyTorch has no int8 convolution (dlp_predict refuses it): no
         * eager column for ResNet-50 */
        int64_t gb = bert ? bb : rn50_offline_batch(d->id);
        double t = sps(g, d, db, dt, gb, bert ? 256 : (double)gb, 1), ea = bert && g_bert[0] ? sps(g_bert[0], d, db, dt, gb, 256, 0) : -1;
        vrow *r = vpush("mlperf");
        snprintf(r->gpu, sizeof r->gpu, "%s", d->id);
        snprintf(r->model, sizeof r->model, "%s (n=%d)", C[i].bench, C[i].n);
        snprintf(r->family, sizeof r->family, "%s", bert ? "bert (transformer)" : "resnet");
        snprintf(r->ver, sizeof r->ver, "TensorRT");
        r->dtype = dt, r->batch = bert ? 256 : (int)gb, r->img = bert ? 384 : 224;
        /* BERT: LOGO refits the tensor-core curves without the row's die
         * (aic_logo_eff); a GPU on no die of the fit has LOGO = all-GPU.
         * ResNet-50's convolutions are on the pure roofline. */
        r->meas = 256e3 / m, r->pred = t > 0 ? 256e3 / t : NAN, r->logo = r->pred;
        r->logo_kind = bert ? 1 : 2;
        if (bert) aic_load(paths[0], db);
        int held = bert && aic_state == 1 ? aic_held(d) : -1;
        dlp_efficiency le;
        if (held >= 0) {
            double tl = aic_logo_eff(dt, held, &le) ? sps_eff(g, d, db, dt, gb, 256, &le) : -1;
            r->logo = tl > 0 ? 256e3 / tl : NAN;
            r->logo_kind = 0;
        }
        r->extra = ea > 0 ? 256e3 / ea : NAN;
        r->extra_meas = m;
        r->aim = !bert;        /* BERT: its work rests on a histogram of another split (mlperf_bert.c) */
        dlp_graph_free(g_b);
    }
    dlp_graph_free(g_rn);
    dlp_graph_free(g_bert[0]);
    dlp_graph_free(g_bert[1]);
    run_demobert(db);
}

/* ---- MLPerf Inference SingleStream: one sample per query --------------------------------- */

/* Issue 23's check of the kernel floor and the band at batch 1: the mean
 * latency of every valid closed SingleStream result (host I/O included,
 * so above the device time) against the tensorrt preset's latency and
 * band.  BERT's samples have their own lengths: the predicted mean is the
 * histogram-weighted mean over 12 buckets of 32 tokens (mlperf_bert.c's
 * squad_hist), each timed at batch 1 at its bucket's mean length. */
typedef struct {
    char bench[12], dev[24];
    int n;
    double meas, pred, lo, hi;       /* ms */
} ss_row;
static ss_row SS[64];
static int nSS;

enum { SS_BUCKETS = 12 };

/* TensorRT latency (ms) and band of the mean sample; 0 on failure */
static int ss_predict(dlp_graph *const *g, const double *w, int ng, const dlp_device *d, const dlp_devdb *db,
                      int dt, ss_row *r) {
    r->pred = r->lo = r->hi = 0;
    for (int k = 0; k < ng; k++) {
        if (!g[k] || w[k] <= 0) continue;
        dlp_predict_opts o = {0};
        o.dtype = dt, o.batch = 1, o.no_learned = 1;
        dlp_predict_use_runtime(&o, DLP_RUNTIME_TENSORRT);
        dlp_prediction p;
        dlp_error e = {0};
        if (dlp_predict(g[k], d, db, &o, &p, &e)) return 0;
        r->pred += w[k] * p.latency_ms, r->lo += w[k] * p.band_lo_ms, r->hi += w[k] * p.band_hi_ms;
        dlp_prediction_clear(&p);
    }
    return r->pred > 0;
}

static void run_mlperf_ss(const char *const *paths, int np, const char *rn50, const dlp_devdb *db) {
    static mlp_cell C[64];
    int nc = read_mlperf(paths, np, C, 64, 1);
    if (!nc) return;
    for (int i = 0; i < nc; i++) C[i].med = quantile(C[i].v, (size_t)C[i].n, 0.5);
    qsort(C, (size_t)nc, sizeof C[0], cmp_cell);
    dlp_graph *g_rn = NULL, *g_bert[SS_BUCKETS] = {NULL};
    double w_bert[SS_BUCKETS] = {0}, one = 1;
    dlp_error e = {0};
    dlp_load_opts lo = {0};
    lo.batch = 1;
    if (!rn50 || dlp_graph_load(rn50, &lo, &g_rn, &e)) g_rn = NULL;
    dlp_llm_config c;
    int have_bert = !dlp_llm_catalogue_get("bert-large-uncased", &c, &e);
    c.engine_form = 1;   /* TensorRT's graph: the mask inside the fused attention */
    double tot = 0;
    for (int i = 0; i < 384; i++) tot += squad_hist[i];
    for (int k = 0; have_bert && k < SS_BUCKETS; k++) {
        double n = 0, s1 = 0;
        for (int i = 32 * k; i < 32 * k + 32; i++) n += squad_hist[i], s1 += squad_hist[i] * (i + 1.0);
        if (n <= 0) continue;
        w_bert[k] = n / tot;
        if (dlp_llm_build(&c, 1, (int64_t)llround(s1 / n), DLP_QT_FP16, &g_bert[k], NULL, &e)) g_bert[k] = NULL;
    }
    for (int i = 0; i < nc && nSS < 64; i++) {
        int bert = strcmp(C[i].bench, "resnet50") != 0;
        const dlp_device *d = dlp_devdb_find(db, C[i].dev);
        if (!d || (!bert && !g_rn)) continue;
        int hop = 0;
        for (int k = 0; k < 3; k++) hop |= !strcmp(C[i].dev, hopper_ids[k]);
        int dt = !bert || !strcmp(C[i].bench, "bert-99") || hop ? DLP_DT_INT8 : DLP_DT_FLOAT16;
        ss_row *r = &SS[nSS];
        snprintf(r->bench, sizeof r->bench, "%s", C[i].bench);
        snprintf(r->dev, sizeof r->dev, "%s", C[i].dev);
        r->n = C[i].n, r->meas = C[i].med;
        if (bert ? ss_predict(g_bert, w_bert, SS_BUCKETS, d, db, dt, r) : ss_predict(&g_rn, &one, 1, d, db, dt, r))
            nSS++;
    }
    dlp_graph_free(g_rn);
    for (int k = 0; k < SS_BUCKETS; k++) dlp_graph_free(g_bert[k]);
}

/* ---- TensorRT demoBERT: BERT-Large at a fixed length (NVIDIA's own table) ------------------
 * bench/trt_demobert.csv (NVIDIA/TensorRT demo/BERT/README.md): device time
 * of padded batches on an A100-40GB and a T4, int8 and fp16.  Never in a
 * fit; the A100 die is in the tensor-core curve fit (its LOGO refits without
 * it), the T4 in none.  "pure" is the tensorrt preset before it took the
 * curves (every kernel on the pure roofline). */
typedef struct {
    char gpu[24];
    int seq, batch, dtype;
    double meas, pred, pure, logo;   /* ms */
} db_row;
static db_row DB_[96];
static int nDB;

static double trt_ms(const dlp_graph *g, const dlp_device *d, const dlp_devdb *db, int dt, int64_t b, int pure,
                     const dlp_efficiency *eff) {
    dlp_predict_opts o = {0};
    o.dtype = dt, o.batch = b, o.no_learned = 1;
    dlp_predict_use_runtime(&o, DLP_RUNTIME_TENSORRT);
    o.pure_roofline = pure, o.eff = eff;
    dlp_prediction p;
    dlp_error e = {0};
    if (dlp_predict(g, d, db, &o, &p, &e)) return NAN;
    double v = p.latency_ms;
    dlp_prediction_clear(&p);
    return v;
}

static void run_demobert(const dlp_devdb *db) {
    FILE *f = fopen("bench/trt_demobert.csv", "r");
    if (!f) return;
    dlp_llm_config c;
    dlp_error e = {0};
    if (dlp_llm_catalogue_get("bert-large-uncased", &c, &e)) {
        fclose(f);
        return;
    }
    c.engine_form = 1;   /* TensorRT's graph: the mask inside the fused attention */
    char line[512], gpu[24];
    int seq, batch;
    double ms[2];
    while (fgets(line, sizeof line, f) && nDB + 2 <= 96) {
        if (line[0] == '#' || sscanf(line, "%23[^,],%d,%d,%lf,%lf", gpu, &seq, &batch, &ms[0], &ms[1]) != 5) continue;
        const dlp_device *d = dlp_devdb_find(db, gpu);
        dlp_graph *g = NULL;
        if (!d || dlp_llm_build(&c, batch, seq, DLP_QT_FP16, &g, NULL, &e)) continue;
        int held = aic_state == 1 ? aic_held(d) : -1;
        for (int k = 0; k < 2; k++) {
            db_row *r = &DB_[nDB++];
            snprintf(r->gpu, sizeof r->gpu, "%s", gpu);
            r->seq = seq, r->batch = batch, r->dtype = k ? DLP_DT_FLOAT16 : DLP_DT_INT8, r->meas = ms[k];
            r->pred = trt_ms(g, d, db, r->dtype, batch, 0, NULL);
            r->pure = trt_ms(g, d, db, r->dtype, batch, 1, NULL);
            dlp_efficiency le;
            r->logo = held >= 0 && aic_logo_eff(r->dtype, held, &le) ? trt_ms(g, d, db, r->dtype, batch, 0, &le) : r->pred;
        }
        dlp_graph_free(g);
    }
    fclose(f);
}

/* ---- Zeus: ResNet-50 training (fp32) --------------------------------------------------- */

static void run_zeus(const char *dir, const char *rn50, const dlp_devdb *db) {
    static const char *const gpus[][2] = {{"v100", "v100-pcie-32gb"}, {"a40", "a40"}, {"p100", "p100"},
                                          {"rtx6000", "quadro-rtx6000"}};
    char path[2048];
    int any = 0;
    for (size_t gi = 0; gi < 4; gi++) {
        snprintf(path, sizeof path, "%s/summary_power_%s.csv", dir, gpus[gi][0]);
        FILE *f = fopen(path, "r");
        const dlp_device *d = dlp_devdb_find(db, gpus[gi][1]);
        if (!f || !d) {
            if (f) fclose(f);
            continue;
        }
        char line[1024], hl[1024], *h[16], *v[16];
        double best_pl[2] = {-1, -1}, epoch[2] = {0, 0}, watts[2] = {0, 0};
        const int bs[2] = {32, 128};
        if (fgets(hl, sizeof hl, f)) {
            int nh = csv_split(hl, h, 16);
            int cn = col(h, nh, "network"), cb = col(h, nh, "batch_size"), cp = col(h, nh, "power_limit");
            int ct = col(h, nh, "time_per_epoch"), cw = col(h, nh, "average_power");
            while (fgets(line, sizeof line, f)) {
                if (csv_split(line, v, 16) < nh || strcmp(v[cn], "resnet50")) continue;
                for (int k = 0; k < 2; k++)
                    if (atoi(v[cb]) == bs[k] && atof(v[cp]) > best_pl[k])
                        best_pl[k] = atof(v[cp]), epoch[k] = atof(v[ct]), watts[k] = atof(v[cw]);
            }
        }
        fclose(f);
        for (int k = 0; k < 2; k++) {
            if (best_pl[k] < 0) continue;
            dlp_graph *g = NULL;
            dlp_error e = {0};
            dlp_load_opts lo = {0};
            lo.batch = bs[k];
            if (!rn50 || dlp_graph_load(rn50, &lo, &g, &e)) continue;
            int kind;
            const dlp_efficiency *le = logo_for(d, &kind);
            double pr[2] = {NAN, NAN}, pw = NAN;
            for (int w = 0; w < 2; w++) {
                dlp_predict_opts o = {0};
                o.mode = DLP_PREDICT_TRAIN, o.batch = bs[k];
                o.optimizer = DLP_OPTIM_ADAM;   /* Zeus: Adadelta, two state buffers like Adam */
                o.eff = w ? le : NULL;
                if (w && !le) {
                    pr[1] = pr[0];
                    break;
                }
                dlp_prediction p;
                /* LOGO: the fp32 wave model (the 1x1 convs' GEMMs) refitted
                 * without the row's GPU too, as the NeuSight rows do */
                dlp__wave_params_override(w ? logo_waves_for(d) : NULL);
                dlp_status st = dlp_predict(g, d, db, &o, &p, &e);
                dlp__wave_params_override(NULL);
                if (st) break;
                pr[w] = p.step_ms;
                if (!w) pw = p.power_w;
                dlp_prediction_clear(&p);
            }
            dlp_graph_free(g);
            vrow *r = vpush("zeus");
            snprintf(r->gpu, sizeof r->gpu, "%s", d->id);
            snprintf(r->model, sizeof r->model, "resnet50");
            snprintf(r->family, sizeof r->family, "resnet");
            snprintf(r->ver, sizeof r->ver, "zeus eager");
            r->dtype = DLP_DT_FLOAT, r->train = 1, r->memfmt = DLP_MEMFMT_NCHW, r->batch = bs[k], r->img = 224;
            r->meas = epoch[k] / (1281167.0 / bs[k]) * 1e3;
            r->pred = pr[0], r->logo = pr[1], r->logo_kind = kind;
            r->extra = pw, r->extra_meas = watts[k];
            r->aim = 0;        /* epoch time includes the input pipeline; Adadelta predicted as Adam */
            any = 1;
        }
    }
    if (!any) printf("zeus: no ResNet-50 traces under %s; skipped\n", dir);
}

/* ---- pooled report ---------------------------------------------------------------------- */

static double vape(const vrow *r, int logo) { return fabs((logo ? r->logo : r->pred) - r->meas) / r->meas; }

typedef void (*vkeyfn)(const vrow *, char *, size_t);
static void vk_all(const vrow *r, char *b, size_t n) { snprintf(b, n, "all rows"), (void)r; }
static void vk_set(const vrow *r, char *b, size_t n) { snprintf(b, n, "%s", r->set); }
static void vk_gpu(const vrow *r, char *b, size_t n) { snprintf(b, n, "%s", r->gpu); }
static void vk_family(const vrow *r, char *b, size_t n) { snprintf(b, n, "%s", r->family); }
static void vk_dtype(const vrow *r, char *b, size_t n) { snprintf(b, n, "%s", dt_short(r->dtype)); }
static void vk_mode(const vrow *r, char *b, size_t n) { snprintf(b, n, "%s", r->train ? "train" : "infer"); }
static void vk_fmt(const vrow *r, char *b, size_t n) {
    snprintf(b, n, "%s", r->memfmt < 0 ? "n/a (transformer or TensorRT)" : r->memfmt == DLP_MEMFMT_NHWC ? "nhwc" : "nchw");
}
static void vk_ver(const vrow *r, char *b, size_t n) { snprintf(b, n, "%s", r->ver); }
static void vk_file(const vrow *r, char *b, size_t n) { snprintf(b, n, "%s", r->file); }
static void vk_match(const vrow *r, char *b, size_t n) { snprintf(b, n, "%s", r->match); }
static void vk_aim(const vrow *r, char *b, size_t n) {
    snprintf(b, n, "%s", r->aim ? "under the <=10% aim" : "outside the aim");
}
static void vk_logo(const vrow *r, char *b, size_t n) {
    static const char *const k[3] = {"GPU in the kernel fit (LOGO = refit without it)",
                                     "GPU in no fit (LOGO = all-GPU)", "pure roofline (no curves to leave out)"};
    snprintf(b, n, "%s", k[r->logo_kind]);
}

static int vsel_set(const vrow *r, const char *set) { return !set || !strcmp(r->set, set); }

static void vgroup(const char *title, vkeyfn key, const char *set) {
    OUT("\n| %s | rows | MAPE all-GPU | MAPE LOGO | Acc(10%%) | median meas./pred. | <= 10%% |\n"
        "|---|---:|---:|---:|---:|---:|:---:|\n",
        title);
    char seen[128][64];
    int ns = 0;
    double *ratios = malloc(sizeof(double) * (size_t)(nV ? nV : 1));
    for (int i = 0; i < nV; i++) {
        if (!vsel_set(&V[i], set)) continue;
        char k[64], kj[64];
        key(&V[i], k, sizeof k);
        int dup = 0;
        for (int j = 0; j < ns; j++) dup |= !strcmp(seen[j], k);
        if (dup || ns == 128) continue;
        snprintf(seen[ns++], 64, "%s", k);
        double s = 0, sl = 0;
        int n = 0, acc = 0;
        for (int j = 0; j < nV; j++) {
            if (!vsel_set(&V[j], set)) continue;
            key(&V[j], kj, sizeof kj);
            if (strcmp(kj, k)) continue;
            s += vape(&V[j], 0), sl += vape(&V[j], 1);
            acc += vape(&V[j], 0) <= 0.10;
            ratios[n++] = V[j].meas / V[j].pred;
        }
        OUT("| %s | %d | %.1f%% | %.1f%% | %.0f%% | %.2f | %s |\n", k, n, 100 * s / n, 100 * sl / n, 100.0 * acc / n,
            quantile(ratios, (size_t)n, 0.5), s / n <= 0.10 ? "yes" : "no");
    }
    free(ratios);
}

static void vgroups(const char *set) {
    if (!set) vgroup("data set", vk_set, set);
    vgroup("overall", vk_all, set);
    vgroup("aim", vk_aim, set);
    vgroup("GPU", vk_gpu, set);
    vgroup("family", vk_family, set);
    vgroup("dtype", vk_dtype, set);
    vgroup("mode", vk_mode, set);
    vgroup("memory format", vk_fmt, set);
    vgroup("runtime / PyTorch version", vk_ver, set);
    vgroup("leave-one-GPU-out", vk_logo, set);
    if (set && !strcmp(set, "timm")) {
        vgroup("timm file", vk_file, set);
        vgroup("timm -> torchvision match", vk_match, set);
    }
}

static int count_set(const char *set) {
    int n = 0;
    for (int i = 0; i < nV; i++) n += vsel_set(&V[i], set);
    return n;
}

/* The MLPerf SingleStream and TensorRT demoBERT tables (run_mlperf_ss,
 * run_demobert): checks outside the pooled rows. */
static void mlperf_extra_report(void) {
    if (nSS) {
        OUT("\n## MLPerf Inference SingleStream (TensorRT), batch 1: mean latency\n\n"
            "Measured = median over submissions of the mean query latency (host I/O included); predicted = the "
            "tensorrt preset's device time and band (BERT: mean over the SQuAD lengths).\n\n"
            "| benchmark | GPU | measured ms | predicted ms | err | band ms | measured in band |\n"
            "|---|---|---:|---:|---:|---|:---:|\n");
        double ape = 0;
        int in = 0;
        for (int i = 0; i < nSS; i++) {
            const ss_row *r = &SS[i];
            int ok = r->lo <= r->meas && r->meas <= r->hi;
            in += ok, ape += fabs(r->pred / r->meas - 1);
            OUT("| %s (n=%d) | %s | %.3f | %.3f | %+.0f%% | %.3f .. %.3f | %s |\n", r->bench, r->n, r->dev, r->meas,
                r->pred, 100 * (r->pred / r->meas - 1), r->lo, r->hi, ok ? "yes" : "no");
        }
        OUT("\n%d rows, MAPE %.1f%%, measured inside the band: %d of %d\n", nSS, 100 * ape / nSS, in, nSS);
    }
    if (nDB) {
        OUT("\n## TensorRT demoBERT: BERT-Large at a fixed length (`bench/trt_demobert.csv`)\n\n"
            "NVIDIA's own latency table (padded batches, device time); never in a fit.  pure = the tensorrt "
            "preset with every kernel on the pure roofline (before it took the curves); LOGO = GEMM and "
            "attention curves refitted without the A100 die (the T4 is in no fit).\n\n"
            "| GPU | dtype | seq | batch | measured ms | predicted ms | err | pure ms | err | LOGO ms | err |\n"
            "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (int i = 0; i < nDB; i++) {
            const db_row *r = &DB_[i];
            OUT("| %s | %s | %d | %d | %.2f | %.2f | %+.0f%% | %.2f | %+.0f%% | %.2f | %+.0f%% |\n", r->gpu,
                dt_short(r->dtype), r->seq, r->batch, r->meas, r->pred, 100 * (r->pred / r->meas - 1), r->pure,
                100 * (r->pure / r->meas - 1), r->logo, 100 * (r->logo / r->meas - 1));
        }
        OUT("\n| GPU | dtype | rows | MAPE predicted | MAPE pure | MAPE LOGO |\n|---|---|---:|---:|---:|---:|\n");
        for (int i = 0; i < nDB; i++) {
            int first = 1;
            for (int j = 0; j < i; j++)
                first &= strcmp(DB_[j].gpu, DB_[i].gpu) || DB_[j].dtype != DB_[i].dtype;
            if (!first) continue;
            double a = 0, b = 0, l = 0;
            int n = 0;
            for (int j = i; j < nDB; j++) {
                const db_row *r = &DB_[j];
                if (strcmp(r->gpu, DB_[i].gpu) || r->dtype != DB_[i].dtype) continue;
                a += fabs(r->pred / r->meas - 1), b += fabs(r->pure / r->meas - 1), l += fabs(r->logo / r->meas - 1);
                n++;
            }
            OUT("| %s | %s | %d | %.1f%% | %.1f%% | %.1f%% |\n", DB_[i].gpu, dt_short(DB_[i].dtype), n, 100 * a / n,
                100 * b / n, 100 * l / n);
        }
    }
}

/* NCHW / NHWC time ratio by family: each timm inference row in NCHW
 * paired with the NHWC row of the same model, PyTorch version, image size
 * and batch.  The ratio cancels what both layouts share (the conv kernels'
 * level, the element-wise passes), so it isolates the layout's own cost:
 * cuDNN's NCHW <-> NHWC conversions around the tensor-core convs, the NCHW
 * BatchNorm and depthwise kernels (docs/predict.md, "Whole-model checks"). */
static int timm_pair(const vrow *a, const vrow *b) {
    return !strcmp(b->set, "timm") && !b->train && b->memfmt == DLP_MEMFMT_NHWC && !strcmp(a->model, b->model) &&
           !strcmp(a->ver, b->ver) && a->img == b->img && a->batch == b->batch;
}

static void timm_layout_report(void) {
    OUT("\n### timm: NCHW / NHWC time ratio (inference, same model, version, image size and batch)\n\n"
        "| family | pairs | measured (median) | predicted (median) | median pred./meas. of the ratio |\n"
        "|---|---:|---:|---:|---:|\n");
    char seen[32][24];
    int ns = 0;
    double *m = malloc(sizeof(double) * (size_t)(nV ? nV : 1)), *p = malloc(sizeof(double) * (size_t)(nV ? nV : 1));
    double *q = malloc(sizeof(double) * (size_t)(nV ? nV : 1));
    if (!m || !p || !q) {
        free(m), free(p), free(q);
        return;
    }
    for (int i = 0; i < nV; i++) {
        const vrow *r = &V[i];
        if (strcmp(r->set, "timm") || r->train || r->memfmt != DLP_MEMFMT_NCHW) continue;
        int dup = 0;
        for (int j = 0; j < ns; j++) dup |= !strcmp(seen[j], r->family);
        if (dup || ns == 32) continue;
        snprintf(seen[ns++], sizeof seen[0], "%s", r->family);
        int n = 0;
        for (int a = 0; a < nV; a++) {
            const vrow *x = &V[a];
            if (strcmp(x->set, "timm") || x->train || x->memfmt != DLP_MEMFMT_NCHW || strcmp(x->family, r->family))
                continue;
            for (int b = 0; b < nV; b++)
                if (timm_pair(x, &V[b]) && V[b].meas > 0 && V[b].pred > 0) {
                    m[n] = x->meas / V[b].meas, p[n] = x->pred / V[b].pred, q[n] = p[n] / m[n];
                    n++;
                    break;
                }
        }
        if (n)
            OUT("| %s | %d | %.3f | %.3f | %.3f |\n", r->family, n, quantile(m, (size_t)n, 0.5),
                quantile(p, (size_t)n, 0.5), quantile(q, (size_t)n, 0.5));
    }
    free(m), free(p), free(q);
}

static void vision_report(FILE *mdf, int neusight, int timm, int mlperf, int zeus) {
    md = mdf;
    if (md)
        fprintf(md,
                "# End-to-end checks: NeuSight, timm (RTX 3090), MLPerf Inference, Zeus\n\n"
                "GENERATED by `bench/bench_e2e.sh --all` (bench/bench_e2e.c, bench/e2e_vision.c); do not edit.\n\n"
                "## Protocol\n\n"
                "Every row is one measured time and one `dlp_predict` time, both in ms; error = predicted / "
                "measured - 1, MAPE = mean |error|; Acc(10%%) = share of rows within 10%%; median meas./pred. > 1 "
                "means under-predicted.  \"MAPE all-GPU\" uses the shipped calibration; \"MAPE LOGO\" refits the "
                "curves on NeuSight's kernel tables without the row's GPU (only the A100-PCIe 40/80 GB, P100, P4, T4 "
                "and V100 are in that fit: for every other GPU, the RTX 3090 of timm included, LOGO = all-GPU, and "
                "rows predicted by a pure roofline have no curves to leave out).\n\n"
                "* **NeuSight** (`docs/results_e2e.md`): fp32 PyTorch 2.1 eager transformers, inference = one forward, "
                "training = forward + backward (no optimizer step).\n"
                "* **timm** (`../shared/data/pytorch-image-models/results`, RTX 3090 only; the other GPUs of the set "
                "are held back and never used): `benchmark.py` with `--amp` (autocast fp16 on fp32 weights), "
                "`cudnn.benchmark`, `global_pool='fast'`; NHWC files add `--channels-last`.  Inference: eval mode "
                "under `torch.no_grad()`, measured = `infer_step_time` = ms per forward of `infer_batch_size` "
                "images at `infer_img_size`; predicted = `latency_ms`, dtype fp16, inference.  Training: train "
                "mode, `CrossEntropyLoss`, `optimizer.zero_grad()` outside the timed step, then forward, backward "
                "and `optimizer.step()` of timm's default `--opt sgd` (momentum 0.9, nesterov); measured = "
                "`train_step_time`; predicted = `step_ms`, mode train, `DLP_OPTIM_SGD_MOMENTUM`.  Runtime: "
                "`pt113`/`pt112` files -> `DLP_RUNTIME_EAGER1X`, `pt210`/`pt240` -> `DLP_RUNTIME_EAGER`, with the "
                "cuDNN each wheel ships (`cudnn` 8 for `pt11x`/`pt210`, 9 for `pt240`; docs/predict.md); memory "
                "format NHWC for `nhwc` files.  Graphs: the torchvision architecture of the same network "
                "(`bench/timm_map.csv`, \"same\" or \"close\" and why), weight-free ONNX exports in "
                "`data/models/torchvision/` (`bench/export_torchvision.py`; symbolic `height`/`width` bound to "
                "the row's image size) or `../shared/models/torchvision/`.  timm models without a torchvision "
                "architecture are not rows.\n"
                "* **MLPerf Inference** (closed, Offline, v2.1-v4.1, TensorRT): per GPU = median over submissions "
                "of samples/s / accelerators (no MaxQ, MIG or multi-node); ResNet-50 int8 on torchvision's "
                "ResNet-50, BERT-large (`bench/mlperf_bert.c`: 256 SQuAD v1.1 features without their padding, "
                "as NVIDIA's harness runs them, the graph of the same GEMM tokens and attention work; bert-99 "
                "int8, bert-99.9 fp16, FP8 on Hopper predicted as int8) at batch 256, ResNet-50 at the batch of "
                "NVIDIA's harness config (gpu_batch_size: 2048 A100/H100, 256 T4, 32 L4, 64 L40S), with the tensorrt preset "
                "(`DLP_RUNTIME_TENSORRT`: fused epilogues, tensor-core GEMMs and attention on the TensorRT-LLM "
                "curves, everything else on the pure roofline, no launch gaps); time = 256 / throughput.  "
                "SingleStream: batch 1, mean latency.\n"
                "* **Zeus** (NSDI'23): ResNet-50 ImageNet training fp32 at the highest power limit, batch 32 and "
                "128; step = epoch time / (1281167 / batch); Adadelta predicted as Adam (same state size).\n\n"
                "**The <= 10%% aim** covers the rows whose runtime dlperf models and whose graph is the measured "
                "network: NeuSight, timm rows mapped \"same\", MLPerf ResNet-50.  Outside it: timm \"close\" "
                "rows, MLPerf BERT (its work depends on a token-length histogram of SQuAD's training split standing "
                "in for the dev split it runs) and Zeus (epoch times include the input pipeline).\n");
    OUT("\n== end-to-end checks: %d rows (neusight %d, timm %d, mlperf %d, zeus %d); skipped %d ==\n", nV,
        count_set("neusight"), count_set("timm"), count_set("mlperf"), count_set("zeus"), n_vskipped);
    OUT("\nSkipped rows: %s\n", vskipped[0] ? vskipped : "none");
    if (timm && count_set("timm")) {
        OUT("\n## timm, RTX 3090, AMP fp16\n");
        if (md) {
            fprintf(md, "\n| model | file | graph (match) | img | batch | measured ms | predicted ms | err | LOGO ms | aim |\n"
                        "|---|---|---|---:|---:|---:|---:|---:|---:|:---:|\n");
            for (int i = 0; i < nV; i++) {
                const vrow *r = &V[i];
                if (strcmp(r->set, "timm")) continue;
                fprintf(md, "| %s | %s | %s (%s) | %d | %d | %.1f | %.1f | %+.0f%% | %.1f | %s |\n", r->model, r->file,
                        r->onnx, r->match, r->img, r->batch, r->meas, r->pred, 100 * (r->pred / r->meas - 1), r->logo,
                        r->aim ? "yes" : "");
            }
        }
        vgroups("timm");
        timm_layout_report();
    }
    if (mlperf && count_set("mlperf")) {
        OUT("\n## MLPerf Inference offline (TensorRT), BERT batch 256, ResNet-50 at the harness batch\n\n"
            "| benchmark | GPU | dtype | batch | MLPerf samples/s per GPU | tensorrt preset | err (samples/s) | err (time) | "
            "LOGO | err (time) | eager calibrated | err (samples/s) | aim |\n"
            "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|:---:|\n");
        for (int i = 0; i < nV; i++) {
            const vrow *r = &V[i];
            if (strcmp(r->set, "mlperf")) continue;
            OUT("| %s | %s | %s | %d | %.0f | %.0f | %+.0f%% | %+.0f%% | %.0f | %+.0f%% | %.0f | %+.0f%% | %s |\n", r->model,
                r->gpu, dt_short(r->dtype), r->batch, r->extra_meas, 256e3 / r->pred, 100 * (r->meas / r->pred - 1),
                100 * (r->pred / r->meas - 1), 256e3 / r->logo, 100 * (r->logo / r->meas - 1), 256e3 / r->extra,
                100 * (r->meas / r->extra - 1), r->aim ? "yes" : "");
        }
        vgroups("mlperf");
    }
    if (mlperf) mlperf_extra_report();
    if (zeus && count_set("zeus")) {
        OUT("\n## Zeus: ResNet-50 training fp32\n\n"
            "| GPU | batch | measured ms | calibrated ms | err | LOGO ms | err | measured W | predicted W | err |\n"
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (int i = 0; i < nV; i++) {
            const vrow *r = &V[i];
            if (strcmp(r->set, "zeus")) continue;
            OUT("| %s | %d | %.1f | %.1f | %+.0f%% | %.1f | %+.0f%% | %.0f | %.0f | %+.0f%% |\n", r->gpu, r->batch,
                r->meas, r->pred, 100 * (r->pred / r->meas - 1), r->logo, 100 * (r->logo / r->meas - 1),
                r->extra_meas, r->extra, 100 * (r->extra / r->extra_meas - 1));
        }
        vgroups("zeus");
    }
    if (neusight && count_set("neusight")) {
        OUT("\n## NeuSight (per-row table: docs/results_e2e.md)\n");
        vgroups("neusight");
    }
    if ((neusight + timm + mlperf + zeus) > 1) {
        OUT("\n## Pooled: every data set\n");
        vgroups(NULL);
    }
}
