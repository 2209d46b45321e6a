/*
 * bench_vidur.c — dlperf's per-operator times against vidur's kernel
 * profiles (docs/llm.md, "vidur per-operator check"), one command:
 *
 *   bench_vidur DATA_DIR       (bench/bench_llm.sh vidur)
 *
 * vidur (github.com/microsoft/vidur, MIT; DATA_DIR/vidur/SOURCE.txt) times
 * each operator of a transformer layer with CUDA events / Kineto, fp16, at a
 * token count and tensor-parallel degree, on A100 (80 GB SXM), H100 (SXM)
 * and A40; its network profiles time NCCL all_reduce and send/recv by
 * message size and GPU count.  Its times are the kernels' GPU time.
 *
 * What each vidur row is compared with is what the serving model charges
 * for it: dlp__llm_iter_parts (llm_serve.c) runs the serving estimate's own
 * profile, setup and iteration over the row's tokens and returns the time
 * each term took, so this file does no timing of its own:
 *   attn_pre_proj   one layer's q, k and v matrices (the profile's entries
 *                   of those shapes, each entry's time over its count)
 *   attn_post_proj  the o matrix;  mlp_up_proj: gate + up (gated) or up;
 *   mlp_down_proj   the down matrix
 *   elementwise     the profile's other kernels per layer (norms, rotary,
 *                   activation, residuals: the per-token bytes and launch
 *                   floors, over the attention layers) against vidur's
 *                   input_layernorm + post_attention_layernorm + attn_rope
 *                   + mlp_act + add, add counted twice where the block has
 *                   two residual adds (vidur times the second only; the
 *                   first is the same kernel on the same shape)
 *   attn_prefill    vidur's older A100 attention profile (history folder):
 *                   a chunk of p tokens after kv cached ones, as the
 *                   iteration's prefill attention of p tokens of prompts
 *                   2 kv + p long (whose mean causal context, half the
 *                   prompt, is the chunk's: kv + p / 2), per layer
 *   attn_decode     b sequences at context kv, per layer
 *   all_reduce      dlp__llm_coll_s (the serving model's collective)
 * Models are looked up in the catalogue by vidur's names; a missing one is
 * refused with its reason, as are send/recv (no point-to-point in the
 * serving model) and collectives over several nodes at <= 8 GPUs (the model
 * puts up to 8 GPUs in one NVLink domain).  Scores per group: MAPE,
 * Acc(10 %) (share within +-10 %) and the median of predicted / measured.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dlperf.h"
#include "llm/llm_internal.h"
#include "util/human.h"
#include "bench_csv.h"

enum { OP_PRE = 0, OP_POST, OP_UP, OP_DOWN, OP_ELEM, OP_ATTN_PF, OP_ATTN_DEC, OP_ALLREDUCE, OP_N };
static const char *const op_name[OP_N] = {"attn_pre_proj", "attn_post_proj", "mlp_up_proj",  "mlp_down_proj",
                                          "elementwise",   "attn_prefill",   "attn_decode", "all_reduce"};

/* vidur's compute GPUs and the catalogue devices they are */
static const struct {
    const char *gpu, *dev;
} GPUS[] = {{"a100", "a100-80gb"}, {"h100", "h100-sxm"}, {"a40", "a40"}};
#define N_GPU 3
/* vidur's network systems: DGX boards on NVSwitch; "pairwise_nvlink" are
 * PCIe boards bridged in pairs (Azure NC A100 v4 / NC H100 v5) */
static const struct {
    const char *sys, *dev;
} NETS[] = {{"a100_dgx", "a100-80gb"}, {"h100_dgx", "h100-sxm"}, {"a100_pairwise_nvlink", "a100-pcie-80gb"},
            {"h100_pairwise_nvlink", "h100-pcie"}, {"a40_pairwise_nvlink", "a40"}};
#define N_NET 5

/* vidur's model folders (org/name) */
static const char *const MODELS[] = {"microsoft/phi-2",
                                     "meta-llama/Llama-2-7b-hf",
                                     "meta-llama/Llama-2-70b-hf",
                                     "meta-llama/Meta-Llama-3-8B",
                                     "meta-llama/Meta-Llama-3-70B",
                                     "Qwen/Qwen-72B",
                                     "internlm/internlm-20b",
                                     "codellama/CodeLlama-34b-Instruct-hf"};
#define N_MODEL 8

/* one compared value */
typedef struct {
    unsigned char op, gpu, model, tp, bucket;
    unsigned char one;          /* 1: timed on a one-layer copy of the config */
    double pred, meas;          /* ms */
} sample_t;

static sample_t *S;
static int nS, capS;
static dlp_devdb *db;

/* refusals by reason */
#define MAX_WHY 24
static char why_text[MAX_WHY][160];
static long why_n[MAX_WHY];
static int n_why;

static void refuse(const char *why, long n) {
    for (int i = 0; i < n_why; i++)
        if (!strcmp(why_text[i], why)) {
            why_n[i] += n;
            return;
        }
    if (n_why < MAX_WHY) {
        snprintf(why_text[n_why], sizeof why_text[n_why], "%s", why);
        why_n[n_why++] = n;
    }
}

/* which variant add() records and keep_sel() scores (sample_t.one) */
static int g_one;

static void add(int op, int gpu, int model, int tp, int bucket, double pred_ms, double meas_ms) {
    if (!(pred_ms > 0) || !(meas_ms > 0)) return;
    if (nS == capS) {
        capS = capS ? 2 * capS : 65536;
        S = realloc(S, (size_t)capS * sizeof *S);
        if (!S) {
            fprintf(stderr, "bench_vidur: out of memory\n");
            exit(1);
        }
    }
    S[nS++] = (sample_t){(unsigned char)op, (unsigned char)gpu, (unsigned char)model, (unsigned char)tp,
                         (unsigned char)bucket, (unsigned char)g_one, pred_ms, meas_ms};
}

/* token-count buckets: decode-sized, small prefill, prefill, long prefill */
#define N_TOKB 5
static const char *const tok_bucket_name[N_TOKB] = {"1-8", "9-64", "65-512", "513-4096", "4097+"};
static int tok_bucket(double t) { return t <= 8 ? 0 : t <= 64 ? 1 : t <= 512 ? 2 : t <= 4096 ? 3 : 4; }
/* message-size buckets of the collectives (bytes) */
static const char *const size_bucket_name[N_TOKB] = {"< 64 KiB", "64 KiB-1 MiB", "1-16 MiB", "16-128 MiB",
                                                     ">= 128 MiB"};
static int size_bucket(double b) {
    return b < 65536 ? 0 : b < 1048576 ? 1 : b < 16777216 ? 2 : b < 134217728 ? 3 : 4;
}

/* ---- scores ---------------------------------------------------------------- */

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

typedef struct {
    int n;
    double mape, acc10, med_ratio, med_meas;
} score_t;

/* scores of the samples that keep(s, arg) selects */
static score_t score(int (*keep)(const sample_t *, const int *), const int *arg) {
    score_t sc = {0};
    double *r = malloc(sizeof *r * (size_t)(nS ? nS : 1)), *m = malloc(sizeof *m * (size_t)(nS ? nS : 1));
    if (!r || !m) exit(1);
    double ape = 0;
    int hit = 0;
    for (int i = 0; i < nS; i++) {
        if (!keep(&S[i], arg)) continue;
        double q = S[i].pred / S[i].meas;
        ape += fabs(q - 1.0);
        hit += fabs(q - 1.0) <= 0.10;
        m[sc.n] = S[i].meas;
        r[sc.n++] = q;
    }
    if (sc.n) {
        qsort(r, (size_t)sc.n, sizeof *r, cmp_double);
        qsort(m, (size_t)sc.n, sizeof *m, cmp_double);
        sc.mape = 100.0 * ape / sc.n;
        sc.acc10 = 100.0 * hit / sc.n;
        sc.med_ratio = sc.n % 2 ? r[sc.n / 2] : 0.5 * (r[sc.n / 2 - 1] + r[sc.n / 2]);
        sc.med_meas = sc.n % 2 ? m[sc.n / 2] : 0.5 * (m[sc.n / 2 - 1] + m[sc.n / 2]);
    }
    free(r);
    free(m);
    return sc;
}

/* selectors: arg[0] op (-1 any, SEL_GEMM the four GEMMs), arg[1] gpu, arg[2] model, arg[3] tp, arg[4] bucket */
#define SEL_GEMM (-2)
static int keep_sel(const sample_t *s, const int *a) {
    return s->one == g_one && (a[0] == -1 || s->op == a[0] || (a[0] == SEL_GEMM && s->op <= OP_DOWN)) && (a[1] < 0 || s->gpu == a[1]) && (a[2] < 0 || s->model == a[2]) &&
           (a[3] < 0 || s->tp == a[3]) && (a[4] < 0 || s->bucket == a[4]);
}

static void print_row(const char *label, const int *sel) {
    score_t sc = score(keep_sel, sel);
    if (!sc.n) return;
    const char *mm = dlp__hu_ms(sc.med_meas);
    printf("| %s | %d | %.1f | %.1f | %.2f | %s |\n", label, sc.n, sc.mape, sc.acc10, sc.med_ratio, mm);
}

static void table_head(const char *title, const char *first) {
    printf("\n%s\n\n| %s | n | MAPE %% | Acc(10%%) %% | median pred/meas | median measured |\n|---|---|---|---|---|---|\n",
           title, first);
}

/* ---- the compute profiles (mlp.csv) ---------------------------------------- */

/* The time one kernel of shape k x n takes in the iteration: its entry's
 * seconds over how many such matrices a forward has; 0 when the profile has
 * no dense matrix of that shape. */
static double lin_share_s(const dlp__llm_parts *p, double k, double n) {
    for (int i = 0; i < p->n_lin; i++)
        if (p->lin_kind[i] == 0 && p->lin_k[i] == k && p->lin_n[i] == n && p->lin_count[i] > 0)
            return p->lin_s[i] / p->lin_count[i];
    return 0;
}

typedef struct {
    dlp_llm_config c;
    int model;
    double H, nh, nkv, hd, I;
    int gated, two_adds;
} mcfg_t;

/* Per-op predicted ms of one layer at T tokens over tp GPUs; 0 where the
 * profile lacks the matrix (then that op is refused). */
static dlp_status predict_ops(const mcfg_t *m, const dlp_device *d, int tp, double T, double out[OP_N],
                              dlp_error *err) {
    dlp_llm_workload wl = {0};
    wl.quant = DLP_QT_FP16;
    wl.n_gpus = tp;
    wl.kv_dtype = DLP_DT_FLOAT16;
    int cdt = dlp_llm_compute_dtype(d, DLP_QT_FP16, NULL, 0);
    if (cdt < 0) cdt = DLP_DT_FLOAT16;
    dlp__llm_parts p;
    /* g_one: the same config cut to one layer, so that each matrix entry
     * counts one kernel (two for shapes a layer repeats: q and o of MHA,
     * gate and up) and the efficiency curve sees the kernel's own size,
     * not the whole stack's matrices of that shape taken as one */
    mcfg_t one = *m;
    if (g_one) one.c.num_hidden_layers = 1;
    m = &one;
    /* T decode tokens at context 1: the GEMMs see T rows (what a prefill
     * of T tokens would give them too), no prefill attention */
    dlp_status st = dlp__llm_iter_parts(&m->c, d, &wl, cdt, 2.0, T, 1.0, 0, 0, &p, err);
    if (st) return st;
    double q = lin_share_s(&p, m->H, m->nh * m->hd), kv = lin_share_s(&p, m->H, m->nkv * m->hd);
    double fused = lin_share_s(&p, m->H, (m->nh + 2.0 * m->nkv) * m->hd);
    out[OP_PRE] = fused > 0 ? fused : q > 0 && kv > 0 ? q + 2.0 * kv : 0;
    out[OP_POST] = lin_share_s(&p, m->nh * m->hd, m->H);
    double up = lin_share_s(&p, m->H, m->I), up2 = lin_share_s(&p, m->H, 2.0 * m->I);
    out[OP_UP] = m->gated ? (up2 > 0 ? up2 : up > 0 ? 2.0 * up : 0) : up;
    out[OP_DOWN] = lin_share_s(&p, m->I, m->H);
    out[OP_ELEM] = p.attn_layers > 0 ? p.other_s / p.attn_layers : 0;
    for (int i = 0; i < OP_N; i++) out[i] *= 1e3;
    return DLP_OK;
}

/* Catalogue config of a vidur model, checked against the row's dims; an
 * Instruct folder takes its base model's config when the dims agree (an
 * instruction fine-tune keeps the architecture).  0 and a reason if none. */
static int model_config(const char *name, char **h, char **v, int nh_, mcfg_t *m, char *why, size_t nw) {
    dlp_error e = {0};
    char id[128];
    snprintf(id, sizeof id, "%s", name);
    if (dlp_llm_catalogue_get(id, &m->c, &e)) {
        char *ins = strstr(id, "-Instruct");
        if (ins) memmove(ins, ins + 9, strlen(ins + 9) + 1);
        if (!ins || dlp_llm_catalogue_get(id, &m->c, &e)) {
            snprintf(why, nw, "model not in the catalogue (%s)", name);
            return 0;
        }
    }
    m->H = atof(v[csv_col(h, nh_, "n_embd")]);
    m->nh = atof(v[csv_col(h, nh_, "n_head")]);
    m->nkv = atof(v[csv_col(h, nh_, "n_kv_head")]);
    m->I = atof(v[csv_col(h, nh_, "n_expanded_embd")]);
    m->gated = !strcmp(v[csv_col(h, nh_, "use_gated_mlp")], "True");
    m->hd = m->H / m->nh;
    const dlp_llm_config *c = &m->c;
    double nkv = (double)(c->num_key_value_heads > 0 ? c->num_key_value_heads : c->num_attention_heads);
    if ((double)c->hidden_size != m->H || (double)c->num_attention_heads != m->nh || nkv != m->nkv ||
        (double)c->intermediate_size != m->I) {
        snprintf(why, nw, "catalogue %s differs from vidur's dims", id);
        return 0;
    }
    /* phi-2 runs attention and MLP in parallel off one norm: one add of
     * three tensors, no post-attention norm (vidur's column is empty) */
    m->two_adds = m->gated;
    return 1;
}

static double col_ms(char **h, int nh_, char **v, const char *op) {
    char name[96];
    snprintf(name, sizeof name, "time_stats.%s.median", op);
    for (int i = 0; i < nh_; i++)
        if (!strcmp(h[i], name)) return v[i][0] ? atof(v[i]) : 0;
    return 0;
}

/* One mlp.csv: every row's ops against the serving model's. */
static void run_mlp(const char *root, int gi, int mi) {
    char rel[256], hl[16384], line[16384];
    char *h[128], *v[128];
    int nh_;
    snprintf(rel, sizeof rel, "vidur/data/profiling/compute/%s/%s/mlp.csv", GPUS[gi].gpu, MODELS[mi]);
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    FILE *probe = fopen(path, "r");
    if (!probe) return; /* vidur profiled this model on other GPUs only */
    fclose(probe);
    FILE *f = csv_open(root, rel, hl, sizeof hl, h, 128, &nh_);
    const dlp_device *d = dlp_devdb_find(db, GPUS[gi].dev);
    mcfg_t m = {0};
    m.model = mi;
    int have = -1;
    long rows = 0;
    char why[200];
    while (fgets(line, sizeof line, f)) {
        if (csv_split(line, v, 128) != nh_) continue;
        rows++;
        if (have < 0) have = model_config(MODELS[mi], h, v, nh_, &m, why, sizeof why);
        if (!have) continue;
        int tp = atoi(v[csv_col(h, nh_, "num_tensor_parallel_workers")]);
        double T = atof(v[csv_col(h, nh_, "num_tokens")]);
        double pr[OP_N] = {0};
        dlp_error e = {0};
        if (!d || predict_ops(&m, d, tp, T, pr, &e)) {
            if (!g_one) refuse(d ? e.msg : "device missing from the database", 1);
            continue;
        }
        int b = tok_bucket(T);
        add(OP_PRE, gi, mi, tp, b, pr[OP_PRE], col_ms(h, nh_, v, "attn_pre_proj"));
        add(OP_POST, gi, mi, tp, b, pr[OP_POST], col_ms(h, nh_, v, "attn_post_proj"));
        add(OP_UP, gi, mi, tp, b, pr[OP_UP], col_ms(h, nh_, v, "mlp_up_proj"));
        add(OP_DOWN, gi, mi, tp, b, pr[OP_DOWN], col_ms(h, nh_, v, "mlp_down_proj"));
        double el = col_ms(h, nh_, v, "input_layernorm") + col_ms(h, nh_, v, "post_attention_layernorm") +
                    col_ms(h, nh_, v, "attn_rope") + col_ms(h, nh_, v, "mlp_act") +
                    (m.two_adds ? 2.0 : 1.0) * col_ms(h, nh_, v, "add");
        add(OP_ELEM, gi, mi, tp, b, pr[OP_ELEM], el);
    }
    fclose(f);
    if (!have && !g_one) refuse(why, rows);
}

/* ---- attention (the history folder's A100 profile) ---------------------------- */

/* vidur's attention rows name only the attention's dims (8192 hidden, 64
 * query heads, 8 KV heads at TP 2: Llama-2-70B's): the catalogue model
 * with those dims times them. */
static void run_attention(const char *root) {
    static const char *rel = "vidur/_history_bee57dafa1eb2dc422dcaec46a66975599a6a242/data/profiling/a100/attention.csv";
    char hl[8192], line[8192];
    char *h[64], *v[64];
    int nh_;
    FILE *f = csv_open(root, rel, hl, sizeof hl, h, 64, &nh_);
    const dlp_device *d = dlp_devdb_find(db, "a100-80gb");
    int cE = csv_col(h, nh_, "n_embd"), cQ = csv_col(h, nh_, "n_q_head"), cK = csv_col(h, nh_, "n_kv_head");
    int cTP = csv_col(h, nh_, "num_tensor_parallel_workers"), cB = csv_col(h, nh_, "batch_size");
    int cP = csv_col(h, nh_, "prefill_chunk_size"), cKV = csv_col(h, nh_, "kv_cache_size");
    int cPF = csv_col(h, nh_, "is_prefill");
    int mi = 2; /* meta-llama/Llama-2-70b-hf */
    dlp_llm_config c;
    dlp_error e = {0};
    if (dlp_llm_catalogue_get(MODELS[mi], &c, &e)) {
        fclose(f);
        refuse("attention: Llama-2-70b-hf not in the catalogue", 1);
        return;
    }
    while (fgets(line, sizeof line, f)) {
        if (csv_split(line, v, 64) != nh_) continue;
        double nkv = (double)(c.num_key_value_heads > 0 ? c.num_key_value_heads : c.num_attention_heads);
        if (atof(v[cE]) != (double)c.hidden_size || atof(v[cQ]) != (double)c.num_attention_heads ||
            atof(v[cK]) != nkv) {
            refuse("attention: no catalogue model with the row's dims", 1);
            continue;
        }
        int tp = atoi(v[cTP]), pf = !strcmp(v[cPF], "True");
        double b = atof(v[cB]), p = atof(v[cP]), kv = atof(v[cKV]);
        dlp_llm_workload wl = {0};
        wl.quant = DLP_QT_FP16;
        wl.n_gpus = tp;
        wl.kv_dtype = DLP_DT_FLOAT16;
        int cdt = dlp_llm_compute_dtype(d, DLP_QT_FP16, NULL, 0);
        dlp__llm_parts parts;
        dlp_status st = pf ? dlp__llm_iter_parts(&c, d, &wl, cdt, 2.0, 0, 1.0, b * p, 2.0 * kv + p, &parts, &e)
                           : dlp__llm_iter_parts(&c, d, &wl, cdt, 2.0, b, kv, 0, 0, &parts, &e);
        if (st || parts.attn_layers <= 0) {
            refuse(st ? e.msg : "attention: no attention layers", 1);
            continue;
        }
        double pred = (pf ? parts.attn_pf_s : parts.attn_dec_s) / parts.attn_layers * 1e3;
        double meas = col_ms(h, nh_, v, pf ? "attn_prefill" : "attn_decode");
        /* bucket: the context the kernel reads (kv + chunk) */
        add(pf ? OP_ATTN_PF : OP_ATTN_DEC, 0, mi, tp, tok_bucket(kv + (pf ? p : 0)), pred, meas);
    }
    fclose(f);
}

/* ---- collectives ------------------------------------------------------------ */

/* the GPU index of a network sample: its system (0..N_NET) */
static void run_network(const char *root) {
    for (int si = 0; si < N_NET; si++) {
        static const char *const kinds[2] = {"all_reduce", "send_recv"};
        for (int k = 0; k < 2; k++) {
            char rel[256], path[1024], hl[4096], line[4096];
            char *h[32], *v[32];
            int nh_;
            snprintf(rel, sizeof rel, "vidur/data/profiling/network/%s/%s.csv", NETS[si].sys, kinds[k]);
            snprintf(path, sizeof path, "%s/%s", root, rel);
            FILE *probe = fopen(path, "r");
            if (!probe) continue;
            fclose(probe);
            FILE *f = csv_open(root, rel, hl, sizeof hl, h, 32, &nh_);
            const dlp_device *d = dlp_devdb_find(db, NETS[si].dev);
            int cN = csv_col(h, nh_, "num_workers"), cS = csv_col(h, nh_, "size");
            int cD = csv_col(h, nh_, "devices_per_node");
            while (fgets(line, sizeof line, f)) {
                if (csv_split(line, v, 32) != nh_) continue;
                if (k == 1) {
                    refuse("send_recv: the serving model has no point-to-point op (no pipeline parallelism)", 1);
                    continue;
                }
                int n = atoi(v[cN]), dpn = atoi(v[cD]);
                double bytes = atof(v[cS]);
                if (dpn < n && n <= 8) {
                    refuse("all_reduce over several nodes at <= 8 GPUs (the model puts them in one NVLink domain)", 1);
                    continue;
                }
                double pred = dlp__llm_coll_s(d, DLP__COLL_ALLREDUCE, n, bytes) * 1e3;
                add(OP_ALLREDUCE, si, 0, n, size_bucket(bytes), pred, col_ms(h, nh_, v, "all_reduce"));
            }
            fclose(f);
        }
    }
}

/* ---- report ------------------------------------------------------------------- */

static void report_compute(void) {
    char lab[160];
    table_head("### Per op kind (all GPUs, models, TP degrees, token counts)", "op");
    for (int op = 0; op < OP_ALLREDUCE; op++) print_row(op_name[op], (int[]){op, -1, -1, -1, -1});
    table_head("### GEMMs and elementwise by GPU", "op, GPU");
    for (int op = 0; op <= OP_ELEM; op++)
        for (int g = 0; g < N_GPU; g++) {
            snprintf(lab, sizeof lab, "%s, %s", op_name[op], GPUS[g].dev);
            print_row(lab, (int[]){op, g, -1, -1, -1});
        }
    table_head("### GEMMs and elementwise by token count (all GPUs)", "op, tokens");
    for (int op = 0; op <= OP_ELEM; op++)
        for (int b = 0; b < N_TOKB; b++) {
            snprintf(lab, sizeof lab, "%s, %s", op_name[op], tok_bucket_name[b]);
            print_row(lab, (int[]){op, -1, -1, -1, b});
        }
    table_head("### GEMMs and elementwise by TP degree", "op, TP");
    for (int op = 0; op <= OP_ELEM; op++)
        for (int tp = 1; tp <= 8; tp *= 2) {
            snprintf(lab, sizeof lab, "%s, TP %d", op_name[op], tp);
            print_row(lab, (int[]){op, -1, -1, tp, -1});
        }
    table_head("### All five layer ops by model", "model");
    for (int mi = 0; mi < N_MODEL; mi++) {
        for (int op = 0; op <= OP_ELEM; op++) {
            snprintf(lab, sizeof lab, "%s, %s", MODELS[mi], op_name[op]);
            print_row(lab, (int[]){op, -1, mi, -1, -1});
        }
    }
    table_head("### The four GEMMs together by GPU and token count", "GPU, tokens");
    for (int g = 0; g < N_GPU; g++)
        for (int b = 0; b < N_TOKB; b++) {
            snprintf(lab, sizeof lab, "%s, %s", GPUS[g].dev, tok_bucket_name[b]);
            print_row(lab, (int[]){SEL_GEMM, g, -1, -1, b});
        }
}

static void report_attention_network(void) {
    char lab[160];
    table_head("### Attention (A100 80 GB, Llama-2-70B dims, TP 2) by context (kv + chunk)", "kernel, context");
    for (int op = OP_ATTN_PF; op <= OP_ATTN_DEC; op++)
        for (int b = 0; b < N_TOKB; b++) {
            snprintf(lab, sizeof lab, "%s, %s", op_name[op], tok_bucket_name[b]);
            print_row(lab, (int[]){op, -1, -1, -1, b});
        }
    table_head("### all_reduce by system, GPU count and message size", "system (device), GPUs, size");
    for (int si = 0; si < N_NET; si++)
        for (int n = 2; n <= 16; n *= 2)
            for (int b = 0; b < N_TOKB; b++) {
                snprintf(lab, sizeof lab, "%s (%s), %d, %s", NETS[si].sys, NETS[si].dev, n, size_bucket_name[b]);
                print_row(lab, (int[]){OP_ALLREDUCE, si, -1, n, b});
            }
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: bench_vidur DATA_DIR [--fused-elem 1]\n");
        return 2;
    }
    const char *root = argv[1];
    /* h198: the element-wise work as the engines' fused kernels */
    for (int i = 2; i + 1 < argc; i++)
        if (!strcmp(argv[i], "--fused-elem")) dlp__llm_knob.fused_elem = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--fused-eta")) dlp__llm_knob.fused_eta = atof(argv[++i]);
    dlp_error e = {0};
    if (dlp_devdb_load(NULL, &db, &e)) {
        fprintf(stderr, "bench_vidur: %s\n", e.msg);
        return 1;
    }
    char src[1024];
    snprintf(src, sizeof src, "%s/vidur/SOURCE.txt", root);
    FILE *sf = fopen(src, "r");
    if (!sf) {
        fprintf(stderr, "bench_vidur: %s: cannot read (vidur's profiles are not there)\n", src);
        return 1;
    }
    fclose(sf);
    for (g_one = 1; g_one >= 0; g_one--)
        for (int g = 0; g < N_GPU; g++)
            for (int mi = 0; mi < N_MODEL; mi++) run_mlp(root, g, mi);
    g_one = 0;
    run_attention(root);
    run_network(root);
    int n_main = 0;
    for (int i = 0; i < nS; i++) n_main += !S[i].one;
    printf("## vidur per-operator check (bench/bench_llm.sh vidur)\n\n%s values compared; refused:\n\n",
           dlp__hu_count((double)n_main));
    for (int i = 0; i < n_why; i++) printf("- %s: %s\n", dlp__hu_count((double)why_n[i]), why_text[i]);
    report_compute();
    report_attention_network();
    g_one = 1;
    printf("\n## The same GEMMs on a one-layer copy of each config (the curve at one kernel's size)\n");
    table_head("### Per op kind", "op");
    for (int op = 0; op <= OP_DOWN; op++) print_row(op_name[op], (int[]){op, -1, -1, -1, -1});
    table_head("### The four GEMMs together by GPU and token count", "GPU, tokens");
    for (int g = 0; g < N_GPU; g++)
        for (int b = 0; b < N_TOKB; b++) {
            char lab[96];
            snprintf(lab, sizeof lab, "%s, %s", GPUS[g].dev, tok_bucket_name[b]);
            print_row(lab, (int[]){SEL_GEMM, g, -1, -1, b});
        }
    free(S);
    dlp_devdb_free(db);
    return 0;
}
