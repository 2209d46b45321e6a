/*
 * bench_serving.c — the serving model of `dlperf llm` (docs/llm.md,
 * "Serving") against public serving measurements, one command:
 *
 *   bench_serving DATA_DIR [silicon|leaderboard|splitwise|infbench|speed|all] [--rows FILE]
 *                 [--analytic-only]
 *                 [--split FAMILY]   (e.g. deepseek: its rows' median bias by group)
 *                 [--recipes FILE|none] (InferenceMAX run configurations for the
 *                                     silicon runs without worker counts; default
 *                                     tools/inferencemax/recipes.csv where present)
 *                 [--lowload]        (the 1-4-client TTFT: the prefill's slope from 1k to
 *                                     8k prompts and the gap at 1k, per group; and the
 *                                     prefill workers' TTFT at 8k over 1k output
 *                                     tokens; with --split, that family's groups only)
 *
 *   silicon      aiconfigurator's silicon_sample.csv: 5,221 vLLM / SGLang /
 *                TensorRT-LLM runs (TTFT, TPOT) on H100/H200/B200/B300/GB200/
 *                GB300, aggregated and disaggregated
 *   leaderboard  ML.ENERGY leaderboard v2 (vLLM, A100/H100): TPOT, output
 *                tokens/s and energy per request at a max batch size
 *   splitwise    splitwise-sim's profile (Llama-2-70B, BLOOM-176B on DGX-A100
 *                and DGX-H100): the prefill of a batch and its decode step
 *   infbench     LLM-Inference-Bench (vLLM / TensorRT-LLM offline batches on
 *                A100/H100/GH200/MI250/MI300X): end-to-end latency, tokens/s,
 *                TTFT, ITL, power and energy (load_infbench)
 *
 * Every row goes through dlp_llm_predict exactly as `dlperf llm
 * --concurrency` does.  Coverage is rows answered / rows, with every
 * refusal counted by its reason.  Scores: the analytic model, and the
 * bounded learned correction (XGBoost on log(measured / analytic), clamped
 * to DLP_LLM_SERVE_MAX_FACTOR) out of fold: stratified 5-fold,
 * leave-one-GPU-out and leave-one-model-family-out.
 * Only the public API is used.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dlperf.h"
#include "predict/power.h"
#include "predict/roofline.h"
#include "bench_csv.h"
#include "agg_sim.h"
#include "disagg_wait.h"
#include "llm/llm_internal.h"

/* the analytic estimate only (no shipped trees) */
static const dlp_llm_predict_opts ANALYTIC = {.analytic_only = 1};

#define MAXR 20000
#define MAXG 64

/* T_E2E .. T_POWER: LLM-Inference-Bench's offline batches (load_infbench);
 * the other sets leave them unmeasured */
enum { T_TTFT = 0, T_TPOT, T_TPUT, T_ENERGY, T_E2E, T_TOKS, T_POWER, T_COUNT };
#define T_BASE 4 /* the targets --rows writes in its first columns */
static const char *const tname[T_COUNT] = {"TTFT", "TPOT", "output tok/s", "energy/request", "e2e latency",
                                           "tokens/s (in + out)", "power/GPU"};

#define TRT_STEPS 16 /* trt_pf_steps: prompts a rank, 1 .. this */
typedef struct {
    const char *set;
    char model[96], family[48], system[32], backend[16];
    int dev, fam;
    dlp_llm_workload wl;
    double y[T_COUNT];         /* measured (NaN: not in this set)              */
    double a[T_COUNT];         /* analytic                                     */
    float x[DLP_LLM_SERVE_NFEAT];
    double running, ovh_ms;    /* sequences running, engine CPU ms in TPOT     */
    double um, uc, pw, tdp;    /* step utilisations, power per GPU, TDP         */
    double idle_w;             /* the device's idle draw (roofline.c), W per GPU */
    double memw;               /* the DRAM's draw at um (power.h), W per GPU     */
    double req_ms;             /* the front end's part of the analytic TTFT     */
    double pf_ms, dec_ms;      /* one prompt's prefill alone, the decode step   */
    double kvh_ms;             /* prefill worker: its prompt's KV handoff       */
    double sgl_lone_ms;        /* SGLang prefill worker, --sgl-batch-sim: one prompt's batch (h235) */
    int64_t chunk_tok;         /* the engine's prefill chunk, tokens (the library's chunk_tokens) */
    int mla;                   /* the model's KV cache is MLA's one latent      */
    double tb_ms, ts_ms;       /* TTFT's engine part: burst, steady state       */
    int lockstep;              /* the library ran the waves in lockstep (TTFT
                                  the burst's, no burst weight: h168)          */
    int gap_fixed;             /* prefill worker of aiconfigurator's harness
                                  (fixed lengths, h168): its queue's client */
    int workers_unknown;       /* disaggregated run without its worker counts:
                                  1 one prefill and one decode worker assumed,
                                  2 the counts from the InferenceMAX recipe,
                                  3 from the run's own db-dump record (twin_of) */
    int spec_read;             /* decode worker: the recipe's MTP drafts as read
                                  (before recipe_mtp_scored; -1 the entries
                                  differ in MTP, -2 all MTP, drafts not read;
                                  a pair's reading by default, h233) */
    int spec_k;                /* decode worker: the recipe's MTP drafts (0 none
                                  or not a recipe row, -1 MTP unknown)       */
    int redundant;             /* the recipe's redundant experts (SGLang
                                  ep-num-redundant-experts): predict_row sets
                                  expert_slots = the model's experts + this */
    int src;                   /* silicon: the data source's kind (SRC_*)       */
    int squared;               /* silicon aggregated: the GPU count read from a
                                  squared layout (squared_layout) or vLLM's
                                  EP layout (vllm_ep_layout)                  */
    int fw;                    /* infbench: the framework (fwname)              */
    double floor_ms;           /* gen - 1 decode steps each streaming the active
                                  weights of one GPU at its peak bandwidth: no
                                  run of the workload can be faster          */
    double ttft_pw_ms;         /* prefill worker with known counts and decode
                                  slots: its own TTFT before the decode-slot
                                  wait was composed in (0: not composed)     */
    int64_t slot_c, slot_s;    /* the run's clients and decode slots          */
    int slot_w;                /* ... over this many decode workers           */
    double ttft_closed_ms;     /* h140's closed form (equal lengths), kept    */
    double ttft_data_ms;       /* counts in the data: the TTFT composed with the
                                  data's decode_batch_size as the cap (h140),
                                  before the recipe's cap (h143)             */
    int cap_class;             /* counts in the data: DC_* + 1 of the recipe
                                  look-up for the decode cap (0: not looked) */
    char recipe[192];          /* a recipe-count prefill row: its recipe file
                                  (DLP_ROWS_TRT_STEPS only)                 */
    int simmed;                /* --agg-sim played this row (agg_sim_row)      */
    double lib_ttft_ms, lib_tpot_ms; /* ... and the library's answers before */
    int trt_mbs, trt_k;        /* TensorRT-LLM recipe prefill row under
                                  --trt-ctx-sim: the context worker's
                                  max_batch_size a rank and the prompts a
                                  rank a step (trt_ctx_of; 0: not played)  */
    double trt_step_ms[TRT_STEPS + 1]; /* TensorRT-LLM prefill worker: a context
                                  step with j prompts on every attention-DP
                                  rank, ms, j = 1..TRT_STEPS (trt_pf_steps;
                                  DLP_ROWS_TRT_STEPS only)                  */
    double trt_burst_ms;       /* ... and the library's burst step of that
                                  worker (trt_pf_steps; h237's --trt-ctx-mv) */
} row_t;

/* Where a silicon row was measured (its silicon_data_source): the
 * benchmarks differ in how they send requests, which TTFT shows */
enum { SRC_NONE = 0, SRC_GAP, SRC_IMAX, SRC_DBDUMP, SRC_DYNAMO, SRC_N };
static const char *const src_name[SRC_N] = {"-", "gap-analysis dumps", "InferenceMAX-style dumps", "db-dump",
                                            "dynamo jobs"};
static int src_of(const char *s) {
    if (strstr(s, "gap-analysis")) return SRC_GAP;
    if (strstr(s, "db-dump")) return SRC_DBDUMP;
    if (strstr(s, "gtl_")) return SRC_DYNAMO;
    if (strstr(s, "source_file=20")) return SRC_IMAX;
    return SRC_NONE;
}

static row_t R[MAXR];
static int nR, nSeen;
static dlp_devdb *db;
static char devname[MAXG][48], famname[MAXG][48];
static int ndev, nfam;

/* refusal reasons: the first words of the library's message class; one
 * table for silicon + leaderboard and one per LLM-Inference-Bench file
 * (refuse() counts into the current one) */
#define MAXREASON 64
typedef struct {
    char why[MAXREASON][160];
    int n[MAXREASON], k;
} reasons_t;
static reasons_t main_reasons, *cur_reasons = &main_reasons;

static void refuse(const char *why) {
    reasons_t *t = cur_reasons;
    for (int i = 0; i < t->k; i++) /* as stored: a reason past the buffer is kept cut */
        if (!strncmp(t->why[i], why, sizeof t->why[0] - 1)) {
            t->n[i]++;
            return;
        }
    if (t->k < MAXREASON) {
        snprintf(t->why[t->k], sizeof t->why[0], "%s", why);
        t->n[t->k++] = 1;
    }
}

static int intern(char (*tab)[48], int *n, const char *s) {
    for (int i = 0; i < *n; i++)
        if (!strcmp(tab[i], s)) return i;
    snprintf(tab[*n], 48, "%s", s);
    return (*n)++;
}

/* A model family: the id's last path part up to the first digit-dash or
 * size mark ("DeepSeek-R1" and "DeepSeek-V3" -> "deepseek"; quantised
 * re-releases join their base).  What leave-one-family-out leaves out. */
static void family_of(const char *id, char *out, size_t n) {
    const char *s = strrchr(id, '/');
    s = s ? s + 1 : id;
    size_t k = 0;
    for (; s[k] && k + 1 < n; k++) {
        char ch = s[k];
        if (ch == '-' || ch == '_' || ch == '.' || (ch >= '0' && ch <= '9')) break;
        out[k] = (char)(ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch);
    }
    out[k] = 0;
    if (!strcmp(out, "llama") || !strcmp(out, "meta")) snprintf(out, n, "llama");
}

/* h187 (docs/llm.md, "TensorRT-LLM's context workers: what a step takes"):
 * DLP_ROWS_TRT_STEPS=1 adds to --rows, for TensorRT-LLM prefill-worker rows,
 * the library's context step with j prompts of the row's ISL on each of its
 * attention-DP ranks (j = 1..TRT_STEPS; the step dlp__llm_iter_parts prices,
 * the prompts spread evenly: every rank full) and the row's recipe file, for
 * tools/inferencemax/h187/ to read.  Off by default: nothing else moves. */
static int trt_steps_on(void) {
    static int on = -1;
    if (on < 0) on = getenv("DLP_ROWS_TRT_STEPS") && *getenv("DLP_ROWS_TRT_STEPS") == '1';
    return on;
}
static void trt_pf_steps(row_t *r, const dlp_llm_config *c, const dlp_device *d, int cdt) {
    /* the diagnostic prices all TRT_STEPS; h200's played worker (--trt-ctx-sim) the recipe's k */
    int nj = trt_steps_on() ? TRT_STEPS : r->trt_k;
    if (nj < 1 || r->wl.phase != DLP_LLM_PREFILL_ONLY || r->wl.engine != DLP_LLM_ENGINE_TRTLLM) return;
    double N = r->wl.attn_dp > 1 ? r->wl.attn_dp : 1, S = (double)r->wl.seq;
    double kvb = r->wl.kv_dtype == DLP_DT_FLOAT8E4M3FN ? 1.0 : 2.0;
    for (int j = 1; j <= nj; j++) {
        dlp__llm_parts pp;
        dlp_error e = {0};
        dlp_status st = dlp__llm_iter_parts(c, d, &r->wl, cdt, kvb, 0, 1.0, N * j * S, S, &pp, &e);
        r->trt_step_ms[j] = st ? NAN : pp.total_s * 1e3;
    }
    /* h237: the burst's step as llm_serve.c's burst_step_tokens takes it on a
     * TensorRT-LLM prefill worker: whole prompts within the engine's
     * max_num_tokens over the worker (its ranks not multiplied there) */
    int64_t chunk = 0, ms = 0;
    dlp__llm_engine_defaults(d, &r->wl, &chunk, &ms);
    double C = (double)(r->wl.concurrency > 0 ? r->wl.concurrency : 1), ck = (double)chunk;
    double bt = S <= ck ? fmin(C * S, floor(ck / S) * S) : fmin(C * S, ck);
    dlp__llm_parts pb;
    dlp_error eb = {0};
    r->trt_burst_ms = dlp__llm_iter_parts(c, d, &r->wl, cdt, kvb, 0, 1.0, bt, S, &pb, &eb) ? NAN : pb.total_s * 1e3;
}

/* ---- --agg-sim (h203): the harness and TensorRT-LLM's executor played ----
 * bench/agg_sim.h plays an aggregated TensorRT-LLM row's run step by step;
 * each step is priced by the library's own iteration (dlp__llm_iter_parts,
 * the function the serving estimate times its steps with) at the step's
 * decodes, their mean live context and its whole prompts.  Off by default
 * (agg_sim_mode 0: every answer as before); 1 the played TTFT replaces the
 * library's, 2 the played TPOT too. */
static int agg_sim_mode;

/* a step's price, seconds: the library's iteration at the step's decodes and
 * prompt tokens, linear in the live context between the table's two ends
 * (S + 1 and S + G tokens) and in the prompt tokens between multiples of a
 * grain (S / 8: whole prompts fall on the grid), each grid point priced once */
typedef struct {
    const dlp_llm_config *c;
    const dlp_device *d;
    const dlp_llm_workload *wl;
    int cdt, nd, np;
    double kvb, S, lo, hi, grain;
    double *t; /* [2][nd + 1][np + 1]; NaN: not priced yet */
} sim_price_t;

static double sim_price_at(sim_price_t *p, int end, int n_dec, int j) {
    double *v = &p->t[((size_t)end * (size_t)(p->nd + 1) + (size_t)n_dec) * (size_t)(p->np + 1) + (size_t)j];
    if (isnan(*v)) {
        dlp__llm_parts pp;
        dlp_error e = {0};
        dlp_status st = dlp__llm_iter_parts(p->c, p->d, p->wl, p->cdt, p->kvb, n_dec, end ? p->hi : p->lo,
                                            j * p->grain, p->S, &pp, &e);
        *v = st ? 0 : pp.total_s;
    }
    return *v;
}

static double sim_price_ctx(sim_price_t *p, int end, int n_dec, double pt) {
    double x = pt / p->grain;
    int j = (int)floor(x);
    if (j >= p->np) return sim_price_at(p, end, n_dec, p->np);
    double a = sim_price_at(p, end, n_dec, j), f = x - j;
    return f > 1e-9 ? a + f * (sim_price_at(p, end, n_dec, j + 1) - a) : a;
}

/* h234's what-if (DLP_AGG_SIM_HOST_LAYER_MS=h, 0: off): a step carrying
 * prompt tokens lasts at least h ms x the model's layers, the host issuing
 * an eager context step while the GPU runs behind it (the longer of the
 * two, not their sum as wl->ctx_host_ms prices it). */
static double sim_host_layer_ms;

static double sim_price(void *v, int n_dec, double live, double pt) {
    sim_price_t *p = v;
    if (n_dec > p->nd) n_dec = p->nd;
    double f = p->hi > p->lo ? (live - p->lo) / (p->hi - p->lo) : 0;
    f = f < 0 ? 0 : f > 1 ? 1 : f;
    double a = sim_price_ctx(p, 0, n_dec, pt);
    double t = f > 0 ? a + f * (sim_price_ctx(p, 1, n_dec, pt) - a) : a;
    double host = pt > 0 ? sim_host_layer_ms * 1e-3 * (double)p->c->num_hidden_layers : 0;
    return t > host ? t : host;
}

/* The what-ifs of docs/llm.md h203, each read from the environment (none
 * set: the run as agg_sim_row reads it):
 *  DLP_AGG_SIM_FE_MS=x       the front end played as x ms, not request_ms;
 *  DLP_AGG_SIM_LIB_BUDGET=1  the library's chunk as the budget everywhere
 *                            (TensorRT-LLM's 8,192 on the gap-analysis rows);
 *  DLP_AGG_SIM_WARM=1        the warm-up not drained: requests 2 C .. 12 C of
 *                            one continuous run;
 *  DLP_AGG_SIM_FE_JITTER=j   the front end drawn in [1 - j, 1 + j] x its mean;
 *  DLP_AGG_SIM_FE_LOOP=f     only the share f of the front end delays the next
 *                            arrival, the rest is in the TTFT alone (no source
 *                            splits the fitted front end);
 *  DLP_AGG_SIM_HOST_LAYER_MS=h  a step with prompt tokens no shorter than h ms
 *                            a layer (sim_price, h234). */
static void agg_sim_whatifs(agg_sim_cfg *cfg, const dlp_llm_prediction *p) {
    const char *v;
    if ((v = getenv("DLP_AGG_SIM_FE_MS")) && *v) cfg->fe_s = atof(v) * 1e-3;
    if ((v = getenv("DLP_AGG_SIM_LIB_BUDGET")) && *v == '1') cfg->budget = (double)p->chunk_tokens;
    if ((v = getenv("DLP_AGG_SIM_WARM")) && *v == '1') cfg->warm = 2 * cfg->clients;
    if ((v = getenv("DLP_AGG_SIM_FE_JITTER")) && *v) cfg->fe_jitter = fmin(1.0, fmax(0.0, atof(v)));
    if ((v = getenv("DLP_AGG_SIM_HOST_LAYER_MS")) && *v) sim_host_layer_ms = fmax(0.0, atof(v));
    if ((v = getenv("DLP_AGG_SIM_FE_LOOP")) && *v) {
        double f = fmin(1.0, fmax(0.0, atof(v)));
        cfg->fe_ttft_s = cfg->fe_s * (1.0 - f), cfg->fe_s *= f;
    }
}

/* The run a row's harness made (agg_sim.h's header has the sources):
 * aiconfigurator's eval (gap-analysis rows) and InferenceMAX's
 * benchmark_serving.py both finish their 2 C warm-up requests before the
 * measured ones start (perf_analyzer's ConcurrencyManager::PerformWarmup
 * joins its worker threads, triton-inference-server/perf_analyzer 263c5f6e
 * src/concurrency_manager.cc, load_manager.cc WaitForWarmupAndCleanup;
 * InferenceX benchmark_serving's warm-up is awaited with asyncio.gather), so
 * the measured run starts from an idle engine with all C at once: warm 0,
 * 10 C measured.  The executor's budget: the gap-analysis deployments'
 * max_num_tokens = bs + ISL + 1500 (aiconfigurator's generator, h177), the
 * library's chunk elsewhere (the recipe's where read, else TensorRT-LLM's
 * 8,192); its slots: the library's running sequences (max_batch_size, or
 * fewer where no-evict admission holds fewer whole, h185); the overlap
 * scheduler on (disable_overlap_scheduler false). */
static void agg_sim_row(row_t *r, const dlp_llm_config *c, const dlp_device *d, const dlp_llm_prediction *p) {
    const dlp_llm_workload *wl = &r->wl;
    if (!agg_sim_mode || strcmp(r->set, "silicon") || wl->engine != DLP_LLM_ENGINE_TRTLLM || wl->phase != DLP_LLM_AGG ||
        wl->offline || wl->rate > 0 || p->running < 1 || wl->concurrency < 1)
        return;
    /* the executor's batch waiting and attention-DP balance hold prompts by
     * rules of their own (batch_wait_s, adp_balance_s in llm_serve.c) that
     * agg_sim.h does not play: those rows keep the library's answer */
    if (wl->batch_wait_iters > 0 || wl->adp_balance_iters > 0) return;
    int C = (int)wl->concurrency, ranks = wl->attn_dp > 1 ? wl->attn_dp : 1;
    agg_sim_cfg cfg = {.clients = C, .slots = (int)(p->running < C ? p->running : C), .ranks = ranks,
                       .S = (int)wl->seq, .G = (int)wl->gen_tokens, .draft = wl->spec_tokens,
                       .yield = 1.0 + wl->spec_accepted, .fe_s = p->request_ms * 1e-3, .overlap = 1,
                       .warm = 0, .measured = 10 * C};
    /* the gap-analysis harness sends equal lengths (h168); InferenceX's
     * benchmark_serving.py draws prompts and outputs in [0.8 L, L]
     * (utils/bench_serving/benchmark_serving.py sample_random_requests,
     * InferenceX 843c6254f; --random-range-ratio 0.8, --num-prompts 10 C,
     * --num-warmups 2 C awaited before the run) */
    cfg.ratio = wl->fixed_lengths ? 0 : 0.8;
    cfg.budget = wl->fixed_lengths ? (double)(C + wl->seq + 1500) : (double)p->chunk_tokens;
    agg_sim_whatifs(&cfg, p);
    sim_price_t pr = {.c = c, .d = d, .wl = wl, .cdt = p->compute_dtype, .S = (double)wl->seq};
    /* the KV cache's bytes as the library takes them (llm.c kv_elem_bytes) */
    int kd = wl->kv_dtype ? wl->kv_dtype : dlp_quant_act_dtype(wl->quant);
    pr.kvb = kd == DLP_DT_FLOAT ? 4.0 : (kd == DLP_DT_FLOAT16 || kd == DLP_DT_BFLOAT16) ? 2.0 : 1.0;
    pr.lo = pr.S + 1.0, pr.hi = pr.S + (double)wl->gen_tokens;
    /* a run whose whole prompt cannot sit beside a full batch of decodes
     * (TensorRT-LLM refuses a prompt over max_num_tokens unchunked) chunked */
    cfg.chunked = cfg.S + ceil((double)cfg.slots / ranks) * (1.0 + cfg.draft) > cfg.budget;
    pr.nd = cfg.slots, pr.grain = fmax(1.0, pr.S / 8.0);
    double ptmax = fmin(cfg.budget * ranks, cfg.slots * pr.S);
    pr.np = (int)ceil(fmax(ptmax, pr.S) / pr.grain);
    size_t n = 2 * (size_t)(pr.nd + 1) * (size_t)(pr.np + 1);
    pr.t = malloc(n * sizeof *pr.t);
    if (!pr.t) return;
    for (size_t i = 0; i < n; i++) pr.t[i] = NAN;
    agg_sim_out o;
    if (!agg_sim_run(&cfg, sim_price, &pr, &o)) {
        r->simmed = 1;
        r->lib_ttft_ms = r->a[T_TTFT], r->lib_tpot_ms = r->a[T_TPOT];
        r->a[T_TTFT] = o.ttft_s * 1e3;
        if (agg_sim_mode == 2) r->a[T_TPOT] = o.tpot_s * 1e3;
    }
    free(pr.t);
}

/* --agg-sim's rows: how many were played and their TTFT / TPOT MAPE with the
 * library's answers and with the played ones (nothing printed without it) */
static void agg_sim_report(void) {
    if (!agg_sim_mode) return;
    double el[2] = {0}, es[2] = {0};
    long n = 0;
    for (int i = 0; i < nR; i++) {
        const row_t *r = &R[i];
        if (!r->simmed || !(r->y[T_TTFT] > 0) || !(r->y[T_TPOT] > 0)) continue;
        el[0] += fabs(r->lib_ttft_ms - r->y[T_TTFT]) / r->y[T_TTFT];
        es[0] += fabs(r->a[T_TTFT] - r->y[T_TTFT]) / r->y[T_TTFT];
        el[1] += fabs(r->lib_tpot_ms - r->y[T_TPOT]) / r->y[T_TPOT];
        es[1] += fabs(r->a[T_TPOT] - r->y[T_TPOT]) / r->y[T_TPOT];
        n++;
    }
    if (n)
        printf("\n--agg-sim (h203): %ld aggregated TensorRT-LLM rows played step by step; their TTFT MAPE library %.1f %% "
               "-> played %.1f %%, TPOT %.1f %% -> %.1f %%%s\n", n, 100 * el[0] / n, 100 * es[0] / n, 100 * el[1] / n,
               100 * es[1] / n, agg_sim_mode == 2 ? "" : " (TPOT kept: --agg-sim-tpot plays it)");
}

/* h235 (--sgl-batch-sim): an SGLang prefill worker's batch of one prompt,
 * the library's prefill_ms with max_prefill_tokens 1 (a batch then takes
 * one prompt: llm_serve.c sglang_batch_prompts), beside the k-prompt
 * batch's share prefill_ms already gives.  Under attention DP without an
 * all-to-all that is the ranks' lockstep step of one prompt each (h215). */
static int sgl_batch_on; /* --sgl-batch-sim M (h235): 0 off, 1 every SGLang prefill worker, 2 the lockstep-priced ones */
static void sgl_lone_of(row_t *r, const dlp_llm_config *c, const dlp_device *d) {
    r->sgl_lone_ms = 0;
    if (!sgl_batch_on || r->wl.engine != DLP_LLM_ENGINE_SGLANG || r->wl.phase != DLP_LLM_PREFILL_ONLY) return;
    dlp_llm_workload w = r->wl;
    w.max_prefill_tokens = 1;
    dlp_llm_prediction p;
    dlp_error e = {0};
    if (!dlp_llm_predict(c, d, db, &w, &ANALYTIC, &p, &e)) r->sgl_lone_ms = p.prefill_ms;
}

/* Predict one row at the prompt length its wl.seq holds; 1 if answered. */
static int predict_row_at(row_t *r, const char *model_id, const char *dev_id) {
    nSeen++;
    /* each run's engine was configured for its batch (the data's batch
     * size / max batch size is its max_num_seqs): no default cap of 256 */
    if (!r->wl.max_seqs) r->wl.max_seqs = r->wl.concurrency;
    /* each silicon row's engine by name: their schedulers differ (TTFT) */
    if (!strcmp(r->set, "silicon"))
        r->wl.engine = !strcmp(r->backend, "sglang")   ? DLP_LLM_ENGINE_SGLANG
                       : !strcmp(r->backend, "trtllm") ? DLP_LLM_ENGINE_TRTLLM
                                                       : DLP_LLM_ENGINE_MODERN;
    dlp_error e = {0};
    const dlp_device *d = dlp_devdb_find(db, dev_id);
    if (!d) {
        char b[160];
        snprintf(b, sizeof b, "unknown device %s", dev_id);
        refuse(b);
        return 0;
    }
    dlp_llm_config c;
    if (dlp_llm_catalogue_get(model_id, &c, &e)) {
        char b[160];
        snprintf(b, sizeof b, "model not in the catalogue: %s", model_id);
        refuse(b);
        return 0;
    }
    /* SGLang's redundant experts (an EPLB under expert parallelism only)
     * on top of the model's own */
    if (r->redundant > 0 && c.num_experts > 0 && r->wl.ep > 1) r->wl.expert_slots = (int)c.num_experts + r->redundant;
    dlp_llm_prediction p;
    if (dlp_llm_predict(&c, d, db, &r->wl, &ANALYTIC, &p, &e)) {
        /* the reason without the model id and numbers: the text after the
         * first ': ' up to the next ':' */
        const char *m = strstr(e.msg, ": ");
        char b[160];
        snprintf(b, sizeof b, "%s", m ? m + 2 : e.msg);
        for (char *q = b; *q; q++)
            if ((*q >= '0' && *q <= '9') || *q == '.') *q = '#';
        char *cut = strchr(b, ';');
        if (cut) *cut = 0;
        if (strlen(b) > 90) b[90] = 0;
        refuse(b);
        return 0;
    }
    r->a[T_TTFT] = p.ttft_ms;
    /* ML.ENERGY's TPOT is the decode iteration (stalls for prefill steps
     * out: its tok/s x TPOT / batch falls to 0.5 at a thousand running),
     * the library's decode step; the clients' TPOT has the stalls */
    r->a[T_TPOT] = r->wl.engine == DLP_LLM_ENGINE_VLLM_V0 && strcmp(r->set, "infbench") ? p.decode_step_ms : p.tpot_ms;
    r->a[T_TPUT] = p.output_tokens_per_s;
    r->a[T_ENERGY] = p.energy_j;
    r->a[T_E2E] = p.e2e_ms;
    r->a[T_TOKS] = p.tokens_per_s;
    r->a[T_POWER] = p.power_per_gpu_w;
    double act_b = p.params > 0 ? p.weights_mb * 1048576.0 * (double)p.active_params / (double)p.params : 0;
    r->floor_ms = (double)(r->wl.gen_tokens > 1 ? r->wl.gen_tokens - 1 : 0) * act_b / (d->mem_bandwidth_gbs * 1e9) * 1e3;
    r->running = (double)p.running;
    r->ovh_ms = p.overhead_ms;
    r->req_ms = p.request_ms;
    r->pf_ms = p.prefill_ms, r->dec_ms = p.decode_step_ms, r->kvh_ms = p.kv_handoff_ms;
    r->chunk_tok = p.chunk_tokens;
    sgl_lone_of(r, &c, d);
    trt_pf_steps(r, &c, d, p.compute_dtype);
    agg_sim_row(r, &c, d, &p);
    r->mla = c.kv_lora_rank > 0;
    r->tb_ms = p.ttft_burst_ms, r->ts_ms = p.ttft_steady_ms, r->lockstep = p.lockstep;
    r->um = p.mem_util, r->uc = p.math_util, r->pw = p.power_per_gpu_w, r->tdp = d->tdp_w;
    r->idle_w = dlp__device_idle_w(d);
    r->memw = dlp__mem_power_w(d, p.mem_util * d->mem_bandwidth_gbs * 1e9);
    dlp_llm_serve_features(&c, d, &r->wl, &p, r->x);
    snprintf(r->model, sizeof r->model, "%s", model_id);
    family_of(model_id, r->family, sizeof r->family);
    r->fam = intern(famname, &nfam, r->family);
    r->dev = intern(devname, &ndev, d->id);
    return 1;
}

/* bench-only (h230, --prompt-draw): the prompts as the run's harness drew
 * them.  InferenceX's benchmark_serving.py (sample_random_requests) draws
 * each prompt uniformly in [floor(0.8 ISL), ISL]: --random-range-ratio 0.8
 * in every workflow since the first (SemiAnalysisAI/InferenceX 5a009b0a8
 * workflow-scheduler.yml, 2025-08-12; benchmark-tmpl.yml RANDOM_RANGE_RATIO
 * 0.8 at HEAD; only 6363e6fc7..d696d4ead, one day in 2026-01, drew around
 * ISL), and srt-slurm's sa-bench likewise (bench.sh RANDOM_RANGE_RATIO
 * default 0.8, NVIDIA/srt-slurm c88ef731).  The InferenceMAX-style dumps
 * and their db-dump twins ran those; the gap-analysis files at fixed
 * lengths (h168, wl.fixed_lengths) did not.  The mean prompt, 0.9 ISL, is
 * priced: a prompt step's cost is linear in its length but for attention,
 * whose quadratic part gains var / mean^2 = 0.2^2 / 12 / 0.81 = 0.4 %
 * from the spread, below the noise.  The scripts' own settings read from
 * ISL (max-num-batched-tokens, max_num_tokens) were set on the row before
 * and keep the nominal ISL; the row keeps it too for every slice after. */
static double prompt_draw_ratio; /* 0 off; else the harness's range ratio */
static int prompt_drawn(const row_t *r) {
    return prompt_draw_ratio > 0 && !strcmp(r->set, "silicon") && !r->wl.fixed_lengths &&
           (r->src == SRC_IMAX || r->src == SRC_DBDUMP);
}

static int predict_row(row_t *r, const char *model_id, const char *dev_id) {
    int64_t isl = r->wl.seq;
    if (prompt_drawn(r)) r->wl.seq = (int64_t)llround(0.5 * (1.0 + prompt_draw_ratio) * (double)isl);
    int ok = predict_row_at(r, model_id, dev_id);
    r->wl.seq = isl;
    return ok;
}

/* The next row, cleared: no target measured yet. */
static row_t *new_row(const char *set, const char *system, const char *backend) {
    row_t *r = &R[nR];
    memset(r, 0, sizeof *r);
    for (int t = 0; t < T_COUNT; t++) r->y[t] = NAN;
    r->set = set;
    snprintf(r->system, sizeof r->system, "%s", system);
    snprintf(r->backend, sizeof r->backend, "%s", backend);
    return r;
}

static const char *sys_dev(const char *s) {
    static const struct { const char *a, *b; } m[] = {{"h100_sxm", "h100-sxm"}, {"h200_sxm", "h200"},
                                                      {"b200_sxm", "b200"},     {"b300_sxm", "b300"},
                                                      {"gb200", "gb200"},       {"gb300", "gb300"}};
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++)
        if (!strcmp(s, m[i].a)) return m[i].b;
    return s;
}

/* The model's attention heads (0: not in the catalogue). */
static int64_t heads_of(const char *model_id) {
    dlp_llm_config c;
    dlp_error e = {0};
    return dlp_llm_catalogue_get(model_id, &c, &e) ? 0 : c.num_attention_heads;
}

static int quant_of(const char *gemm, const char *prec) {
    if (!strcmp(gemm, "fp8") || !strcmp(gemm, "fp8_block")) return DLP_QT_FP8;
    if (!strcmp(gemm, "nvfp4")) return DLP_QT_NVFP4;
    if (!strcmp(gemm, "int4_wo")) return DLP_QT_INT4;
    if (!strcmp(prec, "fp8")) return DLP_QT_FP8;
    if (!strcmp(prec, "fp4")) return DLP_QT_NVFP4;
    return DLP_QT_BF16;
}

/* An aggregated row whose GPU count is its own square: the dumps record
 * some runs with tp_size (or attention_dp_size) = moe_tp x moe_ep, moe_tp =
 * moe_ep > 1, past one 8-GPU node (16 = 4 x 4, 64 = 8 x 8).  The same
 * measurements (TTFT and TPOT equal to the last digit) appear elsewhere in
 * the file as the run on moe_ep GPUs: 88 of the 295 such rows have that
 * twin, all 88 on moe_ep GPUs, none on the squared count (DeepSeek-R1, Qwen3.5,
 * gpt-oss on B200/H200: "tp 16, moe_tp 4, moe_ep 4" beside "tp 4, moe_tp
 * 1, moe_ep 4"; "dp 64, 8 x 8" beside "dp 8, moe_ep 8").
 * InferenceMAX ran those recipes on one node (tp = ep = 4 or 8).  Read as
 * 16 or 64 GPUs, a 4-client run paid TP all-reduces over InfiniBand or an
 * eighth of its sequences per rank.  So such a row is read as moe_ep GPUs
 * (TP or attention DP as recorded), experts over all of them.  The vLLM
 * layouts (tp 4 x dp 4, moe_tp 1, moe_ep 16) are not squared: see
 * vllm_ep_layout. */
static int squared_layout(int tp, int dp, int moe_tp, int moe_ep) {
    return tp * dp > 8 && moe_tp > 1 && moe_tp == moe_ep && moe_tp * moe_ep == tp * dp && (tp == 1 || dp == 1);
}

/* A vLLM expert-parallel run as the dumps record it: tp = attention_dp = T
 * > 1, moe_tp 1, moe_ep T x T.  InferenceMAX ran those on T GPUs: its vLLM
 * scripts serve a search-space entry {tp: T, ep: T} as
 * --tensor-parallel-size T --enable-expert-parallel (experts over the same
 * T GPUs), and with dp-attn as --tensor-parallel-size 1
 * --data-parallel-size T (InferenceX benchmarks/single_node/
 * minimaxm2.5_fp4_b200.sh, PARALLEL_ARGS; every vLLM entry of
 * .github/configs/nvidia-master.yaml from 2026-03 to 05 is {tp: T, ep: T},
 * with or without dp-attn, on a one-node runner).  The dumps hold the same
 * runs as (T, 1, 1, T) as well: Kimi-K2.5 nvfp4 on B200, 1k/1k, 1k/8k and
 * 8k/1k at 4-64 clients, TTFT and TPOT equal to the printed digit; MiniMax-
 * M2.5 fp8 on H100 and B200 within run-to-run noise.  Read as T x T GPUs
 * (TP T x attention DP T) a 512-client run had four times the GPUs it ran
 * on, and the predicted / measured TPOT fell with load (0.96 at 16 clients
 * to 0.57 at 512, docs/llm.md "h139").  So such a row is read as T GPUs, TP
 * T, EP T, or attention DP T where the yaml of its date set dp-attn (the
 * dumps do not say: vllm_dp_attn). */
static int vllm_ep_layout(const char *backend, int tp, int dp, int moe_tp, int moe_ep) {
    return !strcmp(backend, "vllm") && tp > 1 && dp == tp && moe_tp == 1 && moe_ep == tp * dp;
}

static void src_field(const char *src, const char *key, char *out, size_t n);
static void recipe_gpu(const char *system, char *gpu, size_t n);
static const char *imax_prefix_path(const char *path);

/* A run whose clients the row does not give.  From 2025-11-21 (InferenceX
 * d22bf9ca9, "refactor Docker runner launch") to 2025-12-08 (4e135fd3f,
 * "fix h100 docker error"), benchmarks/gptoss_fp4_h100_docker.sh served
 * gpt-oss with --max-num-seqs=$CONC and ran the client with
 * --max-concurrency 512 and --num-prompts 10 x CONC (CONC 4-64 in the yaml
 * of those days): all the prompts at once against CONC engine slots.  The
 * dumps record those runs as 512 clients (9 rows, measured 2025-12-05 and
 * 12-08: TTFT 20-460 s, TPOT 3.6-27 ms, below the same configurations'
 * measured TPOT at 64 clients) and CONC is not in the row, so they are
 * counted as refused with that reason, not scored. */
static int clients_not_recorded(const char *backend, const char *model, const char *system, const char *src) {
    char meas[32], conc[16];
    src_field(src, "measured=", meas, sizeof meas);
    src_field(src, "silicon_concurrency=", conc, sizeof conc);
    meas[10] = 0;
    return !strcmp(backend, "vllm") && strstr(model, "gpt-oss") && !strcmp(system, "h100_sxm") && atoi(conc) == 512 &&
           strcmp(meas, "2025-11-21") >= 0 && strcmp(meas, "2025-12-08") <= 0;
}

/* A GB200 / GB300 run of InferenceMAX recorded as aggregated.  InferenceX
 * runs these GPUs only multi-node and disaggregated: in 2025-11 through
 * .github/workflows/full-sweep-*-scheduler.yml's benchmark-gb200 job
 * (benchmark-multinode-tmpl.yml, frameworks dynamo-trtllm and dynamo-sglang:
 * "a workaround until we can integrate GB200 into master configs"), later
 * as multinode entries of nvidia-master.yaml, which never held a single-node
 * GB200 / GB300 entry.  The 55 such rows (2025-11-16 / 17) carry a tp of
 * 12-72, the run's GPUs in all (prefill and decode workers together), and no
 * worker counts: what ran is not in the row, so they are counted as
 * refused with that reason (two of them were answered as one TP 32 / TP 64
 * replica, at 46x the measured TTFT). */
static int imax_multinode_agg(const char *src, const char *system, const char *mode) {
    int s = src_of(src);
    return (s == SRC_IMAX || s == SRC_DBDUMP) && (!strcmp(system, "gb200") || !strcmp(system, "gb300")) &&
           !strcmp(mode, "agg");
}

/* One of tools/inferencemax's tables, or NULL where its path is "none" or
 * it cannot be read (the bench then runs without it, as before it was
 * made): the header row in hl / h / nh, as csv_open leaves it. */
static FILE *table_open(const char *path, char *hl, int nhl, char **h, int maxh, int *nh) {
    FILE *t = strcmp(path, "none") ? fopen(path, "r") : NULL;
    if (!t) return NULL;
    fclose(t);
    return csv_open(path[0] == '/' ? "" : ".", path, hl, nhl, h, maxh, nh);
}

/* The keys every table lookup of a silicon row shares: the run's measured=
 * date (else its dump's source_file= date), the InferenceX model prefix
 * and runner GPU. */
static const char *row_keys(const char *src, const char *model_path, const char *system, char date[32], char gpu[32]) {
    src_field(src, "measured=", date, 32);
    if (strlen(date) < 10) src_field(src, "source_file=", date, 32);
    date[10] = 0;
    recipe_gpu(system, gpu, 32);
    return imax_prefix_path(model_path);
}

/* Which of the two a vLLM EP-layout row ran: tools/inferencemax/vllm_ep.csv
 * (tools/inferencemax/vllm_ep.py) lists every single-node vLLM entry with
 * ep > 1 and its dp-attn flag, per date, as the yaml stood that day.  The
 * row's own measured= date (else its dump's source_file= date), model, GPU,
 * precision, isl, osl, T and clients pick the entries: 1 where all of them
 * set dp-attn; 0 where none does, where they disagree (two runs of one key)
 * or where none is found: TP, the majority (vep_count keeps the four apart). */
#define MAXVEP 2048
static struct {
    char date[11], model[16], gpu[16], prec[8];
    int isl, osl, tp, dp, conc;
} VEP[MAXVEP];
static int nVEP = -1, vep_count[4]; /* dp-attn, TP, disagree, none */
static const char *vep_path = "tools/inferencemax/vllm_ep.csv"; /* --vllm-ep (none: all TP) */

static void load_vllm_ep(void) {
    static char line[512], hl[512];
    char *h[16], *v[16];
    int nh;
    nVEP = 0;
    FILE *f = table_open(vep_path, hl, (int)sizeof hl, h, 16, &nh);
    if (!f) return;
    int cD = csv_col(h, nh, "date"), cM = csv_col(h, nh, "model_prefix"), cG = csv_col(h, nh, "gpu"),
        cP = csv_col(h, nh, "precision"), cI = csv_col(h, nh, "isl"), cO = csv_col(h, nh, "osl"),
        cT = csv_col(h, nh, "tp"), cA = csv_col(h, nh, "dp_attn"), cC = csv_col(h, nh, "conc");
    while (fgets(line, sizeof line, f) && nVEP < MAXVEP) {
        if (csv_split(line, v, 16) != nh) continue;
        snprintf(VEP[nVEP].date, sizeof VEP[nVEP].date, "%s", v[cD]);
        snprintf(VEP[nVEP].model, sizeof VEP[nVEP].model, "%s", v[cM]);
        snprintf(VEP[nVEP].gpu, sizeof VEP[nVEP].gpu, "%s", v[cG]);
        snprintf(VEP[nVEP].prec, sizeof VEP[nVEP].prec, "%s", v[cP]);
        VEP[nVEP].isl = atoi(v[cI]), VEP[nVEP].osl = atoi(v[cO]), VEP[nVEP].tp = atoi(v[cT]);
        VEP[nVEP].dp = atoi(v[cA]), VEP[nVEP].conc = atoi(v[cC]);
        nVEP++;
    }
    fclose(f);
}

static int vllm_dp_attn(const char *src, const char *model_path, const char *system, const char *prec, int isl,
                        int osl, int tp, int conc) {
    char date[32], gpu[32];
    const char *mp = row_keys(src, model_path, system, date, gpu);
    if (nVEP < 0) load_vllm_ep();
    int n[2] = {0, 0};
    for (int i = 0; i < nVEP; i++)
        if (!strcmp(VEP[i].date, date) && !strcmp(VEP[i].model, mp) && !strcmp(VEP[i].gpu, gpu) &&
            !strcmp(VEP[i].prec, prec) && VEP[i].isl == isl && VEP[i].osl == osl && VEP[i].tp == tp &&
            VEP[i].conc == conc)
            n[VEP[i].dp != 0]++;
    int k = n[1] && !n[0] ? 0 : n[0] && !n[1] ? 1 : n[0] ? 2 : 3;
    vep_count[k]++;
    return k == 0;
}

/* h209: what an InferenceX vLLM script passed, per date
 * (tools/inferencemax/vllm_scripts.csv, written by vllm_scripts.py: every
 * single-node script serving vLLM as it stood at the end of each measured
 * date, keyed by the model prefix, precision and GPU of its name).
 *  - ep_always: the scripts are to pass --enable-expert-parallel only when
 *    the entry's ep > 1 (`if [ "$EP_SIZE" -gt 1 ]`), and the workflow passes
 *    EP_SIZE = 1 for an entry without ep (benchmark-tmpl.yml, EP_SIZE:
 *    inputs.ep; generate_sweep_configs.py's default 1).  Two tested `-ge 1`:
 *    benchmarks/single_node/minimaxm2.5_fp8_b200.sh from f342df18e
 *    (2026-03-11) to bddbf4031 (2026-04-03, "fix typo in ep bash script"),
 *    minimaxm2.5_fp8_h200.sh from 5e2c705d3 (2026-03-13) to 8014ee637
 *    (2026-05-26).  Every run they served had its experts over its TP GPUs;
 *    the dumps record those runs as ep 1.
 *  - kv_fp8: --kv-cache-dtype fp8 (without it vLLM keeps the KV cache in the
 *    model's data type, "auto").  Listed, not read: read as a bf16 KV cache
 *    on the "fp8" rows it made the headline worse (docs/llm.md, h209).
 *  - mnbt / mnbt_isl: --max-num-batched-tokens, a literal or k x ISL
 *    ("$((ISL * 2 ))": minimaxm2.5_fp8_b200.sh from bddbf4031, 2026-04-03;
 *    the fp4 B200 / B300 and fp8 B300 scripts, kimik2.5_fp4_b200.sh) -- the
 *    tokens a vLLM V1 step schedules at most, running decodes first, then
 *    waiting prompts, chunked (vllm/v1/core/sched/scheduler.py, schedule():
 *    token_budget = max_num_scheduled_tokens).  gpt-oss's config files'
 *    8,192 is vLLM's own default on these GPUs: no change.
 *  - cg_max (h224): --max-cudagraph-capture-size, 0 where not set (vLLM's
 *    default, VLLM_CG_DEFAULT); see vllm_ungraphed.
 * A row of an InferenceX run (InferenceMAX-style dumps, db-dump) matches on
 * its measured date, model prefix, precision and GPU.  --vllm-scripts none:
 * off. */
#define MAXVSC 1024
static struct {
    char date[11], model[16], prec[8], gpu[16];
    int ep_always, kv_fp8, mnbt, mnbt_isl, cg_max;
} VSC[MAXVSC];
static int nVSC = -1, vsc_count, mnbt_count; /* rows read as EP = TP; budgets read */
static int ungraphed_count[2];               /* prompt steps past / within the captured sizes */
static const char *vsc_path = "tools/inferencemax/vllm_scripts.csv";

static void load_vllm_scripts(void) {
    static char line[512], hl[512];
    char *h[12], *v[12];
    int nh;
    nVSC = 0;
    FILE *f = table_open(vsc_path, hl, (int)sizeof hl, h, 12, &nh);
    if (!f) return;
    int cD = csv_col(h, nh, "date"), cM = csv_col(h, nh, "model_prefix"), cP = csv_col(h, nh, "precision"),
        cG = csv_col(h, nh, "gpu"), cE = csv_col(h, nh, "ep_always"), cK = csv_col(h, nh, "kv_fp8"),
        cN = csv_col(h, nh, "mnbt"), cNI = csv_col(h, nh, "mnbt_isl"), cC = csv_col(h, nh, "cg_max");
    while (fgets(line, sizeof line, f) && nVSC < MAXVSC) {
        if (csv_split(line, v, 12) != nh || cD < 0 || cM < 0 || cP < 0 || cG < 0 || cE < 0 || cK < 0) continue;
        snprintf(VSC[nVSC].date, sizeof VSC[nVSC].date, "%s", v[cD]);
        snprintf(VSC[nVSC].model, sizeof VSC[nVSC].model, "%s", v[cM]);
        snprintf(VSC[nVSC].prec, sizeof VSC[nVSC].prec, "%s", v[cP]);
        snprintf(VSC[nVSC].gpu, sizeof VSC[nVSC].gpu, "%s", v[cG]);
        VSC[nVSC].ep_always = atoi(v[cE]), VSC[nVSC].kv_fp8 = atoi(v[cK]);
        VSC[nVSC].mnbt = cN >= 0 ? atoi(v[cN]) : 0, VSC[nVSC].mnbt_isl = cNI >= 0 ? atoi(v[cNI]) : 0;
        VSC[nVSC].cg_max = cC >= 0 ? atoi(v[cC]) : 0;
        nVSC++;
    }
    fclose(f);
}

/* The script entry of a vLLM InferenceX row, or -1. */
static int vllm_script_row(const char *backend, const char *src, const char *model_path, const char *system,
                           const char *prec) {
    int s = src_of(src);
    if (strcmp(backend, "vllm") || (s != SRC_IMAX && s != SRC_DBDUMP)) return -1;
    char date[32], gpu[32];
    const char *mp = row_keys(src, model_path, system, date, gpu);
    if (nVSC < 0) load_vllm_scripts();
    for (int i = 0; i < nVSC; i++)
        if (!strcmp(VSC[i].date, date) && !strcmp(VSC[i].model, mp) && !strcmp(VSC[i].prec, prec) &&
            !strcmp(VSC[i].gpu, gpu))
            return i;
    return -1;
}

/* h224: vLLM's prompt steps past its largest captured CUDA graph.  vLLM V1
 * captures graphs for token counts up to max_cudagraph_capture_size, by
 * default min(2 x max_num_seqs, 512) (vllm/config/vllm.py
 * _set_cudagraph_sizes; max_num_seqs 1,024 for the OpenAI server on these
 * GPUs, so 512); a step of more tokens runs the compiled pieces without a
 * graph (vllm/compilation/cuda_piecewise_backend.py: a runtime shape not in
 * the capture list takes compiled_graph_for_general_shape), each kernel
 * issued from the host.  So a step carrying a prompt chunk of more tokens
 * than the script's --max-cudagraph-capture-size (cg_max; 0: the default)
 * pays the host time of an un-graphed forward, which the library adds to
 * every step with prompt tokens as wl->ctx_host_ms (h208); its size per
 * layer is the eager engine's (DLP__LLM_EAGER_LAYER_MS, splitwise's
 * pre-graph vLLM, llm_serve.c EAGER_LAYER_MS), --vllm-ungraphed-ms X to
 * change it, 0 to leave it out.  Decode-only steps stay graphed (the runs'
 * decode batches are within the captured sizes but for a few 1,024-client
 * rows, not read). */
#define VLLM_CG_DEFAULT 512
static double vllm_ungraphed_ms = DLP__LLM_EAGER_LAYER_MS;
static void vllm_ungraphed(dlp_llm_workload *wl, const char *model_path, int cg_max) {
    int64_t cg = cg_max > 0 ? cg_max : VLLM_CG_DEFAULT;
    int64_t chunk = wl->chunk_tokens > 0 && wl->chunk_tokens < wl->seq ? wl->chunk_tokens : wl->seq;
    dlp_llm_config c;
    dlp_error e = {0};
    if (!(vllm_ungraphed_ms > 0) || dlp_llm_catalogue_get(model_path, &c, &e)) return;
    ungraphed_count[chunk <= cg]++;
    if (chunk > cg) wl->ctx_host_ms = vllm_ungraphed_ms * (double)c.num_hidden_layers;
}

/* Read what the row's script set: EP = TP on a TP row (ep 1, no attention
 * DP, tp > 1) of an ep_always script; its --max-num-batched-tokens as the
 * step's token budget (wl->chunk_tokens); its captured sizes
 * (vllm_ungraphed). */
static void vllm_script_reading(dlp_llm_workload *wl, const char *backend, const char *src, const char *model_path,
                                const char *system, const char *prec) {
    int i = vllm_script_row(backend, src, model_path, system, prec);
    if (i < 0) return;
    if (VSC[i].ep_always && wl->n_gpus > 1 && wl->attn_dp <= 1 && wl->ep <= 1) wl->ep = wl->n_gpus, vsc_count++;
    /* --max-num-batched-tokens: vLLM V1's token budget a step shares
     * between its decodes and (chunked) prompts */
    int64_t b = VSC[i].mnbt_isl > 0 ? VSC[i].mnbt_isl * wl->seq : VSC[i].mnbt;
    if (b > 0) wl->chunk_tokens = b, mnbt_count++;
    vllm_ungraphed(wl, model_path, VSC[i].cg_max);
}

/* Settings InferenceX's single-node SGLang scripts pass, per date
 * (tools/inferencemax/recv_interval.py evaluates each script's rule per
 * TP, clients and lengths; its --setting picks the flag):
 *  - recv_interval.csv: --scheduler-recv-interval (docs/llm.md, "SGLang's
 *    scheduler receive interval (h159)"; dsr1_fp4_b200.sh: 30 at CONC >= 16,
 *    else 10); no entry: SGLang's default, 1;
 *  - sglang_ep_moe.csv: 1 where the script passes --enable-ep-moe, at the
 *    date's start or end (sglang_ep_moe);
 *  - sglang_mem.csv: --mem-fraction-static, the share of GPU memory SGLang
 *    takes for weights and KV cache (dsr1_fp8_b200.sh from 2026-03: 0.82 at
 *    TP 8, 0.95 at TP 4); no entry: the library's default.
 * The row's measured= date (else its dump's source_file= date), model
 * prefix, GPU, precision, TP (the GPUs: SGLang's --tp-size under attention
 * DP too), clients and isl / osl (0 / 0: any) pick the non-MTP script's
 * value: script_value gives it, 0 where none or the rule left it unresolved
 * (0 in the table); count: a value, none, unresolved. */
#define MAXSCR 4096
typedef struct {
    char date[11], model[16], gpu[16], prec[8];
    int mtp, isl, osl, tp, cmin, cmax;
    double v;
} scr_row;
typedef struct {
    const char *path; /* --recv-interval / --sglang-mem (none: no table) */
    scr_row *r;
    int n, count[3];
} scr_tab;
static scr_tab RCV = {"tools/inferencemax/recv_interval.csv", NULL, -1, {0}},
               SMEM = {"tools/inferencemax/sglang_mem.csv", NULL, -1, {0}},
               EPM = {"tools/inferencemax/sglang_ep_moe.csv", NULL, -1, {0}};

static void load_script_tab(scr_tab *t) {
    static char line[512], hl[512];
    char *h[16], *v[16];
    int nh;
    t->n = 0;
    FILE *f = table_open(t->path, hl, (int)sizeof hl, h, 16, &nh);
    if (!f || !(t->r = calloc(MAXSCR, sizeof *t->r))) {
        if (f) fclose(f);
        return;
    }
    int cD = csv_col(h, nh, "date"), cM = csv_col(h, nh, "model_prefix"), cG = csv_col(h, nh, "gpu"),
        cP = csv_col(h, nh, "precision"), cK = csv_col(h, nh, "mtp"), cI = csv_col(h, nh, "isl"),
        cO = csv_col(h, nh, "osl"), cT = csv_col(h, nh, "tp"), cA = csv_col(h, nh, "conc_min"),
        cB = csv_col(h, nh, "conc_max"), cN = csv_col(h, nh, "value");
    while (fgets(line, sizeof line, f) && t->n < MAXSCR) {
        if (csv_split(line, v, 16) != nh) continue;
        scr_row *e = &t->r[t->n++];
        snprintf(e->date, sizeof e->date, "%s", v[cD]);
        snprintf(e->model, sizeof e->model, "%s", v[cM]);
        snprintf(e->gpu, sizeof e->gpu, "%s", v[cG]);
        snprintf(e->prec, sizeof e->prec, "%s", v[cP]);
        e->mtp = atoi(v[cK]), e->isl = atoi(v[cI]), e->osl = atoi(v[cO]);
        e->tp = atoi(v[cT]), e->cmin = atoi(v[cA]), e->cmax = atoi(v[cB]), e->v = atof(v[cN]);
    }
    fclose(f);
}

static double script_value(scr_tab *t, const char *src, const char *model_path, const char *system, const char *prec,
                           int isl, int osl, int gpus, int64_t conc) {
    char date[32], gpu[32];
    const char *mp = row_keys(src, model_path, system, date, gpu);
    if (t->n < 0) load_script_tab(t);
    int found = 0;
    double val = 0;
    for (int i = 0; i < t->n; i++) {
        const scr_row *e = &t->r[i];
        if (!e->mtp && !strcmp(e->date, date) && !strcmp(e->model, mp) && !strcmp(e->gpu, gpu) &&
            !strcmp(e->prec, prec) && (e->isl == 0 || (e->isl == isl && e->osl == osl)) && e->tp == gpus &&
            conc >= e->cmin && conc <= e->cmax)
            found = 1, val = e->v;
    }
    t->count[found && val > 0 ? 0 : !found ? 1 : 2]++;
    return val;
}

/* The receive interval of a row: > 1 where its script set one, else 0
 * (SGLang's default, every step). */
static int sglang_recv_interval(const char *src, const char *model_path, const char *system, const char *prec,
                                int isl, int osl, int gpus, int64_t conc) {
    double n = script_value(&RCV, src, model_path, system, prec, isl, osl, gpus, conc);
    return n > 1 ? (int)n : 0;
}

/* The experts of an SGLang row recorded without expert parallelism (issue
 * 22, h207).  InferenceX's dsr1_fp4_b200_docker.sh passed --enable-ep-moe
 * until d8fe8f73e (2025-11-10 19:55 UTC, "fix deprecated flags": from then
 * --ep-size $EP_SIZE with ep: 4 / 8 = tp in the yaml), and SGLang's
 * ServerArgs.__post_init__ reads that switch as ep_size = tp_size
 * (python/sglang/srt/server_args.py: "if self.enable_ep_moe: self.ep_size =
 * self.tp_size", kept as a deprecated alias in 0.5.x).  The dumps record
 * those runs with moe_tp = tp, moe_ep 1: the yaml of the day had no ep:
 * field for them to copy.  So a TP row with moe_ep 1 whose script passed
 * the switch (at its date's start or end: tools/inferencemax/
 * sglang_ep_moe.csv) ran its experts over its TP GPUs: EP = TP. */
static int sglang_ep_moe(const char *src, const char *model_path, const char *system, const char *prec, int isl,
                         int osl, int tp, int dp, int ep, int64_t conc) {
    if (tp < 2 || dp > 1 || ep > 1) return ep;
    return script_value(&EPM, src, model_path, system, prec, isl, osl, tp, conc) == 1 ? tp : ep;
}

/* The gap-analysis dumps' harness (docs/llm.md, "The gap-analysis dumps",
 * h168).  Their per-engine files (source_file .../aic-auto-gap-analysis/
 * data/<gpu>/<engine>/<version>/<model>.csv) were measured with
 * aiconfigurator's own benchmark runners, which send fixed lengths:
 * genai_perf_runner.py (961028348, 2025-08-22) "--synthetic-input-tokens-
 * stddev 0", "--output-tokens-stddev 0", ignore_eos, and bench_run.sh.j2
 * (f90534bc2, 2026-02-11) "aiperf profile --isl-stddev 0 --osl-stddev 0",
 * ignore_eos.  The two files at the project's root (qwen3.5-397b-, kimi-
 * k2.5-gap-analysis.csv) ran InferenceMAX's 1k/1k, 1k/8k, 8k/1k grid and
 * clients instead: not read as fixed.  gap_fixed_count: fixed, not. */
static int gap_fixed_count[2];
static int gap_fixed_lengths(const char *src) {
    int fixed = strstr(src, "gap-analysis/data/") != NULL;
    if (strstr(src, "gap-analysis")) gap_fixed_count[!fixed]++;
    return fixed;
}

/* aiconfigurator's generator, which deploys what its harness measures,
 * sets "agg enable_mixed_chunk = true" for SGLang in its rule plugin
 * (src/aiconfigurator/generator/rule_plugin/sglang.rule, fa895ffb1 /
 * 07a377923, 2026-01-19), before it gained the Dynamo 0.8.0 templates
 * (c46a56b02, 2026-01-23, cli_args.0.5.6.post2.j2 passes
 * --enable-mixed-chunk); its backend_version_matrix.yaml pairs Dynamo
 * 0.8.x with SGLang 0.5.6.post2, 0.9.0 with 0.5.8, then 0.5.9, 0.5.10.post1,
 * 0.5.11, 0.5.16.  So a gap-analysis SGLang file at one of those pinned
 * versions ran the generator's deployment, mixed chunks; others keep
 * SGLang's default (off): 0.5.1.post1 (Dynamo 0.5, before the generator ran
 * SGLang at all, 95ddf241a, 2025-12-04) and 0.5.8.post1 (no Dynamo release
 * pins it; its file is the TP 1 column of the 0.5.1.post1 grid: 16 clients,
 * 1k / 2k prompts, 128-512 outputs). */
static int gap_mixed_chunk(const char *src, const char *version) {
    static const char *const pinned[] = {"0.5.6.post2", "0.5.8", "0.5.9", "0.5.10.post1", "0.5.11", "0.5.16"};
    if (!strstr(src, "gap-analysis/data/")) return 0;
    for (size_t i = 0; i < sizeof pinned / sizeof *pinned; i++)
        if (!strcmp(version, pinned[i])) return 1;
    return 0;
}

/* Aggregated runs that decoded with MTP (docs/llm.md, "Aggregated MTP runs
 * (h159)"): the dumps do not record it, InferenceX runs it as its own config
 * key with spec-decoding: mtp, often on its own image.
 * tools/inferencemax/spec_agg.csv (tools/inferencemax/spec_agg.py) lists
 * every single-node trt / sglang entry per date with its image tag, spec
 * and the drafts its script sets.  A row's entries: its measured= date,
 * model prefix, GPU, precision, framework, isl, osl, GPUs (tp), ep, dp-attn
 * and clients within conc_lo..conc_hi; of them those on the row's image
 * where any are.  All MTP with one draft count K > 0: K drafts at
 * A(K) = p + ... + p^K accepted (mtp_accepted, IMAX_MTP_P); all plain, none
 * found, or mixed (the two keys ran the same image and clients): plain.
 * spa_count: MTP, plain, mixed, no entry.  TensorRT-LLM's rows only: its
 * MTP keys ran their own image and p is calibrated to its published
 * speedup; SGLang's MTP keys share the plain ones' image, and the DeepSeek
 * pairs the data holds at one key (one run of each) are 1.10-1.31x apart
 * where p 0.708 and 2 drafts would give ~2x (docs/llm.md). */
#define MAXSPA 8192
static struct {
    char date[11], model[16], gpu[16], prec[8], fw[8], image[40], key[48];
    int isl, osl, tp, ep, dp, lo, hi, mtp, k;
} SPA[MAXSPA];
static int nSPA = -1, spa_count[4];
static const char *spa_path = "tools/inferencemax/spec_agg.csv"; /* --spec-agg (none: all plain) */

static void load_spec_agg(void) {
    static char line[512], hl[512];
    char *h[20], *v[20];
    int nh;
    nSPA = 0;
    FILE *f = table_open(spa_path, hl, (int)sizeof hl, h, 20, &nh);
    if (!f) return;
    int cD = csv_col(h, nh, "date"), cM = csv_col(h, nh, "model_prefix"), cG = csv_col(h, nh, "gpu"),
        cP = csv_col(h, nh, "precision"), cF = csv_col(h, nh, "framework"), cIm = csv_col(h, nh, "image"),
        cI = csv_col(h, nh, "isl"), cO = csv_col(h, nh, "osl"), cT = csv_col(h, nh, "tp"), cE = csv_col(h, nh, "ep"),
        cA = csv_col(h, nh, "dp_attn"), cL = csv_col(h, nh, "conc_lo"), cH = csv_col(h, nh, "conc_hi"),
        cS = csv_col(h, nh, "spec"), cK = csv_col(h, nh, "drafts"), cC = csv_col(h, nh, "config_key");
    while (fgets(line, sizeof line, f) && nSPA < MAXSPA) {
        if (csv_split(line, v, 20) != nh) continue;
        snprintf(SPA[nSPA].date, sizeof SPA[nSPA].date, "%s", v[cD]);
        snprintf(SPA[nSPA].model, sizeof SPA[nSPA].model, "%s", v[cM]);
        snprintf(SPA[nSPA].gpu, sizeof SPA[nSPA].gpu, "%s", v[cG]);
        snprintf(SPA[nSPA].prec, sizeof SPA[nSPA].prec, "%s", v[cP]);
        snprintf(SPA[nSPA].fw, sizeof SPA[nSPA].fw, "%s", v[cF]);
        snprintf(SPA[nSPA].image, sizeof SPA[nSPA].image, "%s", v[cIm]);
        snprintf(SPA[nSPA].key, sizeof SPA[nSPA].key, "%s", cC >= 0 ? v[cC] : "");
        SPA[nSPA].isl = atoi(v[cI]), SPA[nSPA].osl = atoi(v[cO]), SPA[nSPA].tp = atoi(v[cT]);
        SPA[nSPA].ep = atoi(v[cE]), SPA[nSPA].dp = atoi(v[cA]), SPA[nSPA].lo = atoi(v[cL]);
        SPA[nSPA].hi = atoi(v[cH]), SPA[nSPA].mtp = !strcmp(v[cS], "mtp"), SPA[nSPA].k = atoi(v[cK]);
        nSPA++;
    }
    fclose(f);
}

/* An image tag as a version: "v0.5.9-cu130" and "0.5.9" both 0.5.9,
 * "1.2.0rc6.post3" as it is. */
static void tag_version(const char *tag, char *out, size_t n) {
    if (*tag == 'v') tag++;
    snprintf(out, n, "%s", tag);
    out[strcspn(out, "-")] = 0;
}

/* The row's image tag: the source's image= field, else a db-dump's last
 * field (an image reference), else the backend version. */
static void row_image(const char *src, const char *version, char *out, size_t n) {
    char img[160] = "";
    src_field(src, "image=", img, sizeof img);
    const char *last = strrchr(src, ';');
    if (!*img && last && strchr(last, '/')) snprintf(img, sizeof img, "%s", last + 1 + strspn(last + 1, " "));
    const char *c = strrchr(img, ':');
    tag_version(c ? c + 1 : version, out, n);
}

/* "YYYY-MM-DDTHH:MM:SS" (or a bare date) -> seconds since 1970, UTC; -1 if
 * not a date.  Days from the civil date (Howard Hinnant's days_from_civil),
 * so that no time zone or timegm() is involved. */
static int64_t utc_seconds(const char *s) {
    int y, mo, d, h = 0, mi = 0, se = 0;
    if (sscanf(s, "%4d-%2d-%2d", &y, &mo, &d) != 3) return -1;
    if (strlen(s) >= 19) sscanf(s + 11, "%2d:%2d:%2d", &h, &mi, &se);
    y -= mo <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400, yoe = y - era * 400;
    int64_t doy = (153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5 + d - 1, doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return ((era * 146097 + doe - 719468) * 24 + h) * 3600 + mi * 60 + se;
}

/* One line of changelog_runs.csv: a push's UTC date, its time as seconds
 * since 1970 (-1 where the table has no time), a key pattern it ran. */
#define MAXCLR 2048
typedef struct {
    char date[11], key[64];
    int64_t t;
} clr_t;

/* Read a changelog_runs.csv into out (at most max lines): the count. */
static int clr_load(const char *path, clr_t *out, int max) {
    static char line[256], hl[256];
    char *h[8], *v[8], stamp[40];
    int nh, n = 0;
    FILE *f = table_open(path, hl, (int)sizeof hl, h, 8, &nh);
    if (!f) return 0;
    int cD = csv_col(h, nh, "date"), cT = csv_col(h, nh, "time"), cK = csv_col(h, nh, "config_key");
    while (fgets(line, sizeof line, f) && n < max) {
        if (csv_split(line, v, 8) != nh || cD < 0 || cK < 0) continue;
        snprintf(out[n].date, sizeof out[n].date, "%s", v[cD]);
        snprintf(out[n].key, sizeof out[n].key, "%s", v[cK]);
        snprintf(stamp, sizeof stamp, "%sT%s", v[cD], cT >= 0 ? v[cT] : "");
        out[n++].t = cT >= 0 ? utc_seconds(stamp) : -1;
    }
    fclose(f);
    return n;
}

/* The sweep that ran a row (docs/llm.md, "The sweep that ran a row (issue 22,
 * h188)"): InferenceX's Run Sweep workflow runs, on a push to main that
 * touches perf-changelog.yaml (no [skip-sweep]), only the config keys of the
 * changelog entries that push added (utils/process_changelog.py: the diff's
 * '+' lines; a '*' in a key matches any run of characters, re.fullmatch).
 * tools/inferencemax/changelog_runs.csv (changelog_runs.py) lists each push's
 * date (UTC) and key patterns.  Where a row's date, image and clients fit
 * both an MTP and a plain key (agg_spec's "mixed"), the keys the day's pushes
 * ran tell which of the two it was: the MTP key's alone -> MTP, the plain
 * key's alone -> plain, both or neither -> still mixed (read plain).  On
 * 2026-01-14 the only push of the NVIDIA DeepSeek TensorRT-LLM keys was #392
 * (bf3456727, the MTP keys alone, merged 22:26:18 UTC; the InferenceMAX
 * dumps' runs say measured=2026-01-14T22:26:21Z).  --no-changelog: off. */
static clr_t CLR[MAXCLR];
static int nCLR = -1, clr_count[3], no_changelog; /* MTP, plain, still mixed */
static const char *clr_path = "tools/inferencemax/changelog_runs.csv";

static void load_changelog_runs(void) { nCLR = clr_load(clr_path, CLR, MAXCLR); }

/* process_changelog.py's match: the pattern, '*' any run of characters,
 * matching the whole key */
static int glob_full(const char *pat, const char *key) {
    if (!*pat) return !*key;
    if (*pat == '*') {
        for (const char *k = key;; k++) {
            if (glob_full(pat + 1, k)) return 1;
            if (!*k) return 0;
        }
    }
    return *pat == *key && glob_full(pat + 1, key + 1);
}

/* Did a push of this date run the config key? */
static int changelog_ran(const char *date, const char *key) {
    if (nCLR < 0) load_changelog_runs();
    for (int i = 0; i < nCLR; i++)
        if (!strcmp(CLR[i].date, date) && glob_full(CLR[i].key, key)) return 1;
    return 0;
}

static int agg_spec(const char *src, const char *model_path, const char *system, const char *prec, const char *backend,
                    const char *version, int isl, int osl, int gpus, int ep, int dp, int64_t conc) {
    const char *fw = !strcmp(backend, "trtllm") ? "trt" : backend;
    char date[32], gpu[32], tag[40], et[40];
    const char *mp = row_keys(src, model_path, system, date, gpu);
    row_image(src, version, tag, sizeof tag);
    if (nSPA < 0) load_spec_agg();
    int n[2][2] = {{0, 0}, {0, 0}}, k[2] = {-1, -1}; /* [on the row's image][mtp] */
    int ran[2][2] = {{0, 0}, {0, 0}};                 /* ... of them, a key the day's pushes ran */
    for (int i = 0; i < nSPA; i++) {
        if (strcmp(SPA[i].date, date) || strcmp(SPA[i].model, mp) || strcmp(SPA[i].gpu, gpu) ||
            strcmp(SPA[i].prec, prec) || strcmp(SPA[i].fw, fw) || SPA[i].isl != isl || SPA[i].osl != osl ||
            SPA[i].tp != gpus || SPA[i].ep != ep || SPA[i].dp != (dp > 1) || conc < SPA[i].lo || conc > SPA[i].hi)
            continue;
        tag_version(SPA[i].image, et, sizeof et);
        int on = !strcmp(et, tag);
        n[on][SPA[i].mtp]++;
        if (!no_changelog && *SPA[i].key && changelog_ran(date, SPA[i].key)) ran[on][SPA[i].mtp]++;
        if (SPA[i].mtp) k[on] = k[on] < 0 || k[on] == SPA[i].k ? SPA[i].k : 0;
    }
    int on = n[1][0] + n[1][1] > 0, mtp = n[on][1], plain = n[on][0];
    if (mtp && plain) {
        /* mixed: the day's pushes ran one of the two keys only (h188) */
        if (ran[on][1] && !ran[on][0]) plain = 0, clr_count[0]++;
        else if (ran[on][0] && !ran[on][1]) mtp = 0, clr_count[1]++;
        else clr_count[2]++;
    }
    int c = mtp && !plain && k[on] > 0 ? 0 : plain && !mtp ? 1 : mtp ? 2 : 3;
    spa_count[c]++;
    return c == 0 ? k[on] : 0;
}

/* The InferenceMAX recipes (docs/llm.md, "Worker counts from the
 * InferenceMAX recipes (h129)"): tools/inferencemax/recipes.csv, written by
 * tools/inferencemax/extract.py from SemiAnalysis' InferenceX
 * nvidia-master.yaml as in force on each dump's date.  The InferenceMAX-
 * style silicon dumps lost the worker counts, the attention-DP flags and
 * the spec-decoding field; the run configurations give them back where
 * one configuration fits the row. */
#define MAXREC 20000 /* 16,145 entries: the dump dates, the runs' measured= dates (h142, h143), the
                       * srt-slurm re-keyed rows (h162) and h170's (GLM-5 recipes, dynamo sweeps, the
                       * submission branch at its merge) */
typedef struct {
    char date[11], model[16], gpu[16], prec[8], engine[8];
    int isl, osl, conc;
    int mtp, k;        /* spec-decoding mtp; its draft tokens (-1: not in the recipe name) */
    int batch;         /* decode max batch per rank from the recipe name (0: not given) */
    int pw, ptp, pep, pdp, dw, dtp, dep, ddp; /* workers, tp, ep, dp-attn (0/1) */
    int slots_d;       /* TensorRT-LLM: the decode worker's expert slots, eplbN of the
                          recipe name (its load_balancer num_slots; 0: eplb0, none) */
    int red_p, red_d;  /* SGLang: each worker's ep-num-redundant-experts
                          (redundant_experts.csv; 0: none) */
    int cap_d;         /* SGLang: one decode worker's running-request cap under
                          a round-robin router (decode_caps.csv; 0: unknown) */
    int srt;           /* re-keyed on the srt-slurm recipe's benchmark clients
                          (commit "srt-slurm@...", h162; 1) or on dynamo's sweep
                          script's (commit "dynamo-sweeps@...", h170; 2): matched
                          only as the last look, on the run's measured= date */
    int srt_twin;      /* a yaml entry whose recipe has re-keyed rows on its date */
    char recipe[112];  /* the recipe file (the twin look-up) */
    char key[48];      /* InferenceX's config key (dsr1-fp8-b200-dynamo-sglang-mtp) */
    int alt_k;         /* set on a match only (recipe_match_on): where the fitting
                          entries are one plain and one MTP entry with the same
                          counts, the MTP one's drafts (h233, mtp_pair_k); 0 none */
} recipe_t;
static recipe_t REC[MAXREC];
static int nREC;
static const char *recipes_path = "tools/inferencemax/recipes.csv"; /* --recipes (none: off) */

/* Redundant experts of the recipes (docs/llm.md, "Redundant experts (EPLB
 * expert slots, h138)").  TensorRT-LLM's recipe names carry the decode
 * worker's slots (ctx1_gen1_dep32_batch256_eplb288_mtp1.yaml: its
 * moe_config load_balancer num_slots 288; the prefill side sets none);
 * SGLang's names carry nothing, so tools/inferencemax/redundant_experts.sh
 * reads each recipe's ep-num-redundant-experts from NVIDIA/srt-slurm into
 * tools/inferencemax/redundant_experts.csv (absent: none). */
static int eplb_of(const char *recipe) {
    const char *b = strrchr(recipe, '/'), *q = strstr(b ? b : recipe, "_eplb");
    return q ? atoi(q + 5) : 0;
}

/* A table of srt-slurm recipes' settings, one line a recipe (the
 * tables the tools/inferencemax readers write): the recipe's name and
 * two figures (four for h200's context settings), parsed from each line by `parse` (0: not a row, e.g. the
 * header), at most `max` rows; loaded once, where the file is.  A name the
 * file repeats is found at its first row. */
#define RTAB_MAX 512 /* h187's trt_prefill.csv: 326 recipes */
typedef struct {
    char name[RTAB_MAX][112];
    int64_t v[RTAB_MAX][4];
    int n; /* -1: not loaded */
} recipe_tab;
static void rtab_load(recipe_tab *t, int max, const char *path, int (*parse)(const char *line, char *name, int64_t v[2])) {
    t->n = 0;
    FILE *f = fopen(path, "r");
    char line[512];
    while (f && fgets(line, sizeof line, f) && t->n < max && t->n < RTAB_MAX)
        if (parse(line, t->name[t->n], t->v[t->n])) t->n++;
    if (f) fclose(f);
}
static const int64_t *rtab_find(const recipe_tab *t, const char *recipe) {
    for (int i = 0; i < t->n; i++)
        if (!strcmp(t->name[i], recipe)) return t->v[i];
    return NULL;
}

static int parse_redundant(const char *line, char *name, int64_t v[2]) {
    int a, b;
    if (sscanf(line, "%95[^,],%d,%d", name, &a, &b) != 3) return 0; /* the header */
    v[0] = a, v[1] = b;
    return 1;
}
static void redundant_of(const char *recipe, int *red_p, int *red_d) {
    static recipe_tab t = {.n = -1};
    if (t.n < 0) rtab_load(&t, 64, "tools/inferencemax/redundant_experts.csv", parse_redundant);
    const int64_t *v = rtab_find(&t, recipe);
    *red_p = v ? (int)v[0] : 0, *red_d = v ? (int)v[1] : 0;
}

/* The decode worker's MoE backend of TensorRT-LLM's recipes (issue 22,
 * h197): tools/inferencemax/moe_backend.py reads each recipe's
 * backend.trtllm_config.decode.moe_config.backend from NVIDIA/srt-slurm (as
 * in force on the rows' dates) into tools/inferencemax/moe_backend.csv
 * (recipe, decode TRTLLM 1/0, prefill TRTLLM 1/0; recipes with no TRTLLM
 * side absent).  TRTLLM is the trtllm-gen fused MoE: the library's
 * moe_trtllm_gen (h188), which moves block-fp8 experts on Blackwell only
 * and decode steps only.  --no-moe-backend: off (with h188's). */
static int parse_moe_backend(const char *line, char *name, int64_t v[2]) {
    int a, b;
    if (sscanf(line, "%95[^,],%d,%d", name, &a, &b) != 3) return 0; /* the header */
    v[0] = a, v[1] = b;
    return 1;
}
static int moe_dec_count, no_moe_backend; /* (h188's switch, below) */
/* Where the reading is passed: --decode-moe-backend all (the default: any
 * GPU; the library moves Blackwell only), b200 (the GPU h188's fit was timed
 * on) or none (off).  h197 left it off, as it moved silicon TTFT up; with
 * DeepGEMM priced as Blackwell's own kernel (the library's
 * MOE_FITFP8_TRT_BW, h205) both headlines fall with it on (docs/llm.md,
 * h205).  Only at EP 1, the fit's range (balanced, no EP: at EP 8 it took
 * GB200 / GB300's TEP 8 decode rows from 13.8 / 13.9 % to 15.6 / 15.3 %). */
static const char *dec_moe_gpu = "all"; /* "none": off */
static int dec_moe_scope(const char *sys, int ep) {
    if (!dec_moe_gpu || !strcmp(dec_moe_gpu, "none")) return 0;
    return ep <= 1 && (!strcmp(dec_moe_gpu, "all") || !strncmp(sys, dec_moe_gpu, strlen(dec_moe_gpu)));
}
static int decode_trtllm_gen_of(const char *recipe) {
    static recipe_tab t = {.n = -1};
    if (t.n < 0) rtab_load(&t, RTAB_MAX, "tools/inferencemax/moe_backend.csv", parse_moe_backend);
    const int64_t *v = rtab_find(&t, recipe);
    return v && v[0] == 1;
}

/* The decode cap of SGLang's recipes (docs/llm.md, "The decode-slot wait of
 * disaggregated runs", h144).  The names carry no batch, so
 * tools/inferencemax/decode_caps.sh reads each recipe's decode worker from
 * NVIDIA/srt-slurm into tools/inferencemax/decode_caps.csv: its
 * max-running-requests (SGLang's cap for the worker, max_running_requests //
 * dp_size on each attention-DP rank), dp size, worker count and frontend.
 * The cap of one worker is dp x (max_running // dp) requests; 0 (no wait
 * composed) where the file lacks the recipe, its worker count differs from
 * recipes.csv's, or the recipe passes frontend args (a router mode other
 * than Dynamo's default round-robin may be set).  DLP_DECODE_CAPS=FILE
 * reads another table (tests/t_disagg_wait.sh). */
static int parse_decode_cap(const char *line, char *name, int64_t v[2]) {
    char fe[32];
    int w, mr, dp, fa;
    if (sscanf(line, "%95[^,],%d,%d,%d,%31[^,],%d", name, &w, &mr, &dp, fe, &fa) != 6) return 0; /* header */
    if (fa || dp < 1 || mr < dp || strncmp(fe, "dynamo", 6)) return 0;
    v[0] = w, v[1] = mr / dp * dp;
    return 1;
}
static int sglang_cap_of(const char *recipe, int dw) {
    static recipe_tab t = {.n = -1};
    if (t.n < 0) {
        const char *path = getenv("DLP_DECODE_CAPS"); /* a test's own table */
        rtab_load(&t, RTAB_MAX, path && *path ? path : "tools/inferencemax/decode_caps.csv", parse_decode_cap);
    }
    const int64_t *v = rtab_find(&t, recipe);
    return v && v[0] == dw ? (int)v[1] : 0;
}

/* The prefill chunk of SGLang's recipes (issue 22, h183): the prefill
 * worker's chunked-prefill-size, which tools/inferencemax/prefill_chunks.sh
 * reads from NVIDIA/srt-slurm into tools/inferencemax/prefill_chunks.csv
 * (its newest copy of the file there).  SGLang's server_args.py divides it
 * by dp_size under attention DP (each rank's budget, llm_serve.c's
 * sglang_rank_serve_s).  0 (the engine default) where the file lacks the
 * recipe or its worker count differs from recipes.csv's.
 * DLP_PREFILL_CHUNKS=FILE reads another table (tests/t_inferencemax.sh). */
static int sglang_chunk_count; /* DLP_NO_RECIPE_CHUNK=1: off (the before figures) */
static int parse_prefill_chunk(const char *line, char *name, int64_t v[2]) {
    long long w, c;
    if (sscanf(line, "%111[^,],%lld,%lld", name, &w, &c) != 3 || c < 1) return 0; /* header */
    v[0] = w, v[1] = c;
    return 1;
}
static int sglang_max_prefill_count;
static int64_t sglang_chunk_of(const char *recipe, int pw) {
    static recipe_tab t = {.n = -1};
    if (t.n < 0) {
        const char *off = getenv("DLP_NO_RECIPE_CHUNK"), *path = getenv("DLP_PREFILL_CHUNKS");
        t.n = 0;
        if (off && *off == '1') return 0; /* the table stays empty */
        rtab_load(&t, RTAB_MAX, path && *path ? path : "tools/inferencemax/prefill_chunks.csv", parse_prefill_chunk);
    }
    const int64_t *v = rtab_find(&t, recipe);
    return v && v[0] == pw ? v[1] : 0;
}

/* The same recipe's max-prefill-tokens (prefill_chunks.csv's last column,
 * h186): 0 (SGLang's default) where the file lacks the recipe, the worker
 * count differs, or the recipe leaves it unset.  Off with the chunk
 * (DLP_NO_RECIPE_CHUNK=1) or alone (DLP_NO_MAX_PREFILL=1, the before). */
static int parse_max_prefill(const char *line, char *name, int64_t v[2]) {
    long long w, c, dp, mr, mp;
    char commit[64];
    if (sscanf(line, "%111[^,],%lld,%lld,%lld,%lld,%63[^,],%lld", name, &w, &c, &dp, &mr, commit, &mp) != 7 || c < 1)
        return 0; /* header, or a table without the column */
    v[0] = w, v[1] = mp;
    return 1;
}
static int64_t sglang_max_prefill_of(const char *recipe, int pw) {
    static recipe_tab t = {.n = -1};
    if (t.n < 0) {
        const char *off = getenv("DLP_NO_RECIPE_CHUNK"), *off2 = getenv("DLP_NO_MAX_PREFILL");
        const char *path = getenv("DLP_PREFILL_CHUNKS");
        t.n = 0;
        if ((off && *off == '1') || (off2 && *off2 == '1')) return 0;
        rtab_load(&t, RTAB_MAX, path && *path ? path : "tools/inferencemax/prefill_chunks.csv", parse_max_prefill);
    }
    const int64_t *v = rtab_find(&t, recipe);
    return v && v[0] == pw ? v[1] : 0;
}

/* The SGLang prefill worker's expert parallelism of srt-slurm's GB200 / GB300
 * recipes as in force on a run's measured= date (issue 22, h216):
 * tools/inferencemax/srt_prefill_ep.csv, written by
 * tools/inferencemax/h216/srt_prefill_ep.py from NVIDIA/srt-slurm (the
 * 2025-12-21 runs: d83c9ee0, recipies/gb200-fp8/8k1k/mid-curve-5p1d.yaml and
 * 1k1k/max-tpt-2p1d.yaml: tp-size 8, dp-size 8, ep-size 8,
 * moe-a2a-backend "deepep").  The db-dump records those runs' prefill as
 * moe_ep 1, moe_tp = the worker's GPUs; a run whose date, GPU, precision,
 * isl, osl, clients (one of the recipe's benchmark concurrencies), workers
 * and each worker's GPUs agree with recipe lines that all set one ep-size > 1
 * ran that EP (as h207 reads --enable-ep-moe).  0: none, or they differ.
 * DLP_NO_SRT_EP=1: off. */
#define SEP_MAX 512
typedef struct {
    char date[11], gpu[8], prec[8], concs[96];
    int isl, osl, pw, ptp, pep, dw, dtp;
} srt_ep_t;
static srt_ep_t SEP[SEP_MAX];
static int nSEP = -1, srt_ep_count;
static void srt_ep_load(void) {
    nSEP = 0;
    if (getenv("DLP_NO_SRT_EP") && *getenv("DLP_NO_SRT_EP") == '1') return;
    FILE *f = fopen("tools/inferencemax/srt_prefill_ep.csv", "r");
    char line[512], rec[200], a2a[16], com[16];
    while (f && fgets(line, sizeof line, f) && nSEP < SEP_MAX) {
        srt_ep_t *e = &SEP[nSEP];
        if (sscanf(line, "%10[^,],%15[^,],%199[^,],%7[^,],%7[^,],%d,%d,%95[^,],%d,%d,%d,%15[^,],%d,%d", e->date, com, rec,
                   e->gpu, e->prec, &e->isl, &e->osl, e->concs, &e->pw, &e->ptp, &e->pep, a2a, &e->dw, &e->dtp) == 14)
            nSEP++;
    }
    if (f) fclose(f);
}
/* Is c one of the x-separated clients in s? */
static int conc_listed(const char *s, int c) {
    for (const char *q = s; *q; q += strcspn(q, "x"), q += *q == 'x')
        if (atoi(q) == c) return 1;
    return 0;
}
static int srt_ep_of(const char *meas, const char *gpu, const char *prec, int isl, int osl, int c, const int w[4]) {
    if (nSEP < 0) srt_ep_load();
    int ep = 0;
    for (int i = 0; i < nSEP; i++) {
        const srt_ep_t *e = &SEP[i];
        if (strncmp(e->date, meas, 10) || strcmp(e->gpu, gpu) || strcmp(e->prec, prec) || e->isl != isl ||
            e->osl != osl || !conc_listed(e->concs, c) || e->pw != w[0] || e->ptp != w[1] || e->dw != w[2] ||
            e->dtp != w[3])
            continue;
        if (ep && ep != e->pep) return 0;
        ep = e->pep;
    }
    return ep;
}

/* The MoE dispatch an SGLang attention-DP worker with EP ran (docs/llm.md,
 * h219).  NVIDIA/srt-slurm's B200 and H200 SGLang recipes split the
 * experts (expert-parallel-size = data-parallel-size, enable-dp-attention)
 * but never set moe-a2a-backend: no file under recipes/b200-fp8, b200-fp4
 * or h200 names deepep or an a2a backend in any version (5063eb43 ...
 * 2f43c324; `git grep deepep`), so SGLang's default "none" ran
 * (ServerArgs.moe_a2a_backend), its StandardDispatcher: no all-to-all,
 * every rank's tokens gathered to all GPUs (wl.sglang_a2a_none).  The GB200
 * / GB300 fp4 recipes' prefill sections set none either (below); their
 * decode sections and every fp8 recipe there set deepep and keep the
 * DeepEP price.  --a2a-none all (the default) | pf | dec | none reads it for
 * both workers, the prefill or the decode workers only, or for neither
 * (the before): a2a_none_mode bits 1 / 2.  Counted in a2a_none_count[phase]. */
static int a2a_none_mode = 3, a2a_none_count[2];
static int a2a_mode_of(const char *v) {
    static const char *const names[4] = {"none", "pf", "dec", "all"};
    for (int m = 0; m < 4; m++)
        if (!strcmp(v, names[m])) return m;
    return -1;
}
static int sglang_a2a_none_of(const char *system, const char *prec, const char *backend, int ep, int dp, int decode) {
    if (!(a2a_none_mode & (decode ? 2 : 1)) || strcmp(backend, "sglang") || ep <= 1 || dp <= 1) return 0;
    /* GB200 / GB300: the fp4 recipes' prefill sections set no backend
     * (srt_prefill_ep.csv, h216: pa2a none on every gb*-fp4 line with ep-size
     * > 1, 2025-12-21 ... 2026-02-12), their decode sections and every fp8
     * recipe deepep */
    int gb_fp4 = (!strcmp(system, "gb200") || !strcmp(system, "gb300")) && !strcmp(prec, "fp4") && !decode;
    if (strcmp(system, "b200_sxm") && strcmp(system, "h200_sxm") && !gb_fp4) return 0;
    a2a_none_count[decode]++;
    return 1;
}

/* TensorRT-LLM's context worker settings of its recipes (issue 22, h187 read
 * them, h200 plays them): tools/inferencemax/h187/trt_prefill.py reads each
 * recipe's backend.trtllm_config.prefill from NVIDIA/srt-slurm (c88ef731)
 * into tools/inferencemax/h187/trt_prefill.csv: prefill workers, tensor
 * parallel size, enable_attention_dp, max_batch_size (a rank's active
 * requests), max_num_tokens (a rank's step budget), attention_dp_config
 * set, disable_overlap_scheduler, enable_chunked_prefill.  Kept: v[0]
 * max_batch_size, v[1] max_num_tokens, v[2] the attention-DP ranks (tp
 * under attention DP, else 1), v[3] the workers.  A recipe that chunks its
 * prompts, sets a balance config or runs the overlap scheduler is left out:
 * the played worker (disagg_wait.h trt_ctx_sim_ms) takes whole prompts,
 * no balance wait, first tokens the same step.  DLP_TRT_PREFILL=FILE reads
 * another table (tests). */
static int trt_ctx_sim_on, trt_ctx_count; /* --trt-ctx-sim (off by default); rows played */
static int trt_ctx_mv_on = 1, trt_ctx_mv_count; /* h237's queue, on by default since the session-23 merge
                                                  (--no-trt-ctx-mv: off, the old answer); rows moved */
static int parse_trt_prefill(const char *line, char *name, int64_t v[4]) {
    int w, tp, adp, mbs, mnt, cfg, no_ovl, chunked;
    if (sscanf(line, "%111[^,],%d,%d,%d,%d,%d,%d,%d,%d", name, &w, &tp, &adp, &mbs, &mnt, &cfg, &no_ovl, &chunked) != 9)
        return 0; /* the header, or a recipe missing a setting */
    if (chunked || cfg || !no_ovl || mbs < 1 || mnt < 1 || tp < 1) return 0;
    v[0] = mbs, v[1] = mnt, v[2] = adp ? tp : 1, v[3] = w;
    return 1;
}
/* a rank's max_batch_size and k = min(max_batch_size, floor(max_num_tokens /
 * S)) for the recipe's prefill worker, where the table has it and its
 * workers and ranks are the row's; 0 (not played) otherwise, or where a
 * prompt is longer than the budget (the engine would refuse it unchunked)
 * or k is past the steps the bench prices */
static void trt_ctx_of(row_t *r, const char *recipe, int pw, int dp, int64_t S) {
    static recipe_tab t = {.n = -1};
    if (t.n < 0) {
        const char *path = getenv("DLP_TRT_PREFILL");
        rtab_load(&t, RTAB_MAX, path && *path ? path : "tools/inferencemax/h187/trt_prefill.csv", parse_trt_prefill);
    }
    const int64_t *v = rtab_find(&t, recipe);
    if (!v || v[3] != pw || v[2] != (dp > 1 ? dp : 1) || S < 1) return;
    int64_t k = v[1] / S < v[0] ? v[1] / S : v[0];
    if (k < 1 || k > TRT_STEPS) return;
    r->trt_mbs = (int)v[0], r->trt_k = (int)k;
}

/* The GPU of a recipe's runner group (h162).  extract.py drops
 * "-multinode"; the DGX Cloud slurm groups keep "-slurm" (InferenceX
 * .github/configs/runners.yaml: h200-multinode-slurm -> h200-dgxc-slurm_0,
 * the same H200 / B200 / H100 nodes), so "h200-slurm" is an H200 runner and
 * the rows' h200_sxm must find it. */
static void recipe_runner_gpu(char *gpu) {
    static int keep = -1; /* DLP_RECIPE_SLURM_AS_IS=1: the h142 reading, for the before figures */
    if (keep < 0) keep = getenv("DLP_RECIPE_SLURM_AS_IS") && *getenv("DLP_RECIPE_SLURM_AS_IS") == '1';
    size_t n = strlen(gpu);
    if (!keep && n > 6 && !strcmp(gpu + n - 6, "-slurm")) gpu[n - 6] = 0;
}

/* Marks the yaml entries whose recipe was read from srt-slurm on their date
 * (an srt row with the same date and recipe exists): only those are known
 * to have run at other clients than their conc-list says (h162). */
static int srt_key_cmp(const void *a, const void *b) {
    const recipe_t *x = *(recipe_t *const *)a, *y = *(recipe_t *const *)b;
    int c = strcmp(x->date, y->date);
    return c ? c : strcmp(x->recipe, y->recipe);
}
static recipe_t *SRT[MAXREC]; /* the srt rows sorted by (date, recipe) */
static int nSRT;
static void recipe_twins(void) {
    /* each yaml entry looked up in the sorted srt rows: a pair scan of the
     * ~15k entries took a third of a second */
    nSRT = 0;
    for (int i = 0; i < nREC; i++)
        if (REC[i].srt) SRT[nSRT++] = &REC[i];
    qsort(SRT, (size_t)nSRT, sizeof SRT[0], srt_key_cmp);
    for (int i = 0; i < nREC; i++) {
        recipe_t *e = &REC[i];
        e->srt_twin = !e->srt && e->recipe[0] && nSRT &&
                      bsearch(&e, SRT, (size_t)nSRT, sizeof SRT[0], srt_key_cmp) != NULL;
    }
}

/* Does the recipe of yaml entry e, as srt-slurm had it on `day` (the run's
 * measured= date), benchmark other clients than `conc` (h166)?  The
 * srt-slurm runners run the recipe's own benchmark.concurrencies, not the
 * entry's conc-list (h162: c512_ctx2_gen7_dep8_..._mtp0.yaml, conc-list
 * [512], runs 3,584 clients; ishandhanani/srt-slurm 4893f83e holds the
 * same file), so a run of `conc` clients that day is not that entry's run.
 * 0 where the recipe was not read on that day (nothing is known) or
 * DLP_RECIPE_LABEL_AS_IS=1 (the h162 pairing, for the before figures). */
static int label_contradicted(const recipe_t *e, const char *day, int conc) {
    static int off = -1;
    if (off < 0) off = getenv("DLP_RECIPE_LABEL_AS_IS") && *getenv("DLP_RECIPE_LABEL_AS_IS") == '1';
    if (off || e->srt || !e->recipe[0] || !nSRT || strlen(day) < 10) return 0;
    static recipe_t k;
    const recipe_t *kp = &k;
    snprintf(k.date, sizeof k.date, "%.10s", day);
    snprintf(k.recipe, sizeof k.recipe, "%s", e->recipe);
    recipe_t **hit = bsearch(&kp, SRT, (size_t)nSRT, sizeof SRT[0], srt_key_cmp);
    if (!hit) return 0;
    long i = hit - SRT;
    while (i > 0 && !srt_key_cmp(&SRT[i - 1], &kp)) i--; /* the first of the recipe's rows that day */
    int read = 0; /* srt-slurm's own rows only: the dynamo sweep's (srt 2, h170) are not the recipe's */
    for (; i < nSRT && !srt_key_cmp(&SRT[i], &kp); i++)
        if (SRT[i]->srt == 1) {
            if (SRT[i]->conc == conc) return 0;
            read = 1;
        }
    return read;
}

/* Which re-keyed rows a commit column names (matched only in the last
 * look, on the run's measured= date): 1 srt-slurm's recipe clients (h162),
 * 2 dynamo's TensorRT-LLM sweep script's conc x decode workers (h170:
 * extract.py --dynamo-sweeps), 0 a yaml entry as its conc-list says. */
static int rekeyed_kind(const char *commit) {
    if (!strncmp(commit, "srt-slurm@", 10)) return 1;
    return !strncmp(commit, "dynamo-sweeps@", 14) ? 2 : 0;
}

/* The sweep script re-keys every entry of its key on a date (h170), so an
 * entry of a (date, model, GPU, precision, engine) with dynamo-sweeps rows
 * is known not to have run at its conc-list value: marked as read, so that
 * srt_unread_fits does not leave a run open on its label. */
static void sweep_twins(void) {
    static const recipe_t *sw[MAXREC]; /* the sweep rows: a few hundred, so a pair scan is cheap */
    int ns = 0;
    for (int i = 0; i < nREC; i++)
        if (REC[i].srt == 2) sw[ns++] = &REC[i];
    for (int i = 0; i < nREC && ns; i++) {
        recipe_t *e = &REC[i];
        for (int j = 0; j < ns && !e->srt && !e->srt_twin; j++) {
            const recipe_t *s = sw[j];
            e->srt_twin = !strcmp(s->date, e->date) && !strcmp(s->model, e->model) && !strcmp(s->gpu, e->gpu) &&
                          !strcmp(s->prec, e->prec) && !strcmp(s->engine, e->engine);
        }
    }
}

/* Loads the table; 0 rows when off or absent at the default path (a
 * --recipes FILE that cannot be read ends the bench naming it). */
static void load_recipes(int explicit_path) {
    static char line[2048], hl[2048];
    char *h[40], *v[40];
    int nh;
    if (!strcmp(recipes_path, "none")) return;
    FILE *t = fopen(recipes_path, "r");
    if (!t && !explicit_path) return;
    if (t) fclose(t);
    FILE *f = csv_open(recipes_path[0] == '/' ? "" : ".", recipes_path, hl, (int)sizeof hl, h, 40, &nh);
    int cD = csv_col(h, nh, "date"), cM = csv_col(h, nh, "model_prefix"), cG = csv_col(h, nh, "gpu"),
        cP = csv_col(h, nh, "precision"), cE = csv_col(h, nh, "engine"), cI = csv_col(h, nh, "isl"),
        cO = csv_col(h, nh, "osl"), cC = csv_col(h, nh, "conc"), cS = csv_col(h, nh, "spec_decoding"),
        cK = csv_col(h, nh, "spec_tokens"), cB = csv_col(h, nh, "decode_max_batch"),
        cPW = csv_col(h, nh, "prefill_workers"), cPT = csv_col(h, nh, "prefill_tp"), cPE = csv_col(h, nh, "prefill_ep"),
        cPD = csv_col(h, nh, "prefill_dp_attn"), cDW = csv_col(h, nh, "decode_workers"), cDT = csv_col(h, nh, "decode_tp"),
        cDE = csv_col(h, nh, "decode_ep"), cDD = csv_col(h, nh, "decode_dp_attn"), cR = csv_col(h, nh, "recipe"),
        cC0 = csv_col(h, nh, "commit"), cK0 = csv_col(h, nh, "config_key");
    while (fgets(line, sizeof line, f) && nREC < MAXREC) {
        if (csv_split(line, v, 40) != nh) continue;
        recipe_t *r = &REC[nREC];
        snprintf(r->date, sizeof r->date, "%s", v[cD]);
        snprintf(r->model, sizeof r->model, "%s", v[cM]);
        snprintf(r->gpu, sizeof r->gpu, "%s", v[cG]);
        recipe_runner_gpu(r->gpu);
        r->srt = rekeyed_kind(v[cC0]);
        snprintf(r->recipe, sizeof r->recipe, "%s", v[cR]);
        snprintf(r->key, sizeof r->key, "%s", cK0 >= 0 ? v[cK0] : "");
        snprintf(r->prec, sizeof r->prec, "%s", v[cP]);
        snprintf(r->engine, sizeof r->engine, "%s", v[cE]);
        r->isl = atoi(v[cI]), r->osl = atoi(v[cO]), r->conc = atoi(v[cC]);
        r->mtp = !strcmp(v[cS], "mtp"), r->k = *v[cK] ? atoi(v[cK]) : -1, r->batch = atoi(v[cB]);
        r->pw = atoi(v[cPW]), r->ptp = atoi(v[cPT]), r->pep = atoi(v[cPE]), r->pdp = atoi(v[cPD]);
        r->dw = atoi(v[cDW]), r->dtp = atoi(v[cDT]), r->dep = atoi(v[cDE]), r->ddp = atoi(v[cDD]);
        r->slots_d = eplb_of(v[cR]);
        redundant_of(v[cR], &r->red_p, &r->red_d);
        r->cap_d = !strcmp(r->engine, "sglang") ? sglang_cap_of(v[cR], r->dw) : 0;
        if (r->pw > 0 && r->ptp > 0 && r->dw > 0 && r->dtp > 0 && r->conc > 0) nREC++;
    }
    fclose(f);
    recipe_twins();
    sweep_twins();
}

/* The value of "key=" in a silicon_data_source ("source_file=2026-03-25.csv;
 * model=DeepSeek-R1; silicon_concurrency=5; ..."), up to ';'. */
static void src_field(const char *src, const char *key, char *out, size_t n) {
    out[0] = 0;
    const char *s = strstr(src, key);
    if (!s) return;
    s += strlen(key);
    size_t k = 0;
    while (s[k] && s[k] != ';' && k + 1 < n) out[k] = s[k], k++;
    out[k] = 0;
}

/* The dumps' model= name -> InferenceX's model-prefix (its config keys:
 * dsr1-fp4-gb200-dynamo-trt, gptoss-fp4-..., glm5-..., kimik2.5-...). */
static const char *imax_prefix(const char *model) {
    static const struct { const char *a, *b; } m[] = {
        {"DeepSeek-R1", "dsr1"}, {"GPT-OSS-120B", "gptoss"}, {"GLM-5", "glm5"}, {"Kimi-K2.5", "kimik2.5"}};
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++)
        if (!strcmp(model, m[i].a)) return m[i].b;
    return "";
}

/* How a blank-count silicon run fares against the recipes (counted per run) */
enum { RM_ONE = 0, RM_AGREE, RM_SEVERAL, RM_NOLAYOUT, RM_NOKEY, RM_N };
static const char *const rm_name[RM_N] = {
    "exactly one entry", "several entries, same worker counts (MTP or batch differ)",
    "several entries, different worker counts (ambiguous: left unknown)",
    "no entry with the row's layout", "no entry for (date, model, GPU, precision, engine, isl, osl, conc)"};
static int rm_count[RM_N], rm_amb_mtp;

/* Does recipe e have the row's layout?  The dumps give each worker's GPU
 * count as tp_size, or, on some GB200/GB300 runs (tp 36 = one 4-GPU
 * prefill + four 8-GPU decode workers), both sides as the run's total. */
static int layout_fits(const recipe_t *e, int ptp, int dtp) {
    if (e->ptp == ptp && e->dtp == dtp) return 1;
    return ptp == dtp && e->pw * e->ptp + e->dw * e->dtp == ptp;
}

/* The recipe for a blank-count silicon run: its RM_* class; *out a copy of
 * the entry whose counts apply (RM_ONE, RM_AGREE), *mtp_k the draft tokens where
 * every fitting entry says the same (0: none, -1: unknown or ambiguous).
 * Where entries disagree on MTP only, the counts apply and MTP stays
 * unknown: nothing in the row tells the two runs apart. */
/* The recipes' GPU name of a silicon system (h100_sxm -> h100) */
static void recipe_gpu(const char *system, char *gpu, size_t n) {
    snprintf(gpu, n, "%s", system);
    char *sx = strstr(gpu, "_sxm");
    if (sx) *sx = 0;
}

/* Is entry e one of the runs of this key (the yaml of `date`, model prefix,
 * GPU, precision, engine, isl, osl, clients)? */
static int entry_has_key(const recipe_t *e, int srt, const char *date, const char *mp, const char *gpu,
                         const char *prec, const char *engine, int isl, int osl, int conc) {
    return (e->srt != 0) == srt && !strncmp(e->date, date, 10) && !strcmp(e->model, mp) && !strcmp(e->gpu, gpu) &&
           !strcmp(e->prec, prec) && !strcmp(e->engine, engine) && e->isl == isl && e->osl == osl && e->conc == conc;
}

/* h166: rm_label_seen is 1 while the run in hand had one of its key's
 * entries set aside (its recipe benchmarks other clients that day,
 * label_contradicted); rm_label_end counts those runs by how they ended
 * (another yaml entry / the srt-slurm look / a db-dump twin / unknown), and
 * rm_label_look is the look that settled the run (1, 2: yaml; 3: srt) */
static int rm_label_seen, rm_label_end[4], rm_label_look;

/* DLP_RECIPE_MISSES=1: one stderr line per entry set aside */
static void label_line(const recipe_t *e, const char *meas, int conc, const char *src) {
    static int on = -1;
    if (on < 0) on = getenv("DLP_RECIPE_MISSES") && *getenv("DLP_RECIPE_MISSES") == '1';
    if (on)
        fprintf(stderr, "recipe-label-off\tentry %s\t%s\t%s\t%d/%d\tp%dx%d d%dx%d mtp%d\tclients %d, measured %.10s\t%s\t%s\n",
                e->date, e->gpu, e->engine, e->isl, e->osl, e->pw, e->ptp, e->dw, e->dtp, e->mtp ? e->k : 0, conc,
                meas, e->recipe, src);
}

/* h190: which config keys each InferenceX merge ran.  A pull request runs
 * the sweeps of the config keys it adds to perf-changelog.yaml, and its
 * results carry the merge time as measured= (PR #658's merge 07:08:58Z,
 * its B200 SGLang runs measured=2026-02-07T07:09:01Z); the db-dump and
 * 2026-04-06 files keep the date only (T00:00:00.000Z).  Where two yaml
 * entries fit a run and differ in their config key (SGLang's
 * dsr1-fp8-b200-dynamo-sglang and -sglang-mtp), the keys that ran settle
 * which entry it was.  The table is h188's (tools/inferencemax/
 * changelog_runs.py, read by changelog_ran above): one line per (push, key
 * pattern), the push's UTC date and time. */
#define CL_LAG_S 600 /* a run's stamp follows its merge by 3-210 s in the dumps */
static clr_t CLM[MAXCLR]; /* lines without a time fall outside every window */
static int nCLM;
/* off by default: on, the silicon TPOT gains and the TTFT loses (docs/llm.md, h190) */
static const char *changelog_path = "none"; /* --changelog FILE (tools/inferencemax/changelog_runs.csv) */
static int cl_count[3]; /* entries narrowed by the keys: settled / still several / no merge found */

static void load_changelog(void) {
    if (strcmp(changelog_path, "none")) nCLM = clr_load(changelog_path, CLM, MAXCLR);
}

/* Did the merge(s) behind a measured= stamp run config key `key`?  1 yes, 0
 * no, -1 no merge found.  An exact stamp is the merge within CL_LAG_S before
 * it; a date-only stamp every merge of that UTC day. */
static int key_ran(const char *stamp, const char *key) {
    int64_t m = utc_seconds(stamp);
    int date_only = strlen(stamp) < 19 || strstr(stamp, "T00:00:00.000Z") != NULL, found = 0;
    if (m < 0 || !*key) return -1;
    for (int i = 0; i < nCLM; i++) {
        int64_t t = CLM[i].t;
        if (date_only ? t < m || t >= m + 86400 : t > m || m - t > CL_LAG_S) continue;
        found = 1;
        if (glob_full(CLM[i].key, key)) return 1;
    }
    return found ? 0 : -1;
}

/* Narrows the entries fitting a run to those whose config key the run's
 * merge ran, where that leaves some and drops some: the new count. */
static int changelog_narrow(const recipe_t **fit, int nfit, const char *src) {
    char meas[40];
    src_field(src, "measured=", meas, sizeof meas);
    int differ = 0;
    for (int i = 1; i < nfit; i++) differ |= strcmp(fit[i]->key, fit[0]->key) != 0;
    if (!differ || !nCLM || !*meas) return nfit;
    int ran[64], n1 = 0, n0 = 0;
    for (int i = 0; i < nfit; i++) {
        ran[i] = key_ran(meas, fit[i]->key);
        n1 += ran[i] == 1, n0 += ran[i] == 0;
    }
    if (!n1 || !n0) {
        cl_count[n1 + n0 ? 1 : 2]++;
        return nfit;
    }
    int k = 0;
    for (int i = 0; i < nfit; i++)
        if (ran[i] == 1) fit[k++] = fit[i];
    cl_count[0]++;
    return k;
}

/* h190: an ambiguous run whose fitting entries all give each worker the
 * same layout (prefill and decode tp, ep, dp-attn) and differ only in how
 * many workers: that layout ran, whichever entry it was.  rm_lay_ok is 1
 * for the run in hand where every ambiguous look agreed, -1 where one did
 * not (recipe_match resets it to 0), rm_lay_e holds an entry with
 * the layout, rm_lay_used counts the runs whose workers took it. */
static int rm_lay_ok, rm_lay_used;
static recipe_t rm_lay_e;
/* h220: the worker counts of the entries an ambiguous run fits, over every
 * look that left it ambiguous, each (recipe, counts) once whichever looks
 * and yaml dates list it (recipe_match resets rm_namb) */
#define RM_AMB_MAX 256
static int rm_amb_pw[RM_AMB_MAX], rm_amb_dw[RM_AMB_MAX], rm_namb;
static const char *rm_amb_recipe[RM_AMB_MAX];

static void amb_workers_add(const recipe_t *e) {
    for (int i = 0; i < rm_namb; i++)
        if (!strcmp(rm_amb_recipe[i], e->recipe) && rm_amb_pw[i] == e->pw && rm_amb_dw[i] == e->dw) return;
    if (rm_namb < RM_AMB_MAX)
        rm_amb_recipe[rm_namb] = e->recipe, rm_amb_pw[rm_namb] = e->pw, rm_amb_dw[rm_namb++] = e->dw;
}

/* h220: an ambiguous run (its fitting entries differ in worker counts) ran
 * one of those entries, so each side takes a count the entries give, not
 * the one worker h129 assumed (outside their set wherever every entry has
 * several: every client on one worker).  Which one is not known; the point
 * taken is the upper median of the entries' counts (amb_mode 2, the
 * default; 1 the lower median, 0 one of each as before): with the
 * candidates equally likely, the prediction that minimises the expected
 * relative error leans to the smaller TPOT / TTFT (a miss by (y2 - y1) costs
 * (y2 - y1) / y2 on the slower candidate, (y2 - y1) / y1 on the faster), i.e.
 * to more workers.  docs/llm.md, h220. */
static int amb_mode = 2, amb_count;

/* The median (amb_mode's side of it) of rm_namb counts */
static int amb_median(const int *cnt) {
    int a[RM_AMB_MAX], n = rm_namb;
    memcpy(a, cnt, sizeof(int) * (size_t)n);
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && a[j - 1] > a[j]; j--) {
            int t = a[j];
            a[j] = a[j - 1], a[j - 1] = t;
        }
    return a[amb_mode == 1 ? (n - 1) / 2 : n / 2];
}

/* h233: where the n fitting entries are one plain and one MTP entry whose
 * drafts are read (K >= 1), K; 0 otherwise (mtp_pair_k reads a run's entry
 * from it: two entries, two runs). */
static int mtp_entries_k(const recipe_t *const *fit, int n) {
    if (n != 2 || fit[0]->mtp == fit[1]->mtp) return 0;
    const recipe_t *m = fit[0]->mtp ? fit[0] : fit[1];
    return m->k >= 1 ? m->k : 0;
}

static int recipe_match_on(int srt, const char *date, const char *meas, const char *src, const char *system,
                           const char *prec, const char *engine, int isl, int osl, const int lay[4], recipe_t *out,
                           int *mtp_k) {
    char model[48], conc[16], gpu[32];
    src_field(src, "model=", model, sizeof model);
    src_field(src, "silicon_concurrency=", conc, sizeof conc);
    recipe_gpu(system, gpu, sizeof gpu);
    const char *mp = imax_prefix(model);
    int c = atoi(conc), nkey = 0, nfit = 0, nep = 0;
    static const recipe_t *fit[64];
    *mtp_k = -1;
    for (int i = 0; i < nREC; i++) {
        const recipe_t *e = &REC[i];
        if (!entry_has_key(e, srt, date, mp, gpu, prec, engine, isl, osl, c)) continue;
        /* an entry whose recipe ran other clients that day is not this run */
        if (!srt && label_contradicted(e, meas, c)) {
            rm_label_seen = 1, label_line(e, meas, c, src);
            continue;
        }
        nkey++;
        if (layout_fits(e, lay[0], lay[2]) && nfit < 64) fit[nfit++] = e;
    }
    if (!nkey) return RM_NOKEY;
    if (!nfit) return RM_NOLAYOUT;
    /* the row's expert-parallel sizes narrow the entries where some fit them */
    for (int i = 0; i < nfit; i++) nep += fit[i]->pep == lay[1] && fit[i]->dep == lay[3];
    if (nep && nep < nfit) {
        int k = 0;
        for (int i = 0; i < nfit; i++)
            if (fit[i]->pep == lay[1] && fit[i]->dep == lay[3]) fit[k++] = fit[i];
        nfit = k;
    }
    /* h190: the entries whose config key ran at the run's measured= stamp */
    nfit = changelog_narrow(fit, nfit, src);
    int same = 1, mtp_same = 1;
    for (int i = 1; i < nfit; i++) {
        const recipe_t *a = fit[0], *b = fit[i];
        same &= a->pw == b->pw && a->dw == b->dw && a->ptp == b->ptp && a->dtp == b->dtp && a->pep == b->pep &&
                a->dep == b->dep && a->pdp == b->pdp && a->ddp == b->ddp;
        mtp_same &= a->mtp == b->mtp && a->k == b->k;
    }
    if (!same) {
        rm_amb_mtp += !mtp_same;
        for (int i = 0; i < nfit; i++) amb_workers_add(fit[i]);
        int lay_same = 1;
        for (int i = 1; i < nfit; i++)
            lay_same &= fit[i]->ptp == fit[0]->ptp && fit[i]->pep == fit[0]->pep && fit[i]->pdp == fit[0]->pdp &&
                        fit[i]->dtp == fit[0]->dtp && fit[i]->dep == fit[0]->dep && fit[i]->ddp == fit[0]->ddp;
        /* every look that leaves the run ambiguous must agree (-1 sticks) */
        if (rm_lay_ok == 1 && lay_same)
            lay_same = rm_lay_e.ptp == fit[0]->ptp && rm_lay_e.pep == fit[0]->pep && rm_lay_e.pdp == fit[0]->pdp &&
                       rm_lay_e.dtp == fit[0]->dtp && rm_lay_e.dep == fit[0]->dep && rm_lay_e.ddp == fit[0]->ddp;
        if (rm_lay_ok >= 0) rm_lay_ok = lay_same ? 1 : -1;
        if (lay_same) rm_lay_e = *fit[0];
        return RM_SEVERAL;
    }
    *out = *fit[0];
    /* a decode cap only where the entries agree on it */
    for (int i = 1; i < nfit; i++) {
        if (fit[i]->batch != fit[0]->batch) out->batch = 0;
        /* the same for the redundant experts */
        if (fit[i]->slots_d != fit[0]->slots_d) out->slots_d = 0;
        if (fit[i]->red_p != fit[0]->red_p) out->red_p = 0;
        if (fit[i]->red_d != fit[0]->red_d) out->red_d = 0;
        if (fit[i]->cap_d != fit[0]->cap_d) out->cap_d = 0;
    }
    /* -2: every entry MTP, its drafts not read (h190's tally tells them apart) */
    *mtp_k = mtp_same ? (fit[0]->mtp ? (fit[0]->k >= 0 ? fit[0]->k : -2) : 0) : -1;
    out->alt_k = mtp_same ? 0 : mtp_entries_k(fit, nfit);
    return nfit == 1 ? RM_ONE : RM_AGREE;
}

/* DLP_RECIPE_MISSES=1: one stderr line per blank-count run that no recipe
 * settles (ambiguous, no layout, no key) -- the class and the row's own
 * match fields, so the misses can be characterised from the bench's loader
 * (docs/llm.md, h142) without reading the silicon file elsewhere. */
static void recipe_miss_line(int m, const char *src, const char *system, const char *prec, const char *engine,
                             int isl, int osl, const int lay[4]) {
    static int on = -1;
    if (on < 0) on = getenv("DLP_RECIPE_MISSES") && *getenv("DLP_RECIPE_MISSES") == '1';
    if (!on) return;
    static const char *const tag[RM_N] = {"one", "agree", "ambiguous", "nolayout", "nokey"};
    fprintf(stderr, "recipe-miss\t%s\t%s\t%s\t%s\t%d\t%d\tp%d/%d d%d/%d\t%s\n", tag[m], system, prec, engine, isl,
            osl, lay[0], lay[1], lay[2], lay[3], src);
}

/* The recipe for a blank-count run: first the yaml in force on the dump's
 * date (source_file=), as h129; where that leaves the run unsettled
 * (ambiguous, no layout, no key) and the row carries its own measured=
 * date, the yaml in force on that date (the run was launched from it;
 * docs/llm.md, h142).  rm_meas counts the runs the second look settles,
 * by the class it gives. */
static int rm_meas[RM_N], rm_meas_from[RM_N];

/* The last look (h162), for a run both yaml dates leave unsettled: the
 * entries re-keyed on their srt-slurm recipe's benchmark clients (the
 * srt-slurm runners run `srtctl apply -f "$CONFIG_FILE"`, so a run's clients
 * are the recipe's benchmark.concurrencies: c512_ctx2_gen7_dep8_..._mtp0.yaml
 * benchmarks 3,584), the recipe as in force on the run's measured= date.
 * The same rules as recipe_match_on; m (the dump date's class) stands where
 * this settles nothing.  rm_srt counts the runs settled, by the class given
 * and the class they had. */
static int rm_srt[RM_N], rm_srt_from[RM_N], rm_srt_open;

/* Does a yaml entry of the measured date list the run's clients and layout
 * while its recipe was not read from srt-slurm?  It may be the run (its
 * recipe, unread, may benchmark those clients), so nothing is settled. */
static int srt_unread_fits(const char *meas, const char *src, const char *system, const char *prec,
                           const char *engine, int isl, int osl, const int lay[4]) {
    char model[48], conc[16], gpu[32];
    src_field(src, "model=", model, sizeof model);
    src_field(src, "silicon_concurrency=", conc, sizeof conc);
    recipe_gpu(system, gpu, sizeof gpu);
    for (int i = 0; i < nREC; i++) {
        const recipe_t *e = &REC[i];
        if (!e->srt_twin && entry_has_key(e, 0, meas, imax_prefix(model), gpu, prec, engine, isl, osl, atoi(conc)) &&
            layout_fits(e, lay[0], lay[2]))
            return 1;
    }
    return 0;
}

static int recipe_match_srt(int m, const char *meas, const char *src, const char *system, const char *prec,
                            const char *engine, int isl, int osl, const int lay[4], recipe_t *out, int *mtp_k) {
    int amb = rm_amb_mtp, k, m3 = recipe_match_on(1, meas, meas, src, system, prec, engine, isl, osl, lay, out, &k);
    rm_amb_mtp = amb; /* the ambiguous-in-MTP count stays the dump date's */
    if (m3 > RM_AGREE) return m;
    if (srt_unread_fits(meas, src, system, prec, engine, isl, osl, lay)) return rm_srt_open++, m;
    rm_srt[m3]++, rm_srt_from[m]++, rm_label_look = 3;
    *mtp_k = k;
    return m3;
}

/* h166: a run that had an entry set aside and that a yaml entry then
 * settles: the recipes re-keyed on the measured date (the srt look) that fit
 * the run must not say otherwise -- several with different workers, or one
 * whose worker counts or GPUs differ from the settling entry's, leave the run
 * ambiguous (as srt_unread_fits does the other way round).  m unchanged
 * where they agree or none fits; rm_label_clash counts the runs refused. */
static int rm_label_clash;
static int label_guard(int m, const char *meas, const char *src, const char *system, const char *prec,
                       const char *engine, int isl, int osl, const int lay[4], const recipe_t *out) {
    if (!rm_label_seen || m > RM_AGREE || strlen(meas) < 10) return m;
    recipe_t o3;
    int amb = rm_amb_mtp, k3, m3 = recipe_match_on(1, meas, meas, src, system, prec, engine, isl, osl, lay, &o3, &k3);
    rm_amb_mtp = amb;
    if (m3 == RM_SEVERAL ||
        (m3 <= RM_AGREE && (o3.pw != out->pw || o3.dw != out->dw || o3.ptp != out->ptp || o3.dtp != out->dtp)))
        return rm_label_clash++, RM_SEVERAL;
    return m;
}

static int recipe_match(const char *src, const char *system, const char *prec, const char *engine, int isl, int osl,
                        const int lay[4], recipe_t *out, int *mtp_k) {
    char dump[16], meas[16];
    src_field(src, "source_file=", dump, sizeof dump);
    src_field(src, "measured=", meas, sizeof meas);
    dump[10] = meas[10] = 0;
    int amb0 = rm_amb_mtp; /* the ambiguous-in-MTP count is the dump date's */
    rm_label_seen = 0, rm_label_look = 1, rm_lay_ok = 0, rm_namb = 0;
    int m = recipe_match_on(0, dump, meas, src, system, prec, engine, isl, osl, lay, out, mtp_k);
    if (m <= RM_AGREE || strlen(meas) < 10 || !strcmp(meas, dump))
        return label_guard(m, meas, src, system, prec, engine, isl, osl, lay, out);
    rm_label_look = 2;
    int amb1 = rm_amb_mtp, k, m2 = recipe_match_on(0, meas, meas, src, system, prec, engine, isl, osl, lay, out, &k);
    rm_amb_mtp = m2 > RM_AGREE ? amb1 : amb0;
    if (m2 > RM_AGREE) return recipe_match_srt(m, meas, src, system, prec, engine, isl, osl, lay, out, mtp_k);
    if (label_guard(m2, meas, src, system, prec, engine, isl, osl, lay, out) == RM_SEVERAL) return RM_SEVERAL;
    rm_meas[m2]++, rm_meas_from[m]++;
    *mtp_k = k;
    return m2;
}

/* The decode cap of a run whose worker counts are in the data (h143).
 * The db-dump's decode_batch_size is the clients per decode worker (C / W),
 * not the engine's max_batch_size, so by it C = S always and h140's
 * composition never waits.  The db-dump rows are InferenceMAX runs (the
 * dumps hold the same measurements: 27 clients on GB200 fp8, TTFT 1,562.33 ms
 * in both, model_path DeepSeek-V3 in the db-dump, model=DeepSeek-R1 in the
 * InferenceMAX dump), so the recipe entry the run is gives the engine's cap:
 * the name's batchN per attention-DP rank.  An entry is the run when the
 * key agrees (date, model, GPU, precision, engine, isl, osl, concurrency, as
 * recipe_match_on) and so does every worker field the data gives: each
 * side's worker count, GPUs (tp x attention DP), ep and dp-attn flag.  Where
 * several entries agree (MTP differs) the cap is used only if their batches
 * agree; nothing picks an entry by how well it fits. */
enum { DC_ONE = 0, DC_SAME, DC_DIFF, DC_NOBATCH, DC_NOLAYOUT, DC_NOKEY, DC_N };
static const char *const dc_name[DC_N] = {
    "exactly one entry", "several entries, the same batch", "several entries, different batches (no cap)",
    "agreeing entries give no batch (SGLang names)", "no entry with the run's worker counts",
    "no entry for the key on the dump or measured date"};
static int dc_count[DC_N];

/* The model prefix of a data row's model_path (the db-dump names DeepSeek-R1's
 * runs DeepSeek-V3: see above) */
static const char *imax_prefix_path(const char *path) {
    static const struct { const char *a, *b; } m[] = {{"deepseek-ai/DeepSeek-V3", "dsr1"},
                                                      {"deepseek-ai/DeepSeek-R1", "dsr1"},
                                                      {"moonshotai/Kimi-K2.5", "kimik2.5"},
                                                      {"MiniMaxAI/MiniMax-M2.5", "minimaxm2.5"},
                                                      {"openai/gpt-oss-120b", "gptoss"},
                                                      {"Qwen/Qwen3.5-397B-A17B", "qwen3.5"},
                                                      {"zhipuai/GLM-5", "glm5"}};
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++)
        if (!strcmp(path, m[i].a)) return m[i].b;
    return "";
}

/* Does entry e have the data's worker fields?  w[8]: prefill workers, GPUs,
 * ep, attention DP; the same for decode.  A 1-GPU worker has no dp flag. */
static int counts_agree(const recipe_t *e, const int w[8]) {
    int pdp = w[3] > 1, ddp = w[7] > 1;
    return e->pw == w[0] && e->ptp == w[1] && e->pep == w[2] && (w[1] == 1 || e->pdp == pdp) && e->dw == w[4] &&
           e->dtp == w[5] && e->dep == w[6] && (w[5] == 1 || e->ddp == ddp);
}

/* One date's look-up: its DC_* class; *batch the agreed decode cap per
 * worker (the name's batch x the attention-DP ranks; 0: none) */
static int dc_gen; /* data_cap_on's fitting entries' decode TRTLLM MoE backend: 1 / 0 all, -1 none fit, -2 differ */
static int data_cap_on(const char *date, const char *mp, const char *gpu, const char *prec, const char *engine,
                       int isl, int osl, int conc, const int w[8], int *batch) {
    int nkey = 0, nfit = 0, b0 = 0, bsame = 1;
    dc_gen = -1;
    for (int i = 0; i < nREC; i++) {
        const recipe_t *e = &REC[i];
        if (!entry_has_key(e, 0, date, mp, gpu, prec, engine, isl, osl, conc)) continue;
        nkey++;
        if (!counts_agree(e, w)) continue;
        /* h197: the decode MoE backend, where every fitting entry agrees */
        int g = !strcmp(e->engine, "trtllm") && decode_trtllm_gen_of(e->recipe);
        dc_gen = !nfit ? g : dc_gen == g ? g : -2;
        /* per worker: batchN per attention-DP rank; SGLang's names give none,
         * its yaml's max-running-requests does (decode_caps.csv, h144) */
        int b = e->batch > 0 ? e->batch * (e->ddp ? e->dtp : 1) : e->cap_d;
        if (!nfit++) b0 = b;
        else bsame &= b == b0;
    }
    *batch = 0;
    if (!nkey) return DC_NOKEY;
    if (!nfit) return DC_NOLAYOUT;
    if (!bsame) return DC_DIFF;
    if (b0 <= 0) return DC_NOBATCH;
    *batch = b0;
    return nfit == 1 ? DC_ONE : DC_SAME;
}

/* The decode cap per worker for a run with counts in the data: the dump's
 * date first, then the run's measured= date, as recipe_match (the db-dump's
 * dump date, 2026-04-27, is after the table's last yaml, so in practice the
 * measured date's yaml, the one the run was launched from).  Returns DC_*. */
static int data_recipe_cap(const char *src, const char *model_path, const char *system, const char *prec,
                           const char *engine, int isl, int osl, const int w[8], int *batch) {
    char dump[16], meas[16], conc[16], gpu[32];
    src_field(src, "db-dump/", dump, sizeof dump);
    if (!*dump) src_field(src, "source_file=", dump, sizeof dump);
    src_field(src, "measured=", meas, sizeof meas);
    src_field(src, "silicon_concurrency=", conc, sizeof conc);
    dump[10] = meas[10] = 0;
    recipe_gpu(system, gpu, sizeof gpu);
    const char *mp = imax_prefix_path(model_path);
    int c = atoi(conc);
    *batch = 0; /* h216: was left unset on this return (a model with no prefix: the stack's value as the cap) */
    if (!*mp || c < 1) return DC_NOKEY;
    int m = data_cap_on(dump, mp, gpu, prec, engine, isl, osl, c, w, batch), g1 = dc_gen;
    if (m <= DC_SAME || strlen(meas) < 10 || !strcmp(meas, dump)) return m;
    int m2 = data_cap_on(meas, mp, gpu, prec, engine, isl, osl, c, w, batch);
    if (m2 <= DC_SAME) return m2;
    *batch = 0; /* unsettled on both dates: the nearer miss, for the counts */
    if (m2 >= m) dc_gen = g1;
    return m2 < m ? m2 : m;
}

/* The recipe's draft count as scored (h176).  Since h176 recipes.csv
 * carries the drafts that the recipe file sets where its name does not say
 * (tools/inferencemax/spec_tokens.py: SGLang's decode flags
 * speculative-num-draft-tokens - 1, TensorRT-LLM's
 * speculative_config.num_nextn_predict_layers).  TensorRT-LLM's are scored
 * at IMAX_MTP_P; SGLang's EAGLE runs are left plain (-1, as before): its
 * draft and draft-extend passes run as forwards of their own each step,
 * which the model's draft share does not price (h159: 1.10-1.31x measured
 * against ~2x at p 0.708), and scoring the 50 rows read here with MTP took
 * them from 24.2 % to 43.9 % (median predicted / measured 0.95 -> 0.56);
 * no one acceptance beats plain on them (p 0.2: 26.4 %, 0.35: 26.1 %). */
static int recipe_mtp_scored(const char *engine, int mtp_k) {
    return mtp_k > 0 && !strcmp(engine, "sglang") ? -1 : mtp_k;
}

/* The draft tokens' acceptance for MTP with K drafts.  The recipes chain
 * the same module K times (TensorRT-LLM tech blog 2, "MTP Eagle ... call the
 * same MTP module forward K times", the default for DeepSeek-V3/R1; SGLang's
 * EAGLE with the nextn layer), and a draft counts only if every earlier one
 * did: A(K) = p + p^2 + ... + p^K accepted per step.  p is calibrated to a
 * published measurement, not to these rows: the same blog measures 2.16x
 * min-latency speedup for nextn 3 over none (DeepSeek-R1 FP4 on 8 x B200,
 * attention TP 8, MoE EP 2, batch 1, 1k / 2k), and `dlperf llm --model
 * deepseek-ai/DeepSeek-R1 --device b200 --gpus 8 --ep 2 --dtype nvfp4
 * --engine trtllm --concurrency 1 --prompt 1024 --gen 2048` gives that
 * ratio of TPOTs (6.3463 ms plain) at --mtp 3 --mtp-accepted 1.563-1.564,
 * i.e. p = 0.708 (A(1) 0.708, A(3) 1.564).  DeepSeek-V3's report (arXiv
 * 2412.19437 sec. 5.4.3: 85-90 % for its one MTP token) gives the upper
 * bound p = 0.85 (A(3) 2.19; h129 scored with it: the MTP rows' TPOT 37.1 %,
 * median predicted / measured 0.63); nebius/MTP-DeepSeek-V3-0324's card
 * (acceptance length 3.20 at K = 7, i.e. 2.20 accepted drafts) lies between. */
#define IMAX_MTP_P 0.708
static double mtp_accepted(int k) {
    double a = 0, q = 1;
    for (int i = 0; i < k; i++) q *= IMAX_MTP_P, a += q;
    return a;
}

/* bench-only (h239, --sglang-agg-mtp P): SGLang's aggregated runs of an
 * MTP config key (spec_agg.csv: qwen3.5-fp8-b200-sglang-mtp runs EAGLE with
 * --speculative-num-steps 3, topk 1, 4 draft tokens), priced as the
 * library's MTP step at K drafts, each accepted with probability P
 * (A(K) = P + ... + P^K).  Off (0): read plain, as before. */
static double sglang_mtp_p;
static int nSglMtp;
static void sglang_agg_mtp(dlp_llm_workload *wl, const char *src, const char *model, const char *system,
                           const char *prec, const char *backend, const char *version, int isl, int osl, int gpus,
                           int dp, int64_t conc) {
    if (!(sglang_mtp_p > 0)) return;
    int k = agg_spec(src, model, system, prec, backend, version, isl, osl, gpus, wl->ep, dp, conc);
    if (k < 1) return;
    double a = 0, q = 1;
    for (int i = 0; i < k; i++) q *= sglang_mtp_p, a += q;
    wl->spec_tokens = k, wl->spec_accepted = a;
    nSglMtp++;
}

/* TensorRT-LLM's batch waiting where the run's recipe set it (docs/llm.md,
 * "Batch waiting"): InferenceMAX / InferenceX (github SemiAnalysisAI/InferenceX)
 * writes each run's extra LLM API options in its launch script.
 *  - Llama-3.1-70B, TensorRT-LLM, H200 fp8 and B200 fp8 / fp4
 *    (benchmarks/70b_fp{8_h200,8_b200,4_b200}_trt_slurm.sh, 1b563c858 of
 *    2025-09-18 until the model left the suite on 2025-10-29, the date these
 *    rows were measured): at 1k / 1k with TP < 8, batch_wait_timeout_iters 20
 *    and batch_wait_max_tokens_ratio 0.9 of --max_num_tokens 16384.
 *  - DeepSeek-R1 fp8 on B200 (benchmarks/dsr1_fp8_b200_trt.sh, PR #594,
 *    ec7bafaae of 2026-01-29, which also moved its image to TensorRT-LLM
 *    1.2.0rc6.post2): DELAY_BATCHING at 1k / 1k and 64+ clients,
 *    batch_wait_timeout_iters 40, ratio 0.8 of max_num_tokens = max(8192,
 *    (clients + isl + 127) / 64 x 64).  The MTP script and the other
 *    DeepSeek recipes set none.
 * The engine skips the wait under attention DP; the library does too. */
static int use_mnt = 1, mnt_count; /* --no-max-tokens: the library's default budget (h169) */
static void recipe_batch_wait(dlp_llm_workload *wl, const char *model, const char *sys, const char *prec,
                              const char *version, const char *src, int tp, int64_t conc) {
    int k11 = wl->seq == 1024 && wl->gen_tokens == 1024;
    if (!k11) return;
    if (!strcmp(model, "meta-llama/Llama-3.1-70B") && strstr(src, "source_file=20") && tp < 8) {
        wl->batch_wait_iters = 20;
        wl->batch_wait_tokens = 0.9 * 16384;
    } else if (strstr(model, "DeepSeek-") && !strcmp(sys, "b200_sxm") && !strcmp(prec, "fp8") &&
               !strcmp(version, "1.2.0rc6.post2") && conc >= 64) {
        int64_t mnt = (conc + 1024 + 64 + 63) / 64 * 64;
        wl->batch_wait_iters = 40;
        wl->batch_wait_tokens = 0.8 * (double)(mnt > 8192 ? mnt : 8192);
    }
}

/* TensorRT-LLM's attention-DP balance where the run's script set it
 * (docs/llm.md, "TensorRT-LLM's attention-DP balance"): every InferenceX
 * DeepSeek-R1 TensorRT-LLM script (benchmarks/dsr1_fp{4,8}_{b200,h200}_trt
 * [_mtp].sh, since ec90f3fe7 of 2025-09-18; under benchmarks/single_node/
 * fixed_seq_len/ now) writes, when DP_ATTENTION is true, attention_dp_config
 * {batching_wait_iters: 0, enable_balance: true, timeout_iters: 60}.  The
 * InferenceMAX-style rows are those runs, and the db-dump rows their twins
 * (h165); the gap-analysis dumps' runs are not InferenceX's (left at 0).  The
 * gpt-oss B200 script sets the balance too, at TensorRT-LLM's default
 * timeout: gptoss_adp_balance (h189).  Counted for the report. */
static int nAdpBal, no_adp_balance; /* --no-adp-balance: none set (the before) */
static int no_adp_mnt; /* --no-adp-max-tokens: attention-DP MTP rows keep 8,192 (h178's before) */
static void recipe_adp_balance(dlp_llm_workload *wl, const char *model, int src) {
    if (wl->attn_dp <= 1 || !strstr(model, "DeepSeek-") || (src != SRC_IMAX && src != SRC_DBDUMP)) return;
    wl->adp_balance_iters = 60;
    nAdpBal++;
}

/* TensorRT-LLM's attention-DP balance in InferenceX's gpt-oss B200 runs
 * (h189): benchmarks/gptoss_fp4_b200_trt[_slurm|_docker].sh, in every
 * version from 2025-11-02 (e06929c70) to 2026-02-05 (d7dbd045b), append
 * "attention_dp_config: enable_balance: true" to the extra options when
 * DP_ATTENTION is true, and nothing else of it, so TensorRT-LLM's defaults
 * hold: AttentionDpConfig timeout_iters 50, batching_wait_iters 10
 * (tensorrt_llm/llmapi/llm_args.py).  The library prices the timeout (its
 * batching wait is 0: the extra 10 iterations only follow a release that
 * every rank's prompt triggers, rare at these loads, where the count's
 * releases dominate).  The H200 script sets no balance.  Aggregated rows
 * of the InferenceMAX runs with attention DP; --no-adp-balance: none. */
#define TRT_ADP_TIMEOUT_DEFAULT 50
static int nAdpBalGptoss;
static void gptoss_adp_balance(dlp_llm_workload *wl, const char *model, const char *sys, int src) {
    if (wl->attn_dp <= 1 || !strstr(model, "gpt-oss") || strcmp(sys, "b200_sxm") ||
        (src != SRC_IMAX && src != SRC_DBDUMP))
        return;
    wl->adp_balance_iters = TRT_ADP_TIMEOUT_DEFAULT;
    nAdpBalGptoss++;
}

/* gpt-oss's InferenceX TensorRT-LLM layouts as the runs ran them (h238).
 * --gptoss-trt-layout BITS (default 5: bits 1 and 4; 7 all three; 0 the
 * dumps' layouts, the before; docs/llm.md, h238, says why 2 is off):
 *  1  H200 experts over every TP GPU.  benchmarks/gptoss_fp4_h200_trt_slurm.sh
 *     on main passes --ep_size=$TP from 61a92414b ("Change MoE TP to MoE EP
 *     for H200", 2025-09-23, merged with #72) and --ep_size=$EP_SIZE from
 *     17d5e204f (2025-11-03) with every gptoss-fp4-h200-trt search-space
 *     entry {tp: T, ep: T} (.github/configs/nvidia-master.yaml, "For all
 *     sequence lengths, EP=TP") until #854 moved H200 to 1.3.0rc11 on
 *     2026-04-13, after every row; --ep_size 1 appears only on the
 *     cam/evals-on-refactor branch.  The dump records the oldest runs
 *     ("measured 2025-11-02", its placeholder) as moe_tp = TP, ep 1, and
 *     their TPOT equals the later EP = TP runs' within 1-2 % (1k / 1k, 4
 *     clients: TP 2 / 4 / 8 5.85 / 4.98 / 4.38 ms against 5.90 / 4.94 /
 *     4.31).  So an H200 row of these runs recorded with ep 1 has ep = its
 *     TP GPUs (the 2 x 2 record below is bit 2's).
 *  2  The four-GPU squared record.  squared_layout reads tp x dp = moe_tp x
 *     moe_ep past one node as moe_ep GPUs; gpt-oss's runs have the same
 *     record at 2 x 2 = 4: the H200 "tp 4, moe_tp 2, moe_ep 2" rows are the
 *     {tp: 2, ep: 2} entry (their TPOT is the TP 2 runs', 5.90 against 5.85
 *     ms, not TP 4's 4.98), and the B200 "dp 4, moe_tp 2, moe_ep 2" rows the
 *     {tp: 2, ep: 2, dp-attn: true} entry (gptoss-fp4-b200-trt, 2026-01;
 *     the 1k / 1k, 256-client row's TTFT and TPOT, 280.3 / 11.05 ms, are
 *     its "dp 2, moe_ep 2" twin's to the digit).  No gpt-oss search-space
 *     entry has moe_tp and moe_ep both above 1, so the record has no other
 *     reading there; read as 2 GPUs (TP or attention DP as recorded).
 *  4  The H200 script's KV cache: kv_cache_config dtype "auto" in every
 *     version (the checkpoint's 16 bits; gpt-oss ships no KV scales), where
 *     the row's fp4 preset would read fp8 (the B200 script sets fp8). */
static int gptoss_trt_layout = 5;
static int nGptossLayout[3];
static int gptoss_imax_trt(const char *model, const char *backend, int src) {
    return strstr(model, "gpt-oss") && !strcmp(backend, "trtllm") && (src == SRC_IMAX || src == SRC_DBDUMP);
}
/* The "tp x dp 4, moe_tp 2, moe_ep 2" record of a two-GPU {tp 2, ep 2} run
 * (gptoss_square4, imax_square4) */
static int square4_record(int tp, int dp, int moe_tp, int ep) {
    return tp * dp == 4 && moe_tp == 2 && ep == 2 && (tp == 1 || dp == 1);
}
static int gptoss_square4(const char *model, const char *backend, int src, int tp, int dp, int moe_tp, int ep) {
    return (gptoss_trt_layout & 2) && gptoss_imax_trt(model, backend, src) && square4_record(tp, dp, moe_tp, ep);
}
/* The same four-GPU record outside gpt-oss (h244): "tp 4 (or attention
 * DP 4), moe_tp 2, moe_ep 2" in an InferenceMAX dump.  Every single-node
 * search-space entry of .github/configs/nvidia-master.yaml from 2025-09 to
 * 2026-05 is {tp: T, ep: 1} or {tp: T, ep: T} (T = 1, 2, 4, 8; no entry
 * has 1 < ep < tp), and the SGLang scripts pass --tensor-parallel-size=$TP
 * --ep-size $EP_SIZE, so experts over the same T GPUs: no entry ran moe_tp
 * and moe_ep both above 1.  The rows that carry the record (SGLang
 * Qwen3.5-397B-A17B nvfp4 on B300, db-dump config_id 736, workflow 765,
 * 2026-04-18) are qwen3.5-fp4-b300-sglang's {tp: 2, ep: 2} entry (e8924a6a4,
 * the yaml of the run's date: {tp: 4, ep: 1} and {tp: 2, ep: 2}; the
 * {tp: 4, ep: 1} entry is the same workflow's config_id 737, recorded
 * tp 4, moe_tp 4).  Read as moe_ep GPUs, TP or attention DP as recorded,
 * experts over all of them.  The aiconfigurator gap files' 2 x 2 rows
 * (Qwen3-235B and gpt-oss on H100, TensorRT-LLM) are not InferenceMAX runs:
 * TensorRT-LLM runs moe_tp 2 x moe_ep 2 on 4 GPUs, and Qwen3-235B's fp8
 * weights (235 GB) do not fit two 80 GB GPUs; they stay as recorded.
 * Off by default (--imax-square4 1 reads them as run): read as 2 GPUs the
 * model prices their prompt step at twice the TP 4 one (8k: 377 against
 * 186 ms) where the runs' TTFT grew 78 ms, and silicon TTFT / TPOT lose
 * 0.12 / 0.06 points (docs/llm.md, h244). */
static int imax_square4_on = 0;
static int nImaxSquare4;
static int imax_square4(const char *model, int src, int tp, int dp, int moe_tp, int ep) {
    return imax_square4_on && !strstr(model, "gpt-oss") && (src == SRC_IMAX || src == SRC_DBDUMP) &&
           square4_record(tp, dp, moe_tp, ep);
}
static void gptoss_h200_trt(dlp_llm_workload *wl, const char *model, const char *backend, const char *sys,
                            int src) {
    if (!gptoss_imax_trt(model, backend, src) || strcmp(sys, "h200_sxm")) return;
    int tp = wl->n_gpus / (wl->attn_dp > 1 ? wl->attn_dp : 1);
    if ((gptoss_trt_layout & 1) && wl->attn_dp <= 1 && tp > 1 && wl->ep <= 1) wl->ep = tp, nGptossLayout[0]++;
    if (gptoss_trt_layout & 4) wl->kv_dtype = DLP_DT_BFLOAT16, nGptossLayout[2]++;
}

/* SGLang's KV cache for GLM-5 on Hopper (issue 22, h242).  The rows' "fp8"
 * preset reads an fp8 cache, but InferenceX's H200 script
 * (benchmarks/single_node/glm5_fp8_h200.sh at ebb48d4b and 626932a1, the
 * glm5-fp8-h200-sglang runs of 2026-03-19 / 03-28) passes no
 * --kv-cache-dtype, and SGLang resolves "auto" for a DSA model
 * (is_deepseek_nsa, GlmMoeDsaForCausalLM since sgl-project/sglang #18521,
 * 2026-02-10) to "fp8_e4m3" on compute capability 10+ and "bfloat16"
 * below (server_args.py, the DSA kv-cache default: the same rule in every
 * stored version read).  The B200 script sets fp8_e4m3 itself.  So the
 * Hopper rows ran a 16-bit cache.  --sgl-dsa-kv 0 reads the preset's. */
static int sgl_dsa_kv = 1;
static int nSglDsaKv;
static void glm5_sgl_hopper_kv(dlp_llm_workload *wl, const char *model, const char *backend, const char *sys) {
    if (!sgl_dsa_kv || strcmp(backend, "sglang") || !strstr(model, "GLM-5")) return;
    if (strcmp(sys, "h200_sxm") && strcmp(sys, "h100_sxm")) return;
    wl->kv_dtype = DLP_DT_BFLOAT16, nSglDsaKv++;
}

/* TensorRT-LLM's max_num_tokens where the DeepSeek-R1 recipe set it (h169).
 * InferenceX's single-node scripts pass --max_num_tokens to trtllm-serve;
 * TensorRT-LLM's scheduler fills a step with the running sequences' tokens
 * (1 + drafts each) and then whole prompts while they fit (no chunked
 * prefill: the scripts leave enable_chunked_prefill off), so the budget is
 * the prompt tokens a step can take (the library's chunk).
 *  - dsr1_fp{4,8}_{b200,h200}_trt_slurm.sh (2025-09-18, ec90f3fe7, until
 *    64af5a771 of 2026-01-21 added a floor of 8192): (CONC + ISL + 64 +
 *    63) / 64 * 64, i.e. one 1k prompt a step at 1k / 1k and 1k / 8k;
 *    from 2026-01-22 max(8192, that): the library's default stands.
 *  - the MTP scripts (dsr1_fp{4,8}_{b200,h200}_trt_mtp[_slurm].sh, from
 *    2026-01): ((MTP + 1) * MAX_BATCH_SIZE + ISL + 64 + 63) / 64 * 64 with
 *    MAX_BATCH_SIZE = CONC without attention DP, no floor.
 * Aggregated rows without attention DP of the InferenceMAX runs (dumps and
 * db-dump), dated; spec: the drafts agg_spec found (0: plain). */
static void recipe_max_tokens(dlp_llm_workload *wl, const char *model, const char *src, const char *sys,
                              int source, int dp, int64_t conc, int spec) {
    char date[32], gpu[32];
    if (!strstr(model, "DeepSeek-") || (dp > 1 && (spec <= 0 || no_adp_mnt)) ||
        (source != SRC_IMAX && source != SRC_DBDUMP))
        return;
    if (strcmp(sys, "b200_sxm") && strcmp(sys, "h200_sxm")) return;
    row_keys(src, model, sys, date, gpu);
    if (strlen(date) < 10 || date[0] != '2') return;
    int64_t mnt = 0, mbs = conc;
    /* under attention DP the MTP scripts give each rank MAX_BATCH_SIZE =
     * CONC / TP (TP = the DP ranks; b0c4ed21b on; fp8 b200 from 5d517074c
     * CONC / 8, fp4 b200 from 0aae52d4c CONC / 4: at 1k and 8k prompts a
     * rank's budget holds one prompt under each) and max_num_tokens is a
     * rank's own (h178) */
    if (dp > 1) mbs = conc / dp > 1 ? conc / dp : 1;
    if (spec > 0)
        mnt = ((spec + 1) * mbs + wl->seq + 64 + 63) / 64 * 64;
    else if (strcmp(date, "2026-01-22") < 0)
        mnt = (conc + wl->seq + 64 + 63) / 64 * 64;
    if (mnt > 0 && mnt < 8192) wl->chunk_tokens = mnt, mnt_count++;
}

/* TensorRT-LLM's MoE backend where the DeepSeek-R1 fp8 B200 script set
 * TRTLLM (h188; the library's moe_trtllm_gen: the trtllm-gen fused MoE, not
 * the DEEPGEMM kernel its fp8 fit was timed on).  InferenceX's scripts
 * (SemiAnalysisAI/InferenceX; changelog_runs.csv says which push ran a
 * row's day):
 *  - the plain key's script, benchmarks/dsr1_fp8_b200_trt.sh: DEEPGEMM until
 *    ec7bafaae (#594, pushed 2026-01-29 15:27 UTC, the only run of the key
 *    that day), then MOE_BACKEND="TRTLLM" but at 1k / 8k with CONC >= 256
 *    (DEEPGEMM; that branch left with 1k / 8k in 626932a11, 2026-03-27);
 *  - the MTP key's, dsr1_fp8_b200_trt_mtp[_slurm].sh: DEEPGEMM until
 *    5d517074c (#632, pushed 2026-02-05 19:55 UTC), then TRTLLM without
 *    attention DP, DEEPGEMM with it.
 * fp4 runs (TRTLLM or CUTLASS on nvfp4 experts: h137's pooled fit) and
 * H200 (CUTLASS, the fit's kernel) are left; aggregated DeepSeek rows of
 * the InferenceMAX runs and their db-dump twins only, dated; spec: the
 * drafts agg_spec found (0: plain).  --no-moe-backend: off. */
static int no_moe_backend, moe_gen_count;
static void recipe_moe_backend(dlp_llm_workload *wl, const char *model, const char *src, const char *sys,
                               const char *prec, int source, int dp, int64_t conc, int spec) {
    char date[32], gpu[32];
    if (no_moe_backend || !strstr(model, "DeepSeek-") || (source != SRC_IMAX && source != SRC_DBDUMP)) return;
    if (strcmp(sys, "b200_sxm") || strcmp(prec, "fp8")) return;
    row_keys(src, model, sys, date, gpu);
    if (strlen(date) < 10 || date[0] != '2') return;
    int gen = spec > 0 ? strcmp(date, "2026-02-05") >= 0 && dp <= 1
                       : strcmp(date, "2026-01-29") >= 0 && !(wl->seq == 1024 && wl->gen_tokens == 8192 && conc >= 256);
    if (gen) wl->moe_trtllm_gen = 1, moe_gen_count++;
}

/* Did the run capture its context iterations in piecewise CUDA graphs
 * (docs/llm.md, "TensorRT-LLM's DeepSeek-R1 aggregated TTFT", h208)?
 * TensorRT-LLM's cuda_graph_config holds generation-only iterations; one
 * with a prompt runs eagerly unless torch_compile_config
 * enable_piecewise_cuda_graph is set.  InferenceX's DeepSeek-R1 scripts
 * (SemiAnalysisAI/InferenceX benchmarks/dsr1_fp{4,8}_b200_trt[_mtp].sh) set
 * it from these commits, by the measured date (spec > 0: the MTP script):
 *   fp8 plain ec7bafaae (#594, 2026-01-29): 1k / 1k and 8k / 1k at C >= 64,
 *     1k / 8k at 128 <= C < 256;
 *   fp8 MTP 5d517074c (#632, 2026-02-05): on, but off under attention DP and
 *     at 1k / 1k C <= 4, 1k / 8k C <= 8, 8k / 1k C <= 16;
 *   fp4 plain 6eecc0e66 (#620, 2026-02-03): 1k / 1k on 8 GPUs at EP 8;
 *   fp4 MTP 0aae52d4c (#642, 2026-02-06): 1k / 1k at C 32 or 64 (128 without
 *     attention DP), 1k / 8k at C 64.
 * No H200 script and no earlier version sets it.  date: the run's. */
static int ds_piecewise(const char *date, const char *prec, const dlp_llm_workload *wl, int64_t conc, int spec) {
    int dp = wl->attn_dp > 1, s1 = wl->seq == 1024, g1 = wl->gen_tokens == 1024, g8 = wl->gen_tokens == 8192;
    int s8 = wl->seq == 8192;
    if (!strcmp(prec, "fp8") && spec > 0 && strcmp(date, "2026-02-05") >= 0)
        return !dp && ((s1 && g1 && conc > 4) || (s1 && g8 && conc > 8) || (s8 && g1 && conc > 16));
    if (!strcmp(prec, "fp8") && spec <= 0 && strcmp(date, "2026-01-29") >= 0)
        return (((s1 || s8) && g1 && conc >= 64) || (s1 && g8 && conc >= 128 && conc < 256));
    if (!strcmp(prec, "fp4") && spec > 0 && strcmp(date, "2026-02-06") >= 0)
        return (s1 && g1 && (conc == 32 || conc == 64 || (conc == 128 && !dp))) || (s1 && g8 && conc == 64);
    if (!strcmp(prec, "fp4") && spec <= 0 && strcmp(date, "2026-02-03") >= 0)
        return s1 && g1 && wl->n_gpus == 8 && wl->ep == 8;
    return 0;
}

/* Whether a TensorRT-LLM DeepSeek row ran its context steps in piecewise
 * CUDA graphs (ds_piecewise on the row's measured date; B200 scripts only) */
static int ds_row_piecewise(const char *src, const char *model, const char *sys, const char *prec,
                            const dlp_llm_workload *wl, int64_t conc, int spec) {
    char date[32], gpu[32];
    row_keys(src, model, sys, date, gpu);
    return !strcmp(sys, "b200_sxm") && strlen(date) >= 10 && ds_piecewise(date, prec, wl, conc, spec);
}

/* --eager-ctx-ms X (h208's what-if; off by default, no size from a source):
 * the aggregated TensorRT-LLM DeepSeek-R1 rows of the InferenceMAX runs and
 * their db-dump twins whose context iterations ran eagerly (ds_piecewise
 * says no) get ctx_host_ms = X, the host time each step with prompt tokens
 * adds (llm_serve.c iteration).  Counts: eager, piecewise. */
static double eager_ctx_ms;
static int eager_ctx_count[2];

/* The kernels one TensorRT-LLM PyTorch-backend forward launches, counted
 * from the model's structure as the modeling code runs a layer (h213;
 * NVIDIA/TensorRT-LLM tensorrt_llm/_torch/models/modeling_deepseekv3.py,
 * modeling_llama.py, modeling_qwen3.py, modeling_gpt_oss.py):
 *   GQA attention: the fused residual-add RMSNorm, the QKV GEMM, the
 *     attention op's two (QKV preprocessing: rope and the KV-cache write;
 *     the context FMHA), o_proj: 5; q/k norms (Qwen3) one more;
 *   MLA (DeepSeek): the norm, fused_a (q_a and kv_a in one GEMM), the
 *     q_a and kv_a layernorms, q_b, kv_b (the context path expands k and v),
 *     rope with the cache append, k's concat, the FMHA, o_proj: 10;
 *   dense MLP: norm, gate_up, the activation, down: 4;
 *   MoE: norm, the router GEMM, routing (top-k), permute, two grouped
 *     GEMMs, the activation, finalize: 8; a shared expert gate_up, act,
 *     down and its add: 4 more;
 *   quantized activations (fp8 / fp4): one quantize kernel before each
 *     quantized GEMM (attention 2, MLA 4, dense MLP 2, MoE 1, shared 2);
 *     mxfp4 (gpt-oss) quantizes its experts only.
 * Communication kernels are left out (one all-reduce a block under TP). */
static int64_t trt_forward_launches(const dlp_llm_config *c, const char *prec) {
    int mx = !strcmp(prec, "mxfp4") || !strcmp(c->weights_format, "mxfp4");
    int qa = !mx && (!strcmp(prec, "fp8") || !strcmp(prec, "fp4") || !strcmp(prec, "nvfp4"));
    int qm = qa || mx;
    int mla = c->kv_lora_rank > 0, shared = c->shared_expert_intermediate_size > 0;
    int64_t n = 0;
    for (int64_t l = 0; l < c->num_hidden_layers && l < DLP_LLM_MAX_LAYERS; l++) {
        int moe = c->num_experts > 0 && !(c->layer_kind[l] & DLP_LK_DENSE);
        n += mla ? 10 + 4 * qa : 5 + (c->qk_norm != 0) + 2 * qa;
        if (moe) n += 8 + qm + (shared ? 4 + 2 * qa : 0);
        else n += 4 + 2 * qa;
    }
    return n;
}

/* --eager-launch-us X (h213's what-if): every aggregated TensorRT-LLM row
 * whose context iterations ran eagerly (every non-DeepSeek row: no
 * InferenceX or gap-analysis config of theirs sets piecewise graphs; the
 * DeepSeek rows as ds_piecewise reads them) gets ctx_host_ms = its
 * forward's launches x X us. */
static double eager_launch_us;
static int64_t eager_launch_last; /* the last row's count, for the summary */
static void recipe_eager_launch(dlp_llm_workload *wl, const char *model, const char *src, const char *sys,
                                const char *prec, int64_t conc, int spec) {
    dlp_llm_config c;
    dlp_error e = {0};
    if (!(eager_launch_us > 0) || dlp_llm_catalogue_get(model, &c, &e)) return;
    int pw = strstr(model, "DeepSeek-") && ds_row_piecewise(src, model, sys, prec, wl, conc, spec);
    eager_ctx_count[pw]++;
    eager_launch_last = trt_forward_launches(&c, prec);
    if (!pw) wl->ctx_host_ms = (double)eager_launch_last * eager_launch_us * 1e-3;
}

static void recipe_eager_ctx(dlp_llm_workload *wl, const char *model, const char *src, const char *sys,
                             const char *prec, int source, int64_t conc, int spec) {
    if (eager_launch_us > 0) {
        recipe_eager_launch(wl, model, src, sys, prec, conc, spec);
        return;
    }
    if (!(eager_ctx_ms > 0) || !strstr(model, "DeepSeek-") || (source != SRC_IMAX && source != SRC_DBDUMP)) return;
    if (strcmp(sys, "b200_sxm") && strcmp(sys, "h200_sxm")) return;
    int pw = ds_row_piecewise(src, model, sys, prec, wl, conc, spec);
    eager_ctx_count[pw]++;
    if (!pw) wl->ctx_host_ms = eager_ctx_ms;
}

/* h226: TensorRT-LLM's eager context steps priced at the eager engine's host
 * time per layer, DLP__LLM_EAGER_LAYER_MS (0.210 ms, fitted on splitwise-sim's
 * pre-graph vLLM: llm_serve.c EAGER_LAYER_MS; the size h224 gives vLLM's
 * un-graphed prompt steps), x the model's layers, as wl->ctx_host_ms: the
 * library adds it to every step that carries prompt tokens.  Which steps run
 * eagerly: TensorRT-LLM's cuda_graph_config captures generation-only
 * iterations; a context iteration is captured only under
 * torch_compile_config.enable_piecewise_cuda_graph (h208).  Scopes (bits of
 * --trt-eager-scope): 1 the aggregated DeepSeek rows h208 reads as eager
 * (ds_piecewise, InferenceMAX runs and their db-dump twins); 2 every
 * TensorRT-LLM prefill (context) worker: no srt-slurm recipe's prefill
 * section sets torch_compile_config (h218), so each of its steps is a
 * context step run eagerly; 4 the other aggregated TensorRT-LLM rows (no
 * script of theirs sets piecewise graphs either: h213).  Counts by scope. */
static double trt_eager_layer_ms = DLP__LLM_EAGER_LAYER_MS;
static int trt_eager_scope = 0; /* off by default: the family-wide form (7) fails, h226 */
static int trt_eager_count[3];
static void trt_eager_ctx(dlp_llm_workload *wl, const char *model, const char *src, const char *sys,
                          const char *prec, int source, int64_t conc, int spec) {
    dlp_llm_config c;
    dlp_error e = {0};
    if (!(trt_eager_layer_ms > 0) || wl->ctx_host_ms > 0 || dlp_llm_catalogue_get(model, &c, &e)) return;
    int k, ds = strstr(model, "DeepSeek-") != NULL;
    if (wl->phase == DLP_LLM_PREFILL_ONLY) k = 1;
    else if (wl->phase != DLP_LLM_AGG) return;
    else if (ds && (source == SRC_IMAX || source == SRC_DBDUMP) &&
             (!strcmp(sys, "b200_sxm") || !strcmp(sys, "h200_sxm"))) {
        if (ds_row_piecewise(src, model, sys, prec, wl, conc, spec)) return;
        k = 0;
    } else if (ds) return; /* DeepSeek rows h208 does not read (gap-analysis) */
    else k = 2;
    if (!(trt_eager_scope & (1 << k))) return;
    trt_eager_count[k]++;
    wl->ctx_host_ms = trt_eager_layer_ms * (double)c.num_hidden_layers;
}

/* A disaggregated run's client TTFT from its two workers (disagg_wait.h):
 * the prefill worker's TTFT, or, where the C clients outnumber the S decode
 * slots, the closed loop's wait for one; a slot is held for the decode
 * worker's predicted gen x TPOT (its request, as llm_serve.c's decode worker
 * times it).  The worker-only figure is kept to print beside it. */
/* sa-bench's --random-range-ratio default and NUM_PROMPTS_MULT (srt-slurm
 * src/srtctl/benchmarks/scripts/sa-bench/bench.sh); slot_rr 0 gives h140's
 * closed form (equal lengths), for the comparison the bench prints */
#define SA_RANGE_RATIO 0.8
#define SA_WAVES 10
static int slot_rr = 1;

/* The simulation of one run's inputs is played once: the dumps hold the same
 * runs more than once (and h143 composes a data-count run twice). */
static double rr_ttft_cached(int64_t C, int W, int64_t b, double p_ms, double slot_ms) {
    enum { NC = 4096 };
    static struct { int64_t C, b; int W; double p, s, r; } memo[NC];
    static int nm;
    for (int i = 0; i < nm; i++)
        if (memo[i].C == C && memo[i].W == W && memo[i].b == b && memo[i].p == p_ms && memo[i].s == slot_ms) return memo[i].r;
    double r = disagg_rr_ttft_ms(C, W, b, p_ms, slot_ms, SA_RANGE_RATIO, SA_WAVES);
    if (nm < NC) memo[nm].C = C, memo[nm].W = W, memo[nm].b = b, memo[nm].p = p_ms, memo[nm].s = slot_ms, memo[nm++].r = r;
    return r;
}
static void compose_slot_wait(row_t *pf, const row_t *dec, int64_t clients, int64_t slots, int workers) {
    double slot_ms = (double)dec->wl.gen_tokens * dec->a[T_TPOT];
    pf->ttft_pw_ms = pf->a[T_TTFT];
    pf->slot_c = clients, pf->slot_s = slots, pf->slot_w = workers;
    double closed = disagg_client_ttft_ms(pf->a[T_TTFT], clients, slots, slot_ms);
    /* sa-bench's output lengths (uniform over [0.8, 1] x osl) and its 10 x C
     * requests, played through the round-robin (disagg_wait.h, h164): the
     * queue at a worker still full while another has a free slot */
    double sim = NAN;
    if (slot_rr && workers > 0 && slots % workers == 0) sim = rr_ttft_cached(clients, workers, slots / workers, pf->a[T_TTFT], slot_ms);
    pf->ttft_closed_ms = closed;
    pf->a[T_TTFT] = isfinite(sim) ? sim : closed;
}

/* h174: an SGLang attention-DP prefill worker's ranks queue on their own
 * (disagg_wait.h adp_rank_queue_ms): each request is handed to one rank at
 * random and runs there (the worker's prefill_ms, llm_serve.c
 * sglang_rank_serve_s); a client is away on the decode side for its mean
 * output (sa-bench's lengths, uniform over [0.8, 1] x osl) x the decode
 * worker's TPOT.  Before the decode-slot wait is composed: the queue is the
 * prefill worker's own.  Nothing fitted.
 * h186: the queue played with the run's own client (disagg_wait.h
 * sglang_queue_wait_ms), the closed loop's even arrivals in place of the
 * open M/D/1, and a worker without attention DP one queue (its prefill_ms:
 * llm_serve.c sglang_worker_serve_s) where before it had none.  The
 * srt-slurm runs (InferenceMAX-style and db-dump rows) ran sa-bench:
 * lengths uniform over [0.8, 1] x osl, 10 x C requests; aiconfigurator's
 * harness (gap_fixed, h168) fixed lengths, 50 x C requests after 2 x C
 * warm-up ones (bench_run.sh.j2 "--num-requests $(($concurrency*50))").
 * Other rows keep h174's reading.  DLP_NO_PLAYED_QUEUE=1: h174's reading
 * everywhere (the before). */
static int adp_q_count, played_q_count, sgl_batch_count;
/* h235 (--sgl-batch-sim, disagg_wait.h sgl_batch_sim_ms): the worker played
 * with its prefill batches and sa-bench's first wave sent at once; the
 * played mean (the first wave's included) replaces the library's burst and
 * steady terms and the queue above: the TTFT is the front end + the mean +
 * the KV handoff.  k, the prompts a batch takes, is llm_serve.c
 * sglang_batch_prompts' (h186): min(chunk / dp / S, ceil(M / S) - 1), at
 * least 1, M the recipe's max_prefill_tokens or SGLang's 16,384.  0 where
 * the row cannot be played. */
static int sgl_batch_queue(row_t *pf, const row_t *dec, int sa) {
    double S = (double)pf->wl.seq, dp = pf->wl.attn_dp > 1 ? pf->wl.attn_dp : 1;
    if (!sgl_batch_on || !(pf->sgl_lone_ms > 0) || !(S > 0) || pf->chunk_tok < 1) return 0;
    /* 2: only the attention-DP workers whose rank the library prices at the
     * ranks' lockstep step (EP 1, or EP without an all-to-all: h215, h219) */
    if (sgl_batch_on == 2 && !(dp > 1 && (pf->wl.ep <= 1 || pf->wl.sglang_a2a_none))) return 0;
    double M = pf->wl.max_prefill_tokens > 0 ? (double)pf->wl.max_prefill_tokens : 16384.0;
    double k = fmax(1.0, fmin(floor((double)pf->chunk_tok / dp / S), ceil(M / S) - 1.0));
    if (k > 4096) k = 4096;
    sgl_batch_cfg g = {.dp = (int)dp, .k = (int)k, .lone_ms = pf->sgl_lone_ms, .k_ms = k * pf->pf_ms,
                       .back_ms = pf->kvh_ms + pf->req_ms};
    double m = sgl_batch_mean_ms(pf->wl.concurrency, &g, (double)dec->wl.gen_tokens * dec->a[T_TPOT],
                                 sa ? SA_RANGE_RATIO : 1.0, sa ? SA_WAVES : 50);
    if (!isfinite(m)) return 0;
    pf->a[T_TTFT] = pf->req_ms + m + pf->kvh_ms, sgl_batch_count++;
    return 1;
}
static void adp_rank_queue(row_t *pf, const row_t *dec) {
    static int off = -1;
    if (off < 0) off = getenv("DLP_NO_PLAYED_QUEUE") && *getenv("DLP_NO_PLAYED_QUEUE") == '1';
    if (pf->wl.engine != DLP_LLM_ENGINE_SGLANG || !(pf->a[T_TTFT] > 0)) return;
    int sa = pf->src == SRC_IMAX || pf->src == SRC_DBDUMP;
    if (!off && (sa || pf->gap_fixed) && sgl_batch_queue(pf, dec, sa)) return;
    if (!off && (sa || pf->gap_fixed)) {
        double w = sglang_queue_wait_ms(pf->wl.concurrency, pf->wl.attn_dp, pf->pf_ms,
                                        (double)dec->wl.gen_tokens * dec->a[T_TPOT], sa ? SA_RANGE_RATIO : 1.0,
                                        sa ? SA_WAVES : 50);
        if (isfinite(w)) pf->a[T_TTFT] += w, played_q_count++;
        return;
    }
    if (pf->wl.attn_dp <= 1) return;
    double away = 0.5 * (1.0 + SA_RANGE_RATIO) * (double)dec->wl.gen_tokens * dec->a[T_TPOT];
    double q = adp_rank_queue_ms(pf->a[T_TTFT], (double)pf->wl.concurrency, pf->wl.attn_dp, pf->pf_ms, away);
    if (isfinite(q)) pf->a[T_TTFT] = q, adp_q_count++;
}

/* h200: a TensorRT-LLM recipe's context worker played request by request
 * (disagg_wait.h trt_ctx_sim_ms, --trt-ctx-sim): its ranks, the recipe's
 * max_batch_size and k a rank a step (trt_ctx_of), the step the library's
 * (trt_pf_steps: j prompts on every rank), a lone prompt its prefill_ms;
 * sa-bench's closed loop (10 x C requests, the first C at once, outputs
 * uniform over [0.8, 1] x osl at the decode row's TPOT), a client away
 * after its step for the KV handoff and the front end as well.  The played
 * mean (queue and step, the first wave's included) replaces the worker's
 * own burst-and-steady queue term: its TTFT becomes the front end + the
 * played mean + the handoff.  Before the decode-slot wait and the
 * generation loop's poll are composed, as the SGLang queue is. */
static double trt_ctx_price_x(void) {
    static double x = -1;
    if (x < 0) x = getenv("DLP_TRT_CTX_PRICE_X") ? atof(getenv("DLP_TRT_CTX_PRICE_X")) : 1.0;
    return x > 0 ? x : 1.0;
}
static void trt_ctx_queue(row_t *pf, const row_t *dec) {
    if (!trt_ctx_sim_on || pf->trt_k < 1 || !(pf->a[T_TTFT] > 0) || (pf->src != SRC_IMAX && pf->src != SRC_DBDUMP)) return;
    /* DLP_TRT_CTX_PRICE_X=f (a diagnostic, never a prediction: docs/llm.md,
     * h200): the played steps and lone prompt at f x the library's price, to
     * read what price the runs' TTFTs imply slice by slice */
    double f = trt_ctx_price_x(), st[TRT_STEPS];
    for (int j = 0; j < pf->trt_k; j++) st[j] = f * pf->trt_step_ms[j + 1];
    trt_ctx_cfg g = {.N = pf->wl.attn_dp > 1 ? pf->wl.attn_dp : 1, .mbs = pf->trt_mbs, .k = pf->trt_k,
                     .lone_ms = f * pf->pf_ms, .step_ms = st, .back_ms = pf->kvh_ms + pf->req_ms};
    double q = trt_ctx_mean_ms(pf->wl.concurrency, &g, (double)dec->wl.gen_tokens * dec->a[T_TPOT], SA_RANGE_RATIO,
                               SA_WAVES);
    if (isfinite(q)) pf->a[T_TTFT] = pf->req_ms + q + pf->kvh_ms, trt_ctx_count++;
}

/* h237 (on by default since the session-23 merge, after h240 repriced the
 * nvfp4 context step's busiest rank; --no-trt-ctx-mv gives the old answer;
 * docs/llm.md): a TensorRT-LLM recipe's context worker under
 * load as a mean-value queue (disagg_wait.h trt_ctx_mv_ms): each step runs
 * the prompts that arrived during the last one, up to the recipe's k a rank
 * (trt_ctx_of), at the library's step of that many (trt_pf_steps); the
 * clients away for sa-bench's mean output (0.9 x osl) at the decode row's
 * TPOT.  The worker's own TTFT, before the decode-slot wait and the
 * generation loop's poll are composed; --trt-ctx-sim, where given, plays
 * instead. */
static void trt_ctx_mv_row(row_t *pf, const row_t *dec) {
    if (!trt_ctx_mv_on || trt_ctx_sim_on || pf->trt_k < 1 || !(pf->a[T_TTFT] > 0) ||
        (pf->src != SRC_IMAX && pf->src != SRC_DBDUMP))
        return;
    double st[TRT_STEPS];
    for (int j = 0; j < pf->trt_k; j++) st[j] = pf->trt_step_ms[j + 1];
    trt_ctx_cfg g = {.N = pf->wl.attn_dp > 1 ? pf->wl.attn_dp : 1, .mbs = pf->trt_mbs, .k = pf->trt_k,
                     .lone_ms = pf->pf_ms, .step_ms = st, .back_ms = 0};
    double away = 0.5 * (1.0 + SA_RANGE_RATIO) * (double)dec->wl.gen_tokens * dec->a[T_TPOT];
    double t = trt_ctx_mv_ms(pf->a[T_TTFT], (double)pf->wl.concurrency, &g, pf->trt_burst_ms, away, SA_WAVES);
    if (isfinite(t)) pf->a[T_TTFT] = t, trt_ctx_mv_count++;
}

/* TensorRT-LLM's generation loop between the KV transfer and the first
 * token (disagg_wait.h trtllm_gen_first_token_ms, h175): added to the
 * client's TTFT of a TensorRT-LLM prefill worker's row, after any slot wait
 * (the loop's poll follows the admission); d the paired decode worker's
 * predicted step, x the prefill worker's predicted handoff, over the run's
 * decode workers (1 where the counts are unknown, as the pairing assumes).
 * --no-gen-poll: none (the before). */
static int no_gen_poll, nGenPoll, nMlaCopies;
/* Copies of an MLA prompt's latent one context rank sends: the latent is
 * whole on every attention-TP rank, and TensorRT-LLM's MLACacheFormatter
 * (cpp/tensorrt_llm/batch_manager/mlaCacheFormatter.cpp, needSendCache /
 * pickRecvConnections) has each generation rank of the request's DP group
 * receive its own copy, the context ranks of the group sharing the sends
 * (all of them send where the context side has no more TP ranks a group than
 * the generation side): dest / src TP ranks a group, at least 1.  The
 * library's handoff is one copy (llm_serve.c kv_handoff_s). */
static int mla_copies(const row_t *pf, const row_t *dec) {
    if (!pf->mla) return 1;
    int src_dp = pf->wl.attn_dp > 1 ? pf->wl.attn_dp : 1, dst_dp = dec->wl.attn_dp > 1 ? dec->wl.attn_dp : 1;
    int src = pf->wl.n_gpus / src_dp, dst = dec->wl.n_gpus / dst_dp;
    if (src < 1 || dst <= src) return 1;
    return dst / src;
}
static void trtllm_gen_poll(row_t *pf, const row_t *dec, int64_t clients, int workers) {
    if (no_gen_poll || pf->wl.engine != DLP_LLM_ENGINE_TRTLLM) return;
    int k = mla_copies(pf, dec);
    double x = pf->kvh_ms * (double)k;
    double add = (x - pf->kvh_ms) + trtllm_gen_first_token_ms(x, dec->dec_ms, clients, workers);
    if (!(add > 0)) return;
    pf->a[T_TTFT] += add;
    nGenPoll++, nMlaCopies += k > 1;
}

/* A run with counts in the data: its TTFT with the recipe's decode cap
 * (data_recipe_cap) in place of the data's decode_batch_size, composed as
 * compose_slot_wait; the data's reading is kept to print beside it.  Runs
 * no single cap settles keep the data's reading. */
static void data_cap_wait(row_t *pf, const row_t *dec, int m, int64_t clients, int64_t slots, int workers) {
    dc_count[m]++;
    pf->cap_class = m + 1;
    pf->ttft_data_ms = pf->a[T_TTFT];
    if (slots < 1) return;
    /* from the prefill worker's own TTFT, not the data cap's composition */
    if (pf->ttft_pw_ms > 0) pf->a[T_TTFT] = pf->ttft_pw_ms;
    compose_slot_wait(pf, dec, clients, slots, workers);
}

/* h165: a blank-count run's own record in the db-dump (its twin).  The
 * InferenceMAX-style dumps (source_file=) and the db-dump (db-dump/..;
 * config_id=) hold some runs twice: same GPU, precision, engine, isl, osl,
 * clients, measured= day, and TTFT and TPOT equal to the last printed digit
 * (DeepSeek-R1 fp8 H200 TensorRT-LLM 1k/1k, 36 clients, 2026-03-23: TTFT
 * 622.8887425593308 in both; the db-dump's config_id=590 gives 1 prefill
 * worker, attention DP 8, EP 8, and 9 decode workers of TP 8, batch 4).
 * Equal TTFT and TPOT to 1e-9 are the same measurement, not two runs that
 * happened to agree: the db-dump record's worker counts, layouts and decode
 * batch are the run's own, read as the data-count runs are.  Used only where
 * the recipes (recipe_match) leave the run unsettled. */
#define MAXTW 512
enum { TW_PW, TW_PTP, TW_PDP, TW_PEP, TW_PBS, TW_DBS, TW_DW, TW_DTP, TW_DDP, TW_DEP, TW_NF };
typedef struct {
    char key[160];
    double ttft, tpot;
    char f[TW_NF][12];
} twin_t;
static twin_t TW[MAXTW];
static int nTW, tw_count[3]; /* settled; twin whose GPUs differ from the row's; several twins, different counts */
static int tw_from[RM_N];    /* the settled twins by the recipes' class */
static int tw_check[2];      /* runs the recipes settled that have a twin: counts agree, differ */

/* the run's identity: GPU, precision, engine, isl, osl, clients, measured day */
static void twin_key(char *k, size_t n, char **v, const int *c) {
    char conc[24], meas[32];
    src_field(v[c[6]], "silicon_concurrency=", conc, sizeof conc);
    src_field(v[c[6]], "measured=", meas, sizeof meas);
    meas[meas[0] ? 10 : 0] = 0;
    snprintf(k, n, "%s|%s|%s|%s|%s|%s|%s", v[c[0]], v[c[1]], v[c[2]], v[c[3]], v[c[4]], conc, meas);
}

/* c: system, precision, backend, isl, osl, ttft, source; fc: the TW_ fields'
 * columns; tt: the TPOT column.  Reads the data-count disaggregated rows
 * from the db-dump and leaves f where it found it. */
static void load_twins(FILE *f, int nh, int cMode, const int *c, int tt, const int *fc) {
    static char line[8192];
    char *v[64];
    long at = ftell(f);
    while (fgets(line, sizeof line, f) && nTW < MAXTW) {
        if (csv_split(line, v, 64) != nh || strcmp(v[cMode], "disagg") || !strstr(v[c[6]], "db-dump/")) continue;
        if (!*v[fc[TW_PW]] || !*v[fc[TW_DW]] || !(atof(v[c[5]]) > 0) || !(atof(v[tt]) > 0)) continue;
        twin_t *t = &TW[nTW++];
        twin_key(t->key, sizeof t->key, v, c);
        t->ttft = atof(v[c[5]]), t->tpot = atof(v[tt]);
        for (int i = 0; i < TW_NF; i++) snprintf(t->f[i], sizeof t->f[i], "%s", v[fc[i]]);
    }
    fseek(f, at, SEEK_SET);
}

static int twin_same(double a, double b) { return fabs(a / b - 1) < 1e-9; }
/* h165's identity: the same key, TTFT and TPOT (twin_of, has_twin) */
static int twin_is(const twin_t *t, const char *k, double ttft, double tpot) {
    return !strcmp(t->key, k) && twin_same(t->ttft, ttft) && twin_same(t->tpot, tpot);
}
/* a count field, blank or 0 read as 1 (the data's convention) */
#define TI(x) (atoi(x) > 0 ? atoi(x) : 1)

/* The twin of a blank-count row, or NULL.  Each worker's GPUs (tp x
 * attention DP in the db-dump, tp in the blank row) must agree, and every
 * twin must give the same counts; the refusals are counted. */
static const twin_t *twin_of(char **v, const int *c, int tt, const int *fc, int *count) {
    char k[160];
    twin_key(k, sizeof k, v, c);
    double ttft = atof(v[c[5]]), tpot = atof(v[tt]);
    const twin_t *hit = NULL;
    for (int i = 0; i < nTW; i++) {
        const twin_t *t = &TW[i];
        if (!twin_is(t, k, ttft, tpot)) continue;
        if (TI(t->f[TW_PTP]) * TI(t->f[TW_PDP]) != TI(v[fc[TW_PTP]]) ||
            TI(t->f[TW_DTP]) * TI(t->f[TW_DDP]) != TI(v[fc[TW_DTP]])) {
            count[1]++;
            return NULL;
        }
        for (int j = 0; hit && j < TW_NF; j++)
            if (strcmp(hit->f[j], t->f[j]) && j != TW_PBS) {
                count[2]++;
                return NULL;
            }
        hit = t;
    }
    if (hit) count[0]++;
    return hit;
}

/* A check of the recipe matching (h129, h142) the twins allow: where the
 * recipes settled a run that has a db-dump twin, do the worker counts and
 * each worker's GPUs agree?  Where they differ the twin is returned: the
 * run's own record outranks the yaml entry its key and date matched (5
 * runs: the dump date's yaml lists more decode workers than the run had). */
static const twin_t *recipe_twin_check(const recipe_t *rp, char **v, const int *c, int tt, const int *fc) {
    int dummy[3] = {0};
    const twin_t *t = twin_of(v, c, tt, fc, dummy);
    if (!t) return NULL;
    int same = rp->pw == TI(t->f[TW_PW]) && rp->dw == TI(t->f[TW_DW]) &&
               rp->ptp == TI(t->f[TW_PTP]) * TI(t->f[TW_PDP]) && rp->dtp == TI(t->f[TW_DTP]) * TI(t->f[TW_DDP]);
    if (!same && getenv("DLP_RECIPE_MISSES") && *getenv("DLP_RECIPE_MISSES") == '1')
        fprintf(stderr, "recipe-twin-differ\trecipe p%dx%d d%dx%d\ttwin p%sx%d d%sx%d\t%s\n", rp->pw, rp->ptp, rp->dw,
                rp->dtp, t->f[TW_PW], TI(t->f[TW_PTP]) * TI(t->f[TW_PDP]), t->f[TW_DW],
                TI(t->f[TW_DTP]) * TI(t->f[TW_DDP]), v[c[6]]);
    tw_check[same ? 0 : 1]++;
    return same ? NULL : t;
}

/* A row of the "<model>-gap-analysis.csv" files (Qwen3.5-397B-A17B on
 * SGLang, Kimi-K2.5 on vLLM: no harness path, no date, no image in its
 * source) that is an InferenceMAX run read twice (issue 22, h239).  Each
 * of their 123 aggregated rows carries the TTFT and TPOT of an InferenceMAX
 * dump row of the same model, GPU, precision and lengths to the file's two
 * decimals (338.34 / 6.33 against 338.3364 / 6.3327, measured 2026-03-20
 * on lmsysorg/sglang:v0.5.9-cu130): the same measurement, not a second
 * run of aiconfigurator's harness.  Such a row is read from its twin's
 * record (its date picks the InferenceX script's settings, its harness
 * drew the prompts, its layout columns are the run's), as the db-dump
 * twins of h165 are; it keeps its own source's label in the breakdowns.
 * Twins measured on different days: none (the row's own reading).  The
 * InferenceMAX dumps often hold a run twice (2026-03-25.csv and
 * 2026-04-06.csv), some with the layout spelt two ways (tp 4, moe_ep 4 /
 * tp 16, moe_tp 4, moe_ep 4: squared_layout reads both as TP 4, EP 4); the
 * first is read.  Equal to half a hundredth: the file rounds to 0.01. */
#define MAXGT 8192
static char *GT[MAXGT];
static int nGT, gt_count[3]; /* read from a twin; no twin; twins disagree */
static int no_gap_twin;      /* bench-only (--no-gap-twin): every such row read as its file */

static int gap_twin_file(const char *src) { return strstr(src, "-gap-analysis.csv") != NULL; }

/* keep the InferenceMAX dumps' aggregated rows (raw lines); f left where it was */
static void load_gap_twins(FILE *f, int nh, int cMode, int cSRC) {
    static char line[8192], tmp[8192];
    char *v[64];
    long at = ftell(f);
    while (fgets(line, sizeof line, f) && nGT < MAXGT) {
        memcpy(tmp, line, sizeof tmp);
        if (csv_split(tmp, v, 64) != nh || strcmp(v[cMode], "agg") || src_of(v[cSRC]) != SRC_IMAX) continue;
        GT[nGT++] = strdup(line);
    }
    fseek(f, at, SEEK_SET);
}

/* h233: a run whose recipe entries differ in MTP only, read by the other
 * row of its pair.  aiconfigurator's db-dump holds InferenceX's plain runs
 * and no MTP one: of the TensorRT-LLM decode rows the recipes settle as MTP
 * (K 1-3), 2 of 272 have a db-dump record of the same GPU and engine and
 * TPOT (to 1e-5, main's rows dump), of those they settle plain 159 of 454;
 * SGLang 0 of 50 and 99 of 226 (docs/llm.md, h233).  The reading below uses
 * h165's full identity (has_twin).  Where one source file holds exactly two runs of a key (GPU,
 * precision, engine, isl, osl, clients, measured day) and the entries that
 * fit them are one plain and one MTP entry (alt_k), the two runs are the
 * two entries: the one with a db-dump twin the plain, the other the MTP one
 * (GB300 1k/1k, 4 x TP 8 decode, 12 clients, 2026-02-03: the run whose
 * record is config_id 417 plain, its sibling the mtp entry). */
#define MAXPR 4096
typedef struct {
    char key[192];
    int twin;
} pair_row_t;
static pair_row_t PR[MAXPR];
static int nPR, pair_count[2]; /* rows read plain, read MTP */
static int mtp_pair_on = 1;    /* read the pairs (on by default since the session-23 merge: with h236's module
                                  floor in, TTFT 27.571 either way, TPOT 14.74 -> 14.38; --mtp-pair 0 reads
                                  every such run plain, the old answer) */

static void pair_key(char *k, size_t n, char **v, const int *c) {
    char tk[160], file[32];
    twin_key(tk, sizeof tk, v, c);
    src_field(v[c[6]], "source_file=", file, sizeof file);
    snprintf(k, n, "%s|%s", tk, file);
}

/* Has the row a db-dump twin (h165's identity, no counting)? */
static int has_twin(char **v, const int *c, int tt) {
    char k[160];
    twin_key(k, sizeof k, v, c);
    for (int i = 0; i < nTW; i++)
        if (twin_is(&TW[i], k, atof(v[c[5]]), atof(v[tt]))) return 1;
    return 0;
}

/* The blank-count runs of the source files by key and file, each with
 * whether it has a twin; f left where it was found. */
static void load_pairs(FILE *f, int nh, int cMode, const int *c, int tt, const int *fc) {
    static char line[8192];
    char *v[64];
    long at = ftell(f);
    while (fgets(line, sizeof line, f) && nPR < MAXPR) {
        if (csv_split(line, v, 64) != nh || strcmp(v[cMode], "disagg") || !strstr(v[c[6]], "source_file=")) continue;
        if (*v[fc[TW_PW]] && *v[fc[TW_DW]]) continue;
        pair_key(PR[nPR].key, sizeof PR[nPR].key, v, c);
        PR[nPR++].twin = has_twin(v, c, tt);
    }
    fseek(f, at, SEEK_SET);
}

/* c: model, system, precision, isl, osl, ttft, tpot, source.  Splits the
 * twin's line into w and returns w, or v where there is no single twin. */
static char **gap_twin_of(char **v, int nh, const int *c, char **w, char *buf, size_t n) {
    if (!gap_twin_file(v[c[7]])) return v;
    char *u[64], tmp[8192], date0[32] = "", date1[32];
    const char *hit = NULL;
    for (int i = 0; i < nGT; i++) {
        snprintf(tmp, sizeof tmp, "%s", GT[i]);
        if (csv_split(tmp, u, 64) != nh) continue;
        int same = 1;
        for (int k = 0; k < 5 && same; k++) same = !strcmp(u[c[k]], v[c[k]]);
        if (!same || fabs(atof(u[c[5]]) - atof(v[c[5]])) > 0.00501 || fabs(atof(u[c[6]]) - atof(v[c[6]])) > 0.00501)
            continue;
        src_field(u[c[7]], "measured=", date1, sizeof date1);
        date1[date1[0] ? 10 : 0] = 0;
        if (hit) {
            if (strcmp(date0, date1)) {
                gt_count[2]++;
                return v;
            }
            continue;
        }
        hit = GT[i];
        snprintf(date0, sizeof date0, "%s", date1);
    }
    if (!hit) {
        gt_count[1]++;
        return v;
    }
    snprintf(buf, n, "%s", hit);
    csv_split(buf, w, 64);
    gt_count[0]++;
    return w;
}

/* The drafts of a run whose fitting entries differ in MTP only (alt_k K):
 * 0 for the pair's twin, K for its other run, -1 where the file does not
 * hold exactly two runs of the key, one of them with a twin. */
static int mtp_pair_k(char **v, const int *c, int tt, int alt_k) {
    if (alt_k < 1) return -1;
    char k[192];
    pair_key(k, sizeof k, v, c);
    int n = 0, tw = 0;
    for (int i = 0; i < nPR; i++)
        if (!strcmp(PR[i].key, k)) n++, tw += PR[i].twin;
    if (n != 2 || tw != 1) return -1;
    int me = has_twin(v, c, tt);
    pair_count[me ? 0 : 1]++;
    return me ? 0 : alt_k;
}

static void load_silicon(const char *root) {
    static char line[8192], hl[8192];
    char *h[64], *v[64];
    int nh;
    FILE *f = csv_open(root, "aiconfigurator/aic-core/src/aiconfigurator_core/systems/silicon_sample.csv", hl,
                       (int)sizeof hl, h, 64, &nh);
    int cM = csv_col(h, nh, "model_path"), cS = csv_col(h, nh, "system"), cB = csv_col(h, nh, "backend"),
        cP = csv_col(h, nh, "precision"), cMode = csv_col(h, nh, "mode"), cI = csv_col(h, nh, "isl"), cO = csv_col(h, nh, "osl"),
        cG = csv_col(h, nh, "gemm_quant_mode"), cBS = csv_col(h, nh, "batch_size"), cTP = csv_col(h, nh, "tp_size"),
        cDP = csv_col(h, nh, "attention_dp_size"), cEP = csv_col(h, nh, "moe_ep_size"),
        cPTP = csv_col(h, nh, "prefill_tp_size"), cPDP = csv_col(h, nh, "prefill_attention_dp_size"),
        cPEP = csv_col(h, nh, "prefill_moe_ep_size"), cPBS = csv_col(h, nh, "prefill_batch_size"),
        cDTP = csv_col(h, nh, "decode_tp_size"), cDDP = csv_col(h, nh, "decode_attention_dp_size"),
        cDEP = csv_col(h, nh, "decode_moe_ep_size"), cMTP = csv_col(h, nh, "moe_tp_size"), cDBS = csv_col(h, nh, "decode_batch_size"),
        cPW = csv_col(h, nh, "prefill_num_workers"), cSRC = csv_col(h, nh, "silicon_data_source"), cDW = csv_col(h, nh, "decode_num_workers"),
        cTT = csv_col(h, nh, "silicon_ttft_ms"), cTO = csv_col(h, nh, "silicon_tpot_ms"),
        cBV = csv_col(h, nh, "backend_version");
    const int tc[7] = {cS, cP, cB, cI, cO, cTT, cSRC},
              tf[TW_NF] = {cPW, cPTP, cPDP, cPEP, cPBS, cDBS, cDW, cDTP, cDDP, cDEP};
    load_twins(f, nh, cMode, tc, cTO, tf);
    load_gap_twins(f, nh, cMode, cSRC);
    const int gc[8] = {cM, cS, cP, cI, cO, cTT, cTO, cSRC};
    static char gbuf[8192];
    char *gw[64];
    load_pairs(f, nh, cMode, tc, cTO, tf);
    while (fgets(line, sizeof line, f) && nR + 2 < MAXR) {
        /* the source column holds commas inside quotes: re-join is not
         * needed because it has none in this file (checked by nh) */
        if (csv_split(line, v, 64) != nh) continue;
        /* h239: a gap-analysis.csv row that is an InferenceMAX run is read
         * from that run's record; its measured values stay its own */
        int gap_twin = 0;
        if (!no_gap_twin && !strcmp(v[cMode], "agg") && gap_twin_of(v, nh, gc, gw, gbuf, sizeof gbuf) == gw) {
            char *tt = v[cTT], *to = v[cTO];
            memcpy(v, gw, sizeof gw);
            v[cTT] = tt, v[cTO] = to, gap_twin = 1;
        }
        double ttft = atof(v[cTT]), tpot = atof(v[cTO]);
        int64_t isl = atoll(v[cI]), osl = atoll(v[cO]);
        if (!(ttft > 0) || !(tpot > 0) || isl < 1 || osl < 1) continue;
        int q = quant_of(v[cG], v[cP]);
        /* the dumps label gpt-oss's fp4 runs gemm "nvfp4" (aiconfigurator's
         * preset name), but what runs is the published checkpoint:
         * openai/gpt-oss-* ship their experts in MXFP4 (config.json
         * quantization_config quant_method "mxfp4"), block 32, e8m0 scales */
        if (q == DLP_QT_NVFP4 && strstr(v[cM], "gpt-oss")) q = DLP_QT_MXFP4;
        /* aiconfigurator's "fp8" / "fp4" presets quantise the KV cache to
         * fp8 too (its kvcache_quant_mode follows the preset); bf16 keeps it */
        int kvq = (!strcmp(v[cP], "fp8") || !strcmp(v[cP], "fp4")) ? DLP_DT_FLOAT8E4M3FN : 0;
        const char *dev = sys_dev(v[cS]);
        int disagg = !strcmp(v[cMode], "disagg");
#define I(x) (atoi(x) > 0 ? atoi(x) : 1)
        if (!disagg) {
            row_t *r = new_row("silicon", v[cS], v[cB]);
            r->src = src_of(v[cSRC]);
            int tp = I(v[cTP]), dp = I(v[cDP]), ep = I(v[cEP]);
            int64_t conc = (int64_t)I(v[cBS]) * dp;
            const char *sc = strstr(v[cSRC], "silicon_concurrency=");
            /* the squared layouts: see squared_layout */
            if (squared_layout(tp, dp, I(v[cMTP]), ep)) {
                if (tp > 1) tp = ep;
                else dp = ep;
                /* the clients as the run recorded them (batch x the
                 * recorded DP otherwise, as before) */
                if (sc && atoll(sc + 20) > 0) conc = atoll(sc + 20);
                r->squared = 1;
            } else if (gptoss_square4(v[cM], v[cB], r->src, tp, dp, I(v[cMTP]), ep)) {
                /* gpt-oss's 2 x 2 record (h238): as squared_layout */
                if (tp > 1) tp = ep;
                else dp = ep;
                if (sc && atoll(sc + 20) > 0) conc = atoll(sc + 20);
                r->squared = 1;
                nGptossLayout[1]++;
            } else if (imax_square4(v[cM], r->src, tp, dp, I(v[cMTP]), ep)) {
                /* the 2 x 2 record outside gpt-oss (h244): as squared_layout */
                if (tp > 1) tp = ep;
                else dp = ep;
                if (sc && atoll(sc + 20) > 0) conc = atoll(sc + 20);
                r->squared = 1;
                nImaxSquare4++;
            } else if (vllm_ep_layout(v[cB], tp, dp, I(v[cMTP]), ep)) {
                if (sc && atoll(sc + 20) > 0) conc = atoll(sc + 20);
                ep = tp, dp = 1;
                if (vllm_dp_attn(v[cSRC], v[cM], v[cS], v[cP], isl, osl, tp, (int)conc)) dp = tp, tp = 1;
                r->squared = 1;
            }
            r->wl = (dlp_llm_workload){.batch = 1, .seq = isl, .gen_tokens = osl, .quant = q, .kv_dtype = kvq, .n_gpus = tp * dp,
                                       .concurrency = conc, .ep = ep, .attn_dp = dp,
                                       .phase = DLP_LLM_AGG};
            vllm_script_reading(&r->wl, v[cB], v[cSRC], v[cM], v[cS], v[cP]);
            glm5_sgl_hopper_kv(&r->wl, v[cM], v[cB], v[cS]);
            if (!strcmp(v[cB], "trtllm")) {
                gptoss_h200_trt(&r->wl, v[cM], v[cB], v[cS], r->src);
                recipe_batch_wait(&r->wl, v[cM], v[cS], v[cP], v[cBV], v[cSRC], tp, conc);
                if (!no_adp_balance) recipe_adp_balance(&r->wl, v[cM], r->src);
                if (!no_adp_balance) gptoss_adp_balance(&r->wl, v[cM], v[cS], r->src);
                /* MTP runs: TensorRT-LLM's only (SGLang's are not read: see agg_spec) */
                int k = agg_spec(v[cSRC], v[cM], v[cS], v[cP], v[cB], v[cBV], (int)isl, (int)osl, tp * dp, ep, dp, conc);
                if (k > 0) r->wl.spec_tokens = k, r->wl.spec_accepted = mtp_accepted(k);
                if (use_mnt) recipe_max_tokens(&r->wl, v[cM], v[cSRC], v[cS], r->src, dp, conc, k);
                recipe_moe_backend(&r->wl, v[cM], v[cSRC], v[cS], v[cP], r->src, dp, conc, k);
                recipe_eager_ctx(&r->wl, v[cM], v[cSRC], v[cS], v[cP], r->src, conc, k);
                trt_eager_ctx(&r->wl, v[cM], v[cSRC], v[cS], v[cP], r->src, conc, k);
            } else if (!strcmp(v[cB], "sglang")) {
                r->wl.recv_interval = sglang_recv_interval(v[cSRC], v[cM], v[cS], v[cP], (int)isl, (int)osl, tp * dp, conc);
                r->wl.mem_fraction = script_value(&SMEM, v[cSRC], v[cM], v[cS], v[cP], (int)isl, (int)osl, tp * dp, conc);
                r->wl.mixed_chunk = gap_mixed_chunk(v[cSRC], v[cBV]);
                r->wl.ep = sglang_ep_moe(v[cSRC], v[cM], v[cS], v[cP], (int)isl, (int)osl, tp, dp, ep, conc);
                sglang_agg_mtp(&r->wl, v[cSRC], v[cM], v[cS], v[cP], v[cB], v[cBV], (int)isl, (int)osl, tp * dp, dp, conc);
            }
            r->wl.fixed_lengths = gap_fixed_lengths(v[cSRC]);
            r->y[T_TTFT] = ttft;
            r->y[T_TPOT] = tpot;
            if (clients_not_recorded(v[cB], v[cM], v[cS], v[cSRC]))
                nSeen++, refuse("the run's clients are not in the row (InferenceMAX's H100 vLLM script, 2025-11-21 to "
                                "12-08: 512 clients, max-num-seqs = its CONC)");
            else if (imax_multinode_agg(v[cSRC], v[cS], v[cMode]))
                nSeen++, refuse("an InferenceMAX GB200 run recorded as aggregated: InferenceX runs GB200 only multi-node "
                                "disaggregated; tp is its GPUs in all, no workers");
            else if (predict_row(r, v[cM], dev))
                nR++;
            if (gap_twin) r->src = SRC_GAP; /* read as its twin, labelled as its file */
        } else {
            /* a prefill worker (TTFT) and a decode worker (TPOT): two rows.
             * 1,328 of the 1,602 runs (the InferenceMAX-style dumps) give
             * no worker counts nor decode batch: every client is put on one
             * worker of each kind, which overstates the per-worker load
             * where the run had several (reported apart below) */
            int unknown = !*v[cPW] || !*v[cDW];
            /* the recipe of a blank-count run (recipe_match): its worker
             * counts, layouts, decode cap and MTP replace the blanks */
            const recipe_t *rp = NULL;
            recipe_t rc;
            int mtp_k = -1, rm_last = RM_NOKEY, label_off = 0;
            if (unknown && nREC) {
                const int lay[4] = {I(v[cPTP]), I(v[cPEP]), I(v[cDTP]), I(v[cDEP])};
                int m = recipe_match(v[cSRC], v[cS], v[cP], v[cB], (int)isl, (int)osl, lay, &rc, &mtp_k);
                rm_count[m]++, rm_last = m, label_off = rm_label_seen;
                if (m == RM_ONE || m == RM_AGREE) rp = &rc;
                else recipe_miss_line(m, v[cSRC], v[cS], v[cP], v[cB], (int)isl, (int)osl, lay);
                /* h233: entries differing in MTP only, the run read by its pair (--mtp-pair 1) */
                if (rp && mtp_k == -1 && mtp_pair_on) mtp_k = mtp_pair_k(v, tc, cTO, rc.alt_k);
            }
            /* h165: unsettled by the recipes, the run's own db-dump record */
            const twin_t *tw = unknown && !rp ? twin_of(v, tc, cTO, tf, tw_count) : NULL;
            if (rp && (tw = recipe_twin_check(rp, v, tc, cTO, tf))) rp = NULL, mtp_k = -1;
            if (label_off) rm_label_end[rp ? (rm_label_look == 3) : tw ? 2 : 3]++;
            if (tw) {
                tw_from[rm_last]++;
                for (int i = 0; i < TW_NF; i++) v[tf[i]] = (char *)tw->f[i];
                unknown = 0;
            }
            row_t *r = new_row("silicon", v[cS], v[cB]);
            r->workers_unknown = rp ? 2 : tw ? 3 : unknown;
            r->src = src_of(v[cSRC]);
            r->gap_fixed = strstr(v[cSRC], "gap-analysis/data/") != NULL;
            int tp = I(v[cPTP]), dp = I(v[cPDP]), pep = I(v[cPEP]);
            /* the wide-EP reading of the decode worker below, for the
             * prefill worker of the same dumps (same blank field) */
            if (unknown && !rp && dp == 1 && tp > 1 && pep > 1) dp = tp, tp = 1, pep = dp;
            /* h190: the layout every fitting entry agrees on (the counts stay
             * one of each, as for any run the recipes leave unsettled) */
            const recipe_t *lq = unknown && !rp && !tw && rm_lay_ok == 1 ? &rm_lay_e : NULL;
            rm_lay_used += lq != NULL;
            if (lq) tp = lq->pdp ? 1 : lq->ptp, dp = lq->pdp ? lq->ptp : 1, pep = lq->pep > 0 ? lq->pep : 1;
            /* the recipe says it: dp-attn over the worker's tp GPUs */
            if (rp) tp = rp->pdp ? 1 : rp->ptp, dp = rp->pdp ? rp->ptp : 1, pep = rp->pep > 0 ? rp->pep : 1;
            /* h216: counts in the data, EP 1, the srt-slurm recipe of the run's date sets ep-size */
            if (!rp && !unknown && pep <= 1 && !strcmp(v[cB], "sglang")) {
                char meas[16], conc[16], gpu[32];
                src_field(v[cSRC], "measured=", meas, sizeof meas);
                src_field(v[cSRC], "silicon_concurrency=", conc, sizeof conc);
                recipe_gpu(v[cS], gpu, sizeof gpu);
                const int w[4] = {I(v[cPW]), tp * dp, I(v[cDW]), I(v[cDTP]) * I(v[cDDP])};
                int e = srt_ep_of(meas, gpu, v[cP], (int)isl, (int)osl, atoi(conc), w);
                if (e > 1) pep = e, srt_ep_count++;
            }
            int pw = rp ? rp->pw : I(v[cPW]);
            /* h220: an ambiguous run's counts from the entries it fits */
            int amb = unknown && !rp && !tw && rm_namb > 0 && amb_mode;
            if (amb) pw = amb_median(rm_amb_pw), amb_count++;
            /* the clients (decode batch x decode workers x attention DP)
             * share the prefill workers */
            int64_t clients = (int64_t)I(v[cDBS]) * I(v[cDW]) * I(v[cDDP]);
            const char *sc = strstr(v[cSRC], "silicon_concurrency=");
            if (sc && atoll(sc + 20) > 0) clients = atoll(sc + 20);
            r->wl = (dlp_llm_workload){.batch = 1, .seq = isl, .gen_tokens = osl, .quant = q, .kv_dtype = kvq, .n_gpus = tp * dp,
                                       .concurrency = (clients + pw - 1) / pw, .ep = pep,
                                       .attn_dp = dp,
                                       .phase = DLP_LLM_PREFILL_ONLY};
            r->wl.sglang_a2a_none = sglang_a2a_none_of(v[cS], v[cP], v[cB], pep, dp, 0);
            r->redundant = rp ? rp->red_p : 0;
            if (!strcmp(v[cB], "trtllm")) trt_eager_ctx(&r->wl, v[cM], v[cSRC], v[cS], v[cP], r->src, 0, 0);
            if (rp && trt_steps_on()) snprintf(r->recipe, sizeof r->recipe, "%s", rp->recipe);
            if (rp && (trt_ctx_sim_on || trt_ctx_mv_on) && !strcmp(rp->engine, "trtllm")) trt_ctx_of(r, rp->recipe, pw, dp, isl);
            if (rp && !strcmp(rp->engine, "sglang") &&
                (r->wl.chunk_tokens = sglang_chunk_of(rp->recipe, pw)) > 0)
                sglang_chunk_count++;
            if (rp && !strcmp(rp->engine, "sglang") &&
                (r->wl.max_prefill_tokens = sglang_max_prefill_of(rp->recipe, pw)) > 0)
                sglang_max_prefill_count++;
            r->y[T_TTFT] = ttft;
            row_t *pfr = NULL; /* the prefill worker's row, for the slot wait */
            if (predict_row(r, v[cM], dev)) pfr = r, nR++;
            r = new_row("silicon", v[cS], v[cB]);
            r->workers_unknown = rp ? 2 : tw ? 3 : unknown;
            r->src = src_of(v[cSRC]);
            tp = I(v[cDTP]);
            dp = I(v[cDDP]);
            int dw = rp ? rp->dw : I(v[cDW]), dbs = rp ? rp->batch : atoi(v[cDBS]);
            if (amb) dw = amb_median(rm_amb_dw);
            if (rp) tp = rp->ddp ? 1 : rp->dtp, dp = rp->ddp ? rp->dtp : 1;
            /* the clients share the decode workers; decode_batch_size (or
             * the recipe's batch) is the engine's cap per rank (often blank) */
            int64_t per_dw = (clients + dw - 1) / dw;
            if (dbs > 0 && per_dw > (int64_t)dbs * dp) per_dw = (int64_t)dbs * dp;
            int dep = rp ? (rp->dep > 0 ? rp->dep : 1) : I(v[cDEP]);
            /* The InferenceMAX-style dumps (no worker counts) leave the
             * decode attention-DP size blank and give tp_size as the
             * worker's GPU count: SGLang (--tp N --enable-dp-attention) and
             * TensorRT-LLM (tp_size N, enable_attention_dp) take attention
             * DP as a flag over all N GPUs.  Where the experts are split
             * (moe_ep > 1) the worker is read as that wide-EP layout: every
             * GPU an attention rank with its own share of the clients and
             * the experts spread over all N; pure-TP workers (moe_ep 1)
             * stay TP.  Reading them as TP N made every rank read the whole
             * batch's MLA cache (2-7x the measured TPOT at 256+ clients). */
            if (unknown && !rp && dp == 1 && tp > 1 && dep > 1) dp = tp, tp = 1, dep = dp;
            if (lq) tp = lq->ddp ? 1 : lq->dtp, dp = lq->ddp ? lq->dtp : 1, dep = lq->dep > 0 ? lq->dep : 1;
            /* The same dumps' decode workers on 12-72 GPUs with moe_ep 1
             * (SGLang and TensorRT-LLM DeepSeek-R1 on GB200/GB300 racks,
             * gpt-oss): TP over 20, 28, 36 or 72 GPUs cannot split 128 (or
             * 64) heads, so no engine ran them so; the one layout those GPU
             * counts run is attention DP over all of them (each GPU its
             * own sequences and all heads), the experts' matrices sliced
             * over the worker (moe_tp = GPUs) as the blank EP says */
            if (unknown && !rp && dp == 1 && tp > 1 && dep == 1 && heads_of(v[cM]) % tp) dp = tp, tp = 1;
            r->wl = (dlp_llm_workload){.batch = 1, .seq = isl, .gen_tokens = osl, .quant = q, .kv_dtype = kvq, .n_gpus = tp * dp,
                                       .concurrency = per_dw, .ep = dep, .attn_dp = dp,
                                       .phase = DLP_LLM_DECODE_ONLY};
            r->wl.sglang_a2a_none = sglang_a2a_none_of(v[cS], v[cP], v[cB], dep, dp, 1);
            /* the recipe's MTP, K drafts at the documented acceptance */
            r->spec_read = rp ? mtp_k : 0;
            if (rp) mtp_k = recipe_mtp_scored(rp->engine, mtp_k);
            r->spec_k = rp ? mtp_k : 0;
            if (rp && mtp_k > 0) r->wl.spec_tokens = mtp_k, r->wl.spec_accepted = mtp_accepted(mtp_k);
            /* the recipe's redundant experts: TensorRT-LLM's slots, SGLang's count */
            if (rp) r->wl.expert_slots = rp->slots_d, r->redundant = rp->red_d;
            /* the recipe's decode MoE backend (h197) */
            if (rp && !no_moe_backend && !strcmp(rp->engine, "trtllm") && decode_trtllm_gen_of(rp->recipe) &&
                dec_moe_scope(v[cS], dep))
                r->wl.moe_trtllm_gen = 1, moe_dec_count++;
            /* h197: a run with counts in the data, its entries' decode MoE backend */
            if (!rp && !unknown && nREC && !no_moe_backend && !strcmp(v[cB], "trtllm") &&
                dec_moe_scope(v[cS], dep)) {
                const int w[8] = {I(v[cPW]), I(v[cPTP]) * I(v[cPDP]), I(v[cPEP]), I(v[cPDP]),
                                  I(v[cDW]), I(v[cDTP]) * I(v[cDDP]), I(v[cDEP]), I(v[cDDP])};
                int cap;
                if (data_recipe_cap(v[cSRC], v[cM], v[cS], v[cP], v[cB], (int)isl, (int)osl, w, &cap) < DC_NOLAYOUT &&
                    dc_gen == 1)
                    r->wl.moe_trtllm_gen = 1, moe_dec_count++;
            }
            r->y[T_TPOT] = tpot;
            if (predict_row(r, v[cM], dev)) {
                nR++;
                if (pfr) adp_rank_queue(pfr, r);
                if (pfr) trt_ctx_queue(pfr, r);
                if (pfr) trt_ctx_mv_row(pfr, r);
                /* counts in the data or from the recipe, and the decode cap:
                 * the client's TTFT from both workers; rows with unknown
                 * counts stay the prefill worker's own */
                if (pfr && !(unknown && !rp) && dbs > 0) compose_slot_wait(pfr, r, clients, (int64_t)dw * dbs * dp, dw);
                /* SGLang recipes: the cap from the yaml (h144), the same loop */
                else if (pfr && rp && dbs == 0 && rp->cap_d > 0)
                    compose_slot_wait(pfr, r, clients, (int64_t)dw * rp->cap_d, dw);
                if (pfr && !unknown && nREC) {
                    const int w[8] = {I(v[cPW]), I(v[cPTP]) * I(v[cPDP]), I(v[cPEP]), I(v[cPDP]),
                                      I(v[cDW]), I(v[cDTP]) * I(v[cDDP]), I(v[cDEP]), I(v[cDDP])};
                    int cap, m = data_recipe_cap(v[cSRC], v[cM], v[cS], v[cP], v[cB], (int)isl, (int)osl, w, &cap);
                    data_cap_wait(pfr, r, m, clients, (int64_t)w[4] * cap, w[4]);
                }
                if (pfr) trtllm_gen_poll(pfr, r, clients, dw);
            }
        }
#undef I
    }
    fclose(f);
}

/* ML.ENERGY leaderboard v2 LLM rows: vLLM 0.5.4 (its synchronous engine:
 * --engine vllm-v0) with every request submitted at once and max_num_seqs =
 * the max batch size.  Prompt lengths are not in the data.  Chat: 500
 * first human turns of ShareGPT with the model's chat template; the
 * data's own average batch pins them down where the cache is full:
 * Llama-3.1-8B on H100 ran 976 sequences at max batch 1,024, in about 54
 * GB of cache at 128 KiB per token, so 422 tokens live per sequence =
 * prompt + half of the 482 generated: about 180 prompt tokens; we use 200.
 * Code: HumanEval+ prompts (a function signature and docstring, ~130
 * tokens): 150. */
#define LB_PROMPT_CHAT 200
#define LB_PROMPT_CODE 150
/* The runs' vLLM servers took --gpu-memory-utilization 0.95 (ml-energy/benchmark,
 * benchmark/llm_text_generation/{chat,code}/scripts/benchmark_one_datapoint.py,
 * with --enable-chunked-prefill False and --max-model-len 4096), not vLLM's
 * default 0.9: the cache, and so the sequences that fit, is theirs. */
#define LB_MEM_FRACTION 0.95
static void load_leaderboard(const char *root) {
    static char line[8192], hl[8192];
    char *h[64], *v[64];
    int nh;
    FILE *f = csv_open(root, "leaderboard-v2/DERIVED_csv/all_runs_flat.csv", hl, (int)sizeof hl, h, 64, &nh);
    int cT = csv_col(h, nh, "task"), cM = csv_col(h, nh, "Model"), cG = csv_col(h, nh, "GPU"), cE = csv_col(h, nh, "Energy/req (J)"),
        cO = csv_col(h, nh, "Avg Output Tokens"), cB = csv_col(h, nh, "Max BS (reqs)"), cP = csv_col(h, nh, "TP"),
        cK = csv_col(h, nh, "Token tput (tok/s)"), cTP = csv_col(h, nh, "Avg TPOT (s)");
    while (fgets(line, sizeof line, f) && nR + 1 < MAXR) {
        if (csv_split(line, v, 64) < nh) continue;
        if (strncmp(v[cT], "llm_text_generation/", 20)) continue;
        int64_t B = atoll(v[cB]), tp = atoll(v[cP]);
        double gen = atof(v[cO]), en = atof(v[cE]), tput = atof(v[cK]), tpot = atof(v[cTP]);
        if (B < 1 || tp < 1 || !(gen > 0) || !(en > 0) || !(tput > 0)) continue;
        row_t *r = new_row("leaderboard", v[cG], "vllm");
        int code = strstr(v[cT], "/code") != NULL;
        r->wl = (dlp_llm_workload){.batch = 1, .seq = code ? LB_PROMPT_CODE : LB_PROMPT_CHAT,
                                   .gen_tokens = (int64_t)llround(gen), .quant = DLP_QT_BF16, .n_gpus = (int)tp,
                                   .concurrency = B, .engine = DLP_LLM_ENGINE_VLLM_V0, .mem_fraction = LB_MEM_FRACTION};
        r->y[T_ENERGY] = en;
        r->y[T_TPUT] = tput;
        if (tpot > 0) r->y[T_TPOT] = tpot * 1e3;
        /* the GPU column is the device's name ("NVIDIA H100 80GB HBM3") */
        const dlp_device *d = dlp_devdb_find(db, v[cG]);
        if (predict_row(r, v[cM], d ? d->id : v[cG])) nR++;
    }
    fclose(f);
}

/* ---- scoring ---------------------------------------------------------------- */

typedef struct {
    double mape, acc10;
    int n;
} score_t;

static score_t score(int t, const double *pred, const char *set, int group_kind, int group) {
    score_t s = {0, 0, 0};
    for (int i = 0; i < nR; i++) {
        const row_t *r = &R[i];
        if (set && strcmp(r->set, set)) continue;
        if (group_kind == 1 && r->dev != group) continue;
        if (group_kind == 2 && r->fam != group) continue;
        if (group_kind == 3 && r->wl.phase != group) continue;
        /* 4: disaggregated workers whose counts the data gives (group 0),
         * nobody gives (1) or the InferenceMAX recipe gives (2) */
        if (group_kind == 4 && (r->wl.phase == DLP_LLM_AGG || r->workers_unknown != group)) continue;
        /* 5: aggregated rows of one data source */
        if (group_kind == 5 && (r->wl.phase != DLP_LLM_AGG || r->src != group)) continue;
        /* 6: one framework, 7: one GPU count (infbench) */
        if (group_kind == 6 && r->fw != group) continue;
        if (group_kind == 7 && r->wl.n_gpus != group) continue;
        if (!isfinite(r->y[t]) || !isfinite(pred[i]) || pred[i] <= 0) continue;
        double e = fabs(pred[i] - r->y[t]) / r->y[t];
        s.mape += e;
        s.acc10 += e <= 0.10;
        s.n++;
    }
    if (s.n) {
        s.mape *= 100.0 / s.n;
        s.acc10 *= 100.0 / s.n;
    }
    return s;
}

/* Out-of-fold corrected predictions for target t over rows of `set`:
 * split 0 = 5-fold, 1 = leave-one-GPU-out, 2 = leave-one-family-out. */
static void oof(int t, const char *set, int split_kind, double *out) {
    int *idx = malloc(sizeof(int) * (size_t)nR);
    int n = 0;
    for (int i = 0; i < nR; i++) {
        out[i] = NAN;
        if (!strcmp(R[i].set, set) && isfinite(R[i].y[t]) && R[i].a[t] > 0) idx[n++] = i;
    }
    if (n < 20) {
        free(idx);
        return;
    }
    float *x = malloc(sizeof(float) * (size_t)n * DLP_LLM_SERVE_NFEAT), *y = malloc(sizeof(float) * (size_t)n);
    int *grp = malloc(sizeof(int) * (size_t)n);
    for (int k = 0; k < n; k++) {
        const row_t *r = &R[idx[k]];
        memcpy(x + (size_t)k * DLP_LLM_SERVE_NFEAT, r->x, sizeof r->x);
        y[k] = (float)log(r->y[t] / r->a[t]);
        grp[k] = split_kind == 1 ? r->dev : split_kind == 2 ? r->fam : -1;
    }
    dlp_xgb_params p = {.n_estimators = 300, .learning_rate = 0.05, .max_depth = 6, .subsample = 0.8,
                        .nthread = 2, .seed = 1, .log_target = 0};
    double *o = malloc(sizeof(double) * (size_t)n);
    dlp_error e = {0};
    if (dlp_xgb_cv(x, y, n, DLP_LLM_SERVE_NFEAT, &p, 5, 7, split_kind ? grp : NULL, o, &e) == DLP_OK) {
        double lim = log(DLP_LLM_SERVE_MAX_FACTOR);
        for (int k = 0; k < n; k++) {
            double c = o[k];
            if (!isfinite(c)) continue;
            if (c > lim) c = lim;
            if (c < -lim) c = -lim;
            out[idx[k]] = R[idx[k]].a[t] * exp(c);
        }
    } else {
        fprintf(stderr, "xgb cv: %s\n", e.msg);
    }
    free(o);
    free(idx);
    free(x);
    free(y);
    free(grp);
}

static int analytic_only; /* --analytic-only: no out-of-fold trees (minutes of CPU) */
static const char *split_family; /* --split FAMILY: the family's rows by group */
static int lowload;              /* --lowload: the low-load TTFT's slope and gap */

/* ---- the vllm-v0 engine's CPU time per step, fitted ---------------------- */

/* Solves the n x n system A x = A[.][n] in place (Gauss-Jordan, partial
 * pivoting); x all 0 when singular. */
static void solve_n(int n, double A[][4], double *x) {
    for (int j = 0; j < n; j++) {
        int piv = j;
        for (int k = j + 1; k < n; k++)
            if (fabs(A[k][j]) > fabs(A[piv][j])) piv = k;
        for (int k = 0; k <= n; k++) {
            double tmp = A[j][k];
            A[j][k] = A[piv][k], A[piv][k] = tmp;
        }
        if (A[j][j] == 0) {
            for (int k = 0; k < n; k++) x[k] = 0;
            return;
        }
        for (int k = 0; k < n; k++) {
            if (k == j) continue;
            double f = A[k][j] / A[j][j];
            for (int l = 0; l <= n; l++) A[k][l] -= f * A[j][l];
        }
    }
    for (int j = 0; j < n; j++) x[j] = A[j][n] / A[j][j];
}

/* The vllm-v0 engine's CPU time in a step: c[0] fixed + c[1] x running +
 * c[2] x (GPUs - 1) (the step's inputs handed to each further worker
 * process).  Least squares over leaderboard rows whose group differs from
 * `skip` (kind 1 GPU, 2 family; kind 0 all), relative errors weighted
 * equally (divide by the measured TPOT).  The GPU part is the analytic TPOT
 * less the engine time the library put in, so the fit does not depend on
 * the constants compiled in. */
static void engine_fit(int kind, int skip, double c[3]) {
    double A[3][4] = {{0}};
    for (int i = 0; i < nR; i++) {
        const row_t *r = &R[i];
        if (strcmp(r->set, "leaderboard") || !isfinite(r->y[T_TPOT]) || !(r->a[T_TPOT] > 0)) continue;
        if ((kind == 1 && r->dev == skip) || (kind == 2 && r->fam == skip)) continue;
        double w = 1.0 / r->y[T_TPOT], u[3] = {w, w * r->running, w * (r->wl.n_gpus > 1 ? r->wl.n_gpus - 1 : 0)};
        double t = w * (r->y[T_TPOT] - (r->a[T_TPOT] - r->ovh_ms));
        for (int j = 0; j < 3; j++) {
            for (int k = 0; k < 3; k++) A[j][k] += u[j] * u[k];
            A[j][3] += u[j] * t;
        }
    }
    solve_n(3, A, c);
}

static double engine_at(const row_t *r, const double c[3]) {
    return c[0] + c[1] * r->running + c[2] * (r->wl.n_gpus > 1 ? r->wl.n_gpus - 1 : 0);
}

/* TPOT MAPE of the refit engine on the held-out groups (each group
 * predicted by constants fitted without it); kind 0: in-sample. */
static double engine_heldout(int kind, int ngroups) {
    double err = 0;
    int n = 0;
    for (int g = 0; g < (kind ? ngroups : 1); g++) {
        double c[3];
        engine_fit(kind, kind ? g : -1, c);
        for (int i = 0; i < nR; i++) {
            const row_t *r = &R[i];
            if (strcmp(r->set, "leaderboard") || !isfinite(r->y[T_TPOT]) || !(r->a[T_TPOT] > 0)) continue;
            if ((kind == 1 && r->dev != g) || (kind == 2 && r->fam != g)) continue;
            double p = r->a[T_TPOT] - r->ovh_ms + engine_at(r, c);
            err += fabs(p - r->y[T_TPOT]) / r->y[T_TPOT];
            n++;
        }
    }
    return n ? 100.0 * err / n : NAN;
}

/* ---- the serving power shares, fitted ------------------------------------ */

/* Measured power per GPU of a leaderboard row: energy per request x
 * requests/s over the GPUs. */
static double lb_power(const row_t *r) {
    return r->y[T_ENERGY] * r->y[T_TPUT] / (double)r->wl.gen_tokens / (double)(r->wl.n_gpus > 0 ? r->wl.n_gpus : 1);
}

/* Least squares (relative) of power / TDP = f + a um + b uc over the
 * leaderboard rows outside group `skip`: 3 x 3 normal equations. */
static void power_fit(int kind, int skip, double co[3]) {
    double A[3][4] = {{0}};
    for (int i = 0; i < nR; i++) {
        const row_t *r = &R[i];
        if (strcmp(r->set, "leaderboard") || !isfinite(r->y[T_ENERGY]) || !(r->tdp > 0)) continue;
        if ((kind == 1 && r->dev == skip) || (kind == 2 && r->fam == skip)) continue;
        double y = lb_power(r) / r->tdp, w = 1.0 / y, u[3] = {w, w * r->um, w * r->uc};
        for (int j = 0; j < 3; j++) {
            for (int k = 0; k < 3; k++) A[j][k] += u[j] * u[k];
            A[j][3] += u[j] * w * y;
        }
    }
    solve_n(3, A, co);
}

/* The floor alone, with the shares held at physical priors pm, pc (HBM
 * streaming at full bandwidth: the memory's pJ/bit plus the SMs' loads,
 * about 0.45 of the way from the floor to TDP; dense tensor-core math
 * 0.75): P / TDP = f + (1 - f) s, s = pm um + pc uc, so y - s = f (1 - s),
 * weighted least squares in f.  Returned as co[] of power_fit's form. */
static void power_fit_floor(int kind, int skip, double pm, double pc, double co[3]) {
    double num = 0, den = 0;
    for (int i = 0; i < nR; i++) {
        const row_t *r = &R[i];
        if (strcmp(r->set, "leaderboard") || !isfinite(r->y[T_ENERGY]) || !(r->tdp > 0)) continue;
        if ((kind == 1 && r->dev == skip) || (kind == 2 && r->fam == skip)) continue;
        double y = lb_power(r) / r->tdp, sh = fmin(1.0, pm * r->um + pc * r->uc), w = 1.0 / (y * y);
        num += w * (y - sh) * (1 - sh);
        den += w * (1 - sh) * (1 - sh);
    }
    double f = den > 0 ? num / den : 0;
    co[0] = f, co[1] = (1 - f) * pm, co[2] = (1 - f) * pc;
}

static int power_floor_only; /* power_heldout: fit the floor alone */

/* Energy-per-request MAPE with the refit power on held-out groups (the
 * analytic energy scaled by refit power over the power it had). */
static double power_heldout(int kind, int ngroups) {
    double err = 0;
    int n = 0;
    for (int g = 0; g < (kind ? ngroups : 1); g++) {
        double co[3];
        if (power_floor_only) power_fit_floor(kind, kind ? g : -1, 0.45, 0.75, co);
        else power_fit(kind, kind ? g : -1, co);
        for (int i = 0; i < nR; i++) {
            const row_t *r = &R[i];
            if (strcmp(r->set, "leaderboard") || !isfinite(r->y[T_ENERGY]) || !(r->pw > 0)) continue;
            if ((kind == 1 && r->dev != g) || (kind == 2 && r->fam != g)) continue;
            double pw = fmin(1.0, co[0] + co[1] * r->um + co[2] * r->uc) * r->tdp;
            double e = r->a[T_ENERGY] * pw / r->pw;
            err += fabs(e - r->y[T_ENERGY]) / r->y[T_ENERGY];
            n++;
        }
    }
    return n ? 100.0 * err / n : NAN;
}

/* A physical power model, fitted beside the compiled-in one (not compiled
 * in: docs/llm.md says why): per GPU
 * P = f TDP + P_mem + (TDP - f TDP) min(1, m uc), P_mem the DRAM's draw at
 * the row's bytes/s (pJ/bit from power.c, not fitted).  Least squares
 * (relative) of (P - P_mem) / TDP = f + b uc over the leaderboard rows
 * outside group `skip`; m = b / (1 - f).  co = {f, m}. */
static int phys_free_m; /* power_fit: m unbounded (a diagnostic) */

static void phys_fit(int kind, int skip, double co[2]) {
    double A[2][4] = {{0}};
    for (int i = 0; i < nR; i++) {
        const row_t *r = &R[i];
        if (strcmp(r->set, "leaderboard") || !isfinite(r->y[T_ENERGY]) || !(r->tdp > 0)) continue;
        if ((kind == 1 && r->dev == skip) || (kind == 2 && r->fam == skip)) continue;
        double p = lb_power(r) / r->tdp, y = p - r->memw / r->tdp, w = 1.0 / p, u[2] = {w, w * r->uc};
        for (int j = 0; j < 2; j++) {
            for (int k = 0; k < 2; k++) A[j][k] += u[j] * u[k];
            A[j][2] += u[j] * w * y;
        }
    }
    double x[2] = {0};
    solve_n(2, A, x);
    co[0] = x[0], co[1] = x[0] < 1 ? x[1] / (1 - x[0]) : 0;
    if (phys_free_m || co[1] <= 1) return;
    /* no share past 1: full datasheet math at most reaches TDP (a board
     * reaches its limit below the dense peak, never above it), so m is held
     * at 1 and the floor alone refit: (P - P_mem) / TDP - s = f (1 - s),
     * s = min(1, uc) */
    double num = 0, den = 0;
    for (int i = 0; i < nR; i++) {
        const row_t *r = &R[i];
        if (strcmp(r->set, "leaderboard") || !isfinite(r->y[T_ENERGY]) || !(r->tdp > 0)) continue;
        if ((kind == 1 && r->dev == skip) || (kind == 2 && r->fam == skip)) continue;
        double p = lb_power(r) / r->tdp, sh = fmin(1.0, r->uc), w = 1.0 / (p * p);
        num += w * (p - r->memw / r->tdp - sh) * (1 - sh);
        den += w * (1 - sh) * (1 - sh);
    }
    co[0] = den > 0 ? num / den : 0, co[1] = 1;
}

static double phys_at(const row_t *r, const double co[2]) {
    return fmin(r->tdp, co[0] * r->tdp + r->memw + (1 - co[0]) * r->tdp * fmin(1.0, co[1] * r->uc));
}

/* Energy-per-request MAPE with the refit power on held-out groups (the
 * analytic energy scaled by refit power over the power it had). */
static double phys_heldout(int kind, int ngroups) {
    double err = 0;
    int n = 0;
    for (int g = 0; g < (kind ? ngroups : 1); g++) {
        double co[2];
        phys_fit(kind, kind ? g : -1, co);
        for (int i = 0; i < nR; i++) {
            const row_t *r = &R[i];
            if (strcmp(r->set, "leaderboard") || !isfinite(r->y[T_ENERGY]) || !(r->pw > 0)) continue;
            if ((kind == 1 && r->dev != g) || (kind == 2 && r->fam != g)) continue;
            double e = r->a[T_ENERGY] * phys_at(r, co) / r->pw;
            err += fabs(e - r->y[T_ENERGY]) / r->y[T_ENERGY];
            n++;
        }
    }
    return n ? 100.0 * err / n : NAN;
}

/* Leaderboard rows in group g of `kind` (1: GPU, else family). */
static int leaderboard_rows_in(int kind, int g) {
    int rows = 0;
    for (int i = 0; i < nR; i++)
        rows += !strcmp(R[i].set, "leaderboard") && (kind == 1 ? R[i].dev : R[i].fam) == g;
    return rows;
}

/* The refit constants per held-out group (their spread is what LOGO/LOFO
 * tests). */
static void phys_groups(int kind, int ngroups, char names[][48]) {
    int shown = 0;
    for (int g = 0; g < ngroups; g++) {
        if (!leaderboard_rows_in(kind, g)) continue;   /* only groups with leaderboard rows */
        double co[2];
        phys_fit(kind, g, co);
        printf("%s%s: f %.3f m %.2f", shown++ ? ", " : "  refit without ", names[g], co[0], co[1]);
    }
    printf("\n");
}

/* The vllm-v0 power refit without each group, as llm_serve.c's P_V0_*
 * form: floor, then the shares of the rest. */
static void power_groups(int kind, int ngroups, char names[][48]) {
    int shown = 0;
    for (int g = 0; g < ngroups; g++) {
        if (!leaderboard_rows_in(kind, g)) continue;   /* only groups with leaderboard rows */
        double co[3];
        power_fit(kind, g, co);
        double rest = 1.0 - co[0];
        printf("%s%s: %.3f / %.2f / %.2f", shown++ ? ", " : "  refit without ", names[g], co[0],
               rest > 0 ? co[1] / rest : NAN, rest > 0 ? co[2] / rest : NAN);
    }
    printf("\n");
}

/* ---- the front end's time in TTFT, fitted -------------------------------- */

/* The front-end constant's group: the engine that ran the row (vLLM >= 0.6
 * is DLP_LLM_ENGINE_MODERN), one constant each as llm_serve.c compiles. */
enum { FE_VLLM, FE_TRTLLM, FE_SGLANG, FE_N };
static int fe_group(const row_t *r) {
    return r->wl.engine == DLP_LLM_ENGINE_SGLANG ? FE_SGLANG : r->wl.engine == DLP_LLM_ENGINE_TRTLLM ? FE_TRTLLM : FE_VLLM;
}

static int agg_ttft_row(const row_t *r) {
    return !strcmp(r->set, "silicon") && r->wl.phase == DLP_LLM_AGG && isfinite(r->y[T_TTFT]) && r->a[T_TTFT] > 0;
}

/* Weighted least squares (relative) of the constant TTFT = (engine part) +
 * t over silicon aggregated rows of front-end group fe (-1: all) outside
 * group `skip`. */
static double req_fit(int kind, int skip, int fe) {
    double num = 0, den = 0;
    for (int i = 0; i < nR; i++) {
        const row_t *r = &R[i];
        if (!agg_ttft_row(r) || (fe >= 0 && fe_group(r) != fe)) continue;
        if ((kind == 1 && r->dev == skip) || (kind == 2 && r->fam == skip)) continue;
        double w = 1.0 / (r->y[T_TTFT] * r->y[T_TTFT]);
        num += w * (r->y[T_TTFT] - (r->a[T_TTFT] - r->req_ms));
        den += w;
    }
    return den > 0 ? num / den : 0;
}

/* Aggregated TTFT MAPE with the front end refit without each held-out
 * group (kind 0: in-sample), pooled (per_engine 0) or one per engine. */
static double req_heldout(int kind, int ngroups, int per_engine) {
    double err = 0;
    int n = 0;
    for (int g = 0; g < (kind ? ngroups : 1); g++) {
        double t[FE_N], all = req_fit(kind, kind ? g : -1, -1);
        for (int e = 0; e < FE_N; e++) t[e] = per_engine ? req_fit(kind, kind ? g : -1, e) : all;
        for (int i = 0; i < nR; i++) {
            const row_t *r = &R[i];
            if (!agg_ttft_row(r)) continue;
            if ((kind == 1 && r->dev != g) || (kind == 2 && r->fam != g)) continue;
            double p = r->a[T_TTFT] - r->req_ms + t[fe_group(r)];
            err += fabs(p - r->y[T_TTFT]) / r->y[T_TTFT];
            n++;
        }
    }
    return n ? 100.0 * err / n : NAN;
}

/* ---- the first wave's burst weight in TTFT, fitted ----------------------- */

/* The weights compiled in (llm_serve.c BURST_FIT_*): decode-first engines
 * (vLLM, TensorRT-LLM) and prefill-first (SGLang). */
static const double burst_compiled[2] = {0.14, 0.17};

static int burst_row(const row_t *r, int cls) {
    return !strcmp(r->set, "silicon") && r->wl.phase == DLP_LLM_AGG && isfinite(r->y[T_TTFT]) &&
           r->a[T_TTFT] > 0 && (r->wl.engine == DLP_LLM_ENGINE_SGLANG && !r->wl.mixed_chunk) == cls;
}

/* The row's TTFT had its burst taken with weight w instead of the compiled
 * one (the clients beyond the running batch and the prefill floor are left
 * as they were: a first-order refit) */
static double burst_pred(const row_t *r, int cls, double w) {
    if (r->lockstep) return r->a[T_TTFT]; /* every wave a burst: no weight */
    return r->a[T_TTFT] + (w - burst_compiled[cls]) * (r->tb_ms - r->ts_ms);
}

/* The weight (0..1 by 0.01) of least TTFT MAPE over class cls's rows
 * outside group `skip` (kind 1 GPU, 2 family), and that MAPE held out. */
static double burst_fit(int cls, int kind, int skip) {
    double best = 0, best_e = INFINITY;
    for (int k = 0; k <= 100; k++) {
        double w = k / 100.0, e = 0;
        for (int i = 0; i < nR; i++) {
            const row_t *r = &R[i];
            if (!burst_row(r, cls) || (kind == 1 && r->dev == skip) || (kind == 2 && r->fam == skip)) continue;
            e += fabs(burst_pred(r, cls, w) / r->y[T_TTFT] - 1.0);
        }
        if (e < best_e) best_e = e, best = w;
    }
    return best;
}

static double burst_heldout(int kind, int ngroups, double *wmin, double *wmax) {
    double err = 0;
    int n = 0;
    for (int cls = 0; cls < 2; cls++)
        for (int g = 0; g < (kind ? ngroups : 1); g++) {
            double w = burst_fit(cls, kind, kind ? g : -1);
            int used = 0;
            for (int i = 0; i < nR; i++) {
                const row_t *r = &R[i];
                if (!burst_row(r, cls) || (kind == 1 && r->dev != g) || (kind == 2 && r->fam != g)) continue;
                err += fabs(burst_pred(r, cls, w) / r->y[T_TTFT] - 1.0);
                n++, used = 1;
            }
            if (used && w < wmin[cls]) wmin[cls] = w;
            if (used && w > wmax[cls]) wmax[cls] = w;
        }
    return n ? 100.0 * err / n : NAN;
}

static void burst_report(void) {
    double w0 = burst_fit(0, 0, -1), w1 = burst_fit(1, 0, -1);
    double lo[2] = {1, 1}, hi[2] = {0, 0}, glo[2] = {1, 1}, ghi[2] = {0, 0}, flo[2] = {1, 1}, fhi[2] = {0, 0};
    double in = burst_heldout(0, 0, lo, hi), gpu = burst_heldout(1, ndev, glo, ghi),
           fam = burst_heldout(2, nfam, flo, fhi);
    if (!isfinite(in)) return;
    printf("\nfirst wave's burst weight in the closed-loop TTFT, fitted on the silicon aggregated TTFTs: decode-first "
           "(vLLM, TensorRT-LLM) %.2f, prefill-first (SGLang) %.2f (compiled in: %.2f, %.2f, llm_serve.c BURST_FIT_*)\n"
           "aggregated TTFT MAPE with the refit weights: in-sample %.1f %%, leave-one-GPU-out %.1f %% (weights "
           "%.2f-%.2f, %.2f-%.2f), leave-one-family-out %.1f %% (weights %.2f-%.2f, %.2f-%.2f)\n",
           w0, w1, burst_compiled[0], burst_compiled[1], in, gpu, glo[0], ghi[0], glo[1], ghi[1], fam, flo[0],
           fhi[0], flo[1], fhi[1]);
}

static void engine_report(void) {
    burst_report();
    if (req_fit(0, -1, -1) != 0) {
        printf("\nfront-end time per request in TTFT, fitted per engine on the silicon aggregated TTFTs: vLLM %.1f, "
               "TensorRT-LLM %.1f, SGLang %.1f ms (compiled in: llm_serve.c REQ_FIT_VLLM_MS, _TRTLLM_MS, _SGLANG_MS); "
               "one constant for all: %.1f ms (REQ_FIT_MS, vllm-v0's)\n", req_fit(0, -1, FE_VLLM),
               req_fit(0, -1, FE_TRTLLM), req_fit(0, -1, FE_SGLANG), req_fit(0, -1, -1));
        printf("aggregated TTFT MAPE with the refit front ends: per engine in-sample %.1f %%, leave-one-GPU-out "
               "%.1f %%, leave-one-family-out %.1f %%; one constant %.1f / %.1f / %.1f %%\n", req_heldout(0, 0, 1),
               req_heldout(1, ndev, 1), req_heldout(2, nfam, 1), req_heldout(0, 0, 0), req_heldout(1, ndev, 0),
               req_heldout(2, nfam, 0));
    }
    double pc[3];
    power_fit(0, -1, pc);
    if (pc[0] > 0 && pc[0] < 1) {
        printf("\nserving power per GPU fitted on the leaderboard: TDP x (%.3f + %.3f mem_util + %.3f math_util), i.e. "
               "floor %.3f, mem %.3f, math %.3f (compiled in for vllm-v0 only: llm_serve.c P_V0_FLOOR, P_V0_MEM, "
               "P_V0_MATH; on a modern engine, busy all the time, the shares past 1 would reach TDP)\nenergy/request "
               "MAPE with the refit power: in-sample %.1f %%, leave-one-GPU-out %.1f %%, leave-one-family-out %.1f %%\n",
               pc[0], pc[1], pc[2], pc[0], pc[1] / (1 - pc[0]), pc[2] / (1 - pc[0]), power_heldout(0, 0),
               power_heldout(1, ndev), power_heldout(2, nfam));
        power_groups(1, ndev, devname);
        power_groups(2, nfam, famname);
    }
    power_fit_floor(0, -1, 0.45, 0.75, pc);
    power_floor_only = 1;
    printf("the floor alone with the shares at their physical priors (P_MEM 0.45, P_MATH 0.75): P_FLOOR %.3f "
           "(llm_serve.c's P_FIT_FLOOR, the modern engines' floor, is this fit as it came out before the prompt steps drew power; not refit since, so that no modern answer moves); energy/request MAPE in-sample %.1f %%, leave-one-GPU-out %.1f %%, leave-one-family-out %.1f %%\n", pc[0],
           power_heldout(0, 0), power_heldout(1, ndev), power_heldout(2, nfam));
    power_floor_only = 0;
    double pp[2];
    phys_fit(0, -1, pp);
    printf("\nphysical form (not compiled in, docs/llm.md): per GPU f TDP + P_mem + (1 - f) TDP "
           "min(1, m math_util), P_mem = DRAM pJ/bit x 8 x bytes/s (power.c, not fitted), m <= 1: f %.3f, m %.2f"
           "\nenergy/request MAPE with the refit power: in-sample %.1f %%, "
           "leave-one-GPU-out %.1f %%, leave-one-family-out %.1f %%\n",
           pp[0], pp[1], phys_heldout(0, 0), phys_heldout(1, ndev), phys_heldout(2, nfam));
    phys_groups(1, ndev, devname);
    phys_groups(2, nfam, famname);
    phys_free_m = 1;
    phys_fit(0, -1, pp);
    printf("with m unbounded (a share past 1: TDP reached at 1/m of the dense peak; not compiled in): f %.3f, m %.2f, "
           "energy/request MAPE in-sample %.1f %%, leave-one-GPU-out %.1f %%, leave-one-family-out %.1f %%\n", pp[0],
           pp[1], phys_heldout(0, 0), phys_heldout(1, ndev), phys_heldout(2, nfam));
    phys_free_m = 0;
    double c[3];
    engine_fit(0, -1, c);
    if (c[0] == 0 && c[1] == 0) return;
    printf("\nvllm-v0 engine CPU time per step, fitted on the leaderboard TPOTs: %.2f ms + %.4f ms x running + "
           "%.2f ms x (GPUs - 1) (compiled in: see llm_serve.c ENGINE_CPU)\n", c[0], c[1], c[2]);
    printf("TPOT MAPE with the refit engine: in-sample %.1f %%, leave-one-GPU-out %.1f %%, leave-one-family-out "
           "%.1f %%\n", engine_heldout(0, 0), engine_heldout(1, ndev), engine_heldout(2, nfam));
}

static void report(const char *set) {
    int n = 0;
    for (int i = 0; i < nR; i++) n += !strcmp(R[i].set, set);
    if (!n) return;
    printf("\n### %s: %d rows answered\n\n", set, n);
    printf("| target | rows | analytic MAPE | Acc(10%%) | corrected 5-fold | LOGO (GPU) | LOFO (family) |\n");
    printf("|---|---:|---:|---:|---:|---:|---:|\n");
    double *a = malloc(sizeof(double) * (size_t)nR), *p = malloc(sizeof(double) * (size_t)nR);
    for (int t = 0; t < T_COUNT; t++) {
        for (int i = 0; i < nR; i++) a[i] = R[i].a[t];
        score_t sa = score(t, a, set, 0, 0);
        if (!sa.n) continue;
        printf("| %s | %d | %.1f %% | %.0f %% |", tname[t], sa.n, sa.mape, sa.acc10);
        for (int k = 0; k < 3; k++) {
            if (analytic_only) {
                printf(" - |");
                continue;
            }
            oof(t, set, k, p);
            score_t sc = score(t, p, set, 0, 0);
            if (sc.n) printf(" %.1f %% (Acc10 %.0f %%, n %d) |", sc.mape, sc.acc10, sc.n);
            else printf(" - |");
        }
        printf("\n");
    }
    /* per GPU and per family, analytic */
    for (int t = 0; t < T_COUNT; t++) {
        for (int i = 0; i < nR; i++) a[i] = R[i].a[t];
        if (!score(t, a, set, 0, 0).n) continue;
        printf("\n%s analytic by GPU:", tname[t]);
        for (int g = 0; g < ndev; g++) {
            score_t s = score(t, a, set, 1, g);
            if (s.n) printf("  %s %.1f %% (%d)", devname[g], s.mape, s.n);
        }
        printf("\n%s analytic by phase:", tname[t]);
        static const char *const phn[3] = {"aggregated", "prefill worker", "decode worker"};
        for (int g = 0; g < 3; g++) {
            score_t s = score(t, a, set, 3, g);
            if (s.n) printf("  %s %.1f %% (%d)", phn[g], s.mape, s.n);
        }
        static const char *const wkn[4] = {"in the data",
                                           "still unknown (one of each assumed; ambiguous runs the entries' median, h220)",
                                           "from the InferenceMAX recipe", "from the run's db-dump twin (h165)"};
        for (int g = 0, any = 0; g < 4; g++) {
            score_t s = score(t, a, set, 4, g);
            if (!s.n) continue;
            if (!any++) printf("\n%s analytic, disaggregated workers:", tname[t]);
            printf("  worker counts %s %.1f %% (%d)", wkn[g], s.mape, s.n);
        }
        for (int g = 1; g < SRC_N; g++) {
            score_t s = score(t, a, set, 5, g);
            if (!s.n) continue;
            if (g == 1 || !score(t, a, set, 5, g - 1).n) printf("\n%s analytic, aggregated rows by data source:", tname[t]);
            printf("  %s %.1f %% (%d)", src_name[g], s.mape, s.n);
        }
        printf("\n%s analytic by family:", tname[t]);
        for (int g = 0; g < nfam; g++) {
            score_t s = score(t, a, set, 2, g);
            if (s.n) printf("  %s %.1f %% (%d)", famname[g], s.mape, s.n);
        }
        printf("\n");
    }
    free(a);
    free(p);
}

/* What MTP would do to the silicon decode workers, as a diagnostic only:
 * the dumps record no speculative decoding (InferenceMAX ran DeepSeek-R1
 * both with and without MTP and the dump lost the field), so no score
 * above sets it.  Each DeepSeek decode-worker row is re-predicted with
 * DeepSeek-V3's own MTP module (one draft token; "the acceptance rate of
 * the second token prediction ranges between 85% and 90%", DeepSeek-V3
 * technical report, arXiv 2412.19437, sec. 5.4.3: 0.85 accepted) and the TPOT MAPE printed
 * beside the plain one, per backend and worker-count kind.  If MTP is what
 * the TensorRT-LLM rows ran, their error falls; if not, it rises. */
static void mtp_report(void) {
    static const char *const be[2] = {"trtllm", "sglang"};
    int any = 0;
    for (int b = 0; b < 2; b++)
        for (int u = 0; u < 3; u++) {
            double e0 = 0, e1 = 0;
            int n = 0;
            for (int i = 0; i < nR; i++) {
                const row_t *r = &R[i];
                if (strcmp(r->set, "silicon") || r->wl.phase != DLP_LLM_DECODE_ONLY || strcmp(r->backend, be[b]) ||
                    r->workers_unknown != u || r->wl.spec_tokens || strcmp(r->family, "deepseek") || !(r->a[T_TPOT] > 0))
                    continue;
                dlp_llm_config c;
                dlp_error e = {0};
                const dlp_device *d = dlp_devdb_find(db, devname[r->dev]);
                if (!d || dlp_llm_catalogue_get(r->model, &c, &e)) continue;
                dlp_llm_workload wl = r->wl;
                wl.spec_tokens = 1, wl.spec_accepted = 0.85;
                dlp_llm_prediction p;
                if (dlp_llm_predict(&c, d, db, &wl, &ANALYTIC, &p, &e)) continue;
                e0 += fabs(r->a[T_TPOT] - r->y[T_TPOT]) / r->y[T_TPOT];
                e1 += fabs(p.tpot_ms - r->y[T_TPOT]) / r->y[T_TPOT];
                n++;
            }
            if (!n) continue;
            if (!any++)
                printf("\nMTP diagnostic (not scored: the rows do not record it), DeepSeek decode workers' TPOT MAPE "
                       "plain -> with MTP 1 draft, 0.85 accepted:");
            printf("  %s, worker counts %s: %.1f -> %.1f %% (%d)", be[b], u == 2 ? "from the recipe (no MTP in it)" : u ? "not in the data" : "in the data",
                   100 * e0 / n, 100 * e1 / n, n);
        }
    if (any) printf("\n");
}

/* The recipes' part (h129): how the blank-count runs matched, and the
 * decode workers whose recipe says MTP scored with and without it. */
static double median_of(double *v, int n);
static void imax_report(void) {
    int runs = 0;
    if (vep_count[0] + vep_count[1] + vep_count[2] + vep_count[3])
        printf("\nvLLM expert-parallel rows (tp = attention DP = T, moe_ep T x T) read as T GPUs (vllm_ep_layout; %s):"
               " dp-attn %d, TP %d, entries disagree %d, no entry %d (both read as TP)\n",
               vep_path, vep_count[0], vep_count[1], vep_count[2], vep_count[3]);
    if (vsc_count + mnbt_count)
        printf("\nvLLM rows read from their InferenceX script (vllm_scripts; %s): TP rows whose script set "
               "--enable-expert-parallel for every entry (`-ge 1`), read as EP = TP: %d; its "
               "--max-num-batched-tokens as the step's budget: %d\n",
               vsc_path, vsc_count, mnbt_count);
    if (ungraphed_count[0] + ungraphed_count[1])
        printf("  their prompt steps against the script's captured CUDA-graph sizes (h224; --max-cudagraph-capture-size, "
               "else %d): past them, un-graphed at %.3f ms a layer, %d; within, %d\n",
               VLLM_CG_DEFAULT, vllm_ungraphed_ms, ungraphed_count[0], ungraphed_count[1]);
    if (spa_count[0] + spa_count[1] + spa_count[2] + spa_count[3])
        printf("\naggregated TensorRT-LLM rows read against InferenceX's single-node entries (agg_spec; %s): "
               "MTP %d (drafts from the script, A(K) at p %.3f), plain %d, MTP and plain entries on the same image %d "
               "(plain), no entry %d (plain)\n",
               spa_path, spa_count[0], IMAX_MTP_P, spa_count[1], spa_count[2], spa_count[3]);
    if (clr_count[0] + clr_count[1] + clr_count[2])
        printf("  of the rows with both entries, the keys their day's sweeps ran (changelog_runs, h188; %s%s): "
               "the MTP key alone %d (read MTP), the plain key alone %d (plain), both or neither %d (plain)\n",
               clr_path, no_changelog ? "; off: --no-changelog" : "", clr_count[0], clr_count[1], clr_count[2]);
    if (moe_gen_count || no_moe_backend)
        printf("\naggregated TensorRT-LLM DeepSeek fp8 B200 rows whose script set moe_config backend TRTLLM (the "
               "trtllm-gen fused MoE; recipe_moe_backend, h188%s): %d\n",
               no_moe_backend ? "; off: --no-moe-backend" : "", moe_gen_count);
    if (eager_launch_us > 0)
        printf("\naggregated TensorRT-LLM rows whose context iterations ran eagerly, priced as their forward's "
               "kernel launches (recipe_eager_launch, h213): %d, given --eager-launch-us %g (the last row: %lld "
               "launches); piecewise, left: %d\n",
               eager_ctx_count[0], eager_launch_us, (long long)eager_launch_last, eager_ctx_count[1]);
    else if (eager_ctx_count[0] + eager_ctx_count[1])
        printf("\naggregated TensorRT-LLM DeepSeek rows whose context iterations ran eagerly (no piecewise CUDA graph "
               "in the script; recipe_eager_ctx, h208): %d, given --eager-ctx-ms %g; piecewise, left: %d\n",
               eager_ctx_count[0], eager_ctx_ms, eager_ctx_count[1]);
    if (trt_eager_count[0] + trt_eager_count[1] + trt_eager_count[2])
        printf("\nTensorRT-LLM rows whose context steps run eagerly, at %g ms a layer (trt_eager_ctx, h226; "
               "--trt-eager-layer-ms, --trt-eager-scope %d): aggregated DeepSeek %d, prefill workers %d, "
               "other aggregated %d\n",
               trt_eager_layer_ms, trt_eager_scope, trt_eager_count[0], trt_eager_count[1], trt_eager_count[2]);
    if (moe_dec_count)
        printf("\nTensorRT-LLM decode-worker rows at EP 1 whose recipe sets decode moe_config backend TRTLLM "
               "(tools/inferencemax/moe_backend.csv, h197; --decode-moe-backend %s): %d\n",
               dec_moe_gpu, moe_dec_count);
    if (nGenPoll || no_gen_poll)
        printf("\nTensorRT-LLM prefill-worker rows given the generation loop's poll before the first token "
               "(trtllm_gen_first_token_ms, h175%s): %d, of which an MLA latent sent to several TP ranks: %d\n",
               no_gen_poll ? "; off: --no-gen-poll" : "", nGenPoll, nMlaCopies);
    if (trt_ctx_sim_on)
        printf("\nTensorRT-LLM recipe context workers played request by request (--trt-ctx-sim, trt_ctx_sim_ms, h200): "
               "%d rows\n", trt_ctx_count);
    if (sgl_batch_on)
        printf("\nSGLang prefill workers played with their prefill batches and sa-bench's first wave (--sgl-batch-sim %d, "
               "sgl_batch_sim_ms, h235): %d rows\n", sgl_batch_on, sgl_batch_count);

    if (trt_ctx_mv_on)
        printf("\nTensorRT-LLM recipe context workers as a mean-value queue under load (--trt-ctx-mv, trt_ctx_mv_ms, "
               "h237): %d rows\n", trt_ctx_mv_count);
    if (adp_q_count + played_q_count)
        printf("\nSGLang prefill-worker rows queued in the closed loop (adp_rank_queue): open M/D/1 a rank (h174) %d,"
               " played with the run's clients (h186; DLP_NO_PLAYED_QUEUE=1: off) %d\n", adp_q_count, played_q_count);
    if (sglang_chunk_count)
        printf("\nSGLang prefill-worker rows given their recipe's chunked-prefill-size (sglang_chunk_of, h183;"
               " DLP_NO_RECIPE_CHUNK=1: off): %d; their max-prefill-tokens (sglang_max_prefill_of, h186;"
               " DLP_NO_MAX_PREFILL=1: off): %d\n", sglang_chunk_count, sglang_max_prefill_count);
        printf("SGLang prefill workers with counts in the data read as EP 1, the srt-slurm recipe of the run's date"
               " sets ep-size (h216, tools/inferencemax/srt_prefill_ep.csv; DLP_NO_SRT_EP=1: off): %d\n",
               srt_ep_count);
    printf("SGLang attention-DP workers with EP read as --moe-a2a-backend none, the tokens gathered to every GPU (h219,"
           " sglang_a2a_none_of; B200 / H200, GB200 / GB300 fp4 prefill; --a2a-none none: off): prefill workers %d,"
           " decode workers %d\n", a2a_none_count[0], a2a_none_count[1]);
    if (mnt_count)
        printf("\naggregated TensorRT-LLM DeepSeek rows given their script's --max_num_tokens (recipe_max_tokens, h169;"
               " --no-max-tokens: off): %d\n", mnt_count);
    if (gap_fixed_count[0] + gap_fixed_count[1]) {
        int mixed = 0, lock = 0;
        for (int i = 0; i < nR; i++) mixed += R[i].wl.mixed_chunk, lock += R[i].lockstep;
        printf("\ngap-analysis aggregated rows (gap_fixed_lengths, gap_mixed_chunk; h168): fixed lengths %d, spread %d; "
               "SGLang with mixed chunks %d; waves in lockstep %d\n",
               gap_fixed_count[0], gap_fixed_count[1], mixed, lock);
    }
    if (RCV.count[0] + RCV.count[1] + RCV.count[2])
        printf("\nSGLang aggregated rows' --scheduler-recv-interval (sglang_recv_interval; %s): set by the run's script %d,"
               " 1 (the script's or SGLang's default) %d, the script's rule unresolved %d (read as 1)\n",
               RCV.path, RCV.count[0], RCV.count[1], RCV.count[2]);
    if (gt_count[0] + gt_count[1] + gt_count[2])
        printf("gap-analysis.csv aggregated rows read as their InferenceMAX twin (gap_twin_of, h239%s): %d, no twin %d, "
               "twins that disagree %d\n", no_gap_twin ? "; off: --no-gap-twin" : "", gt_count[0], gt_count[1], gt_count[2]);
    if (SMEM.count[0] + SMEM.count[1] + SMEM.count[2])
        printf("SGLang aggregated rows' --mem-fraction-static (script_value; %s): the run's script's %d, no entry %d, "
               "the script's rule unresolved %d (the library's default for both)\n",
               SMEM.path, SMEM.count[0], SMEM.count[1], SMEM.count[2]);
    if (EPM.count[0] + EPM.count[1] + EPM.count[2])
        printf("SGLang aggregated TP rows recorded with moe_ep 1 (sglang_ep_moe; %s): the run's script passed "
               "--enable-ep-moe, read as EP = TP %d; not %d\n",
               EPM.path, EPM.count[0], EPM.count[1] + EPM.count[2]);
    if (nAdpBal)
        printf("TensorRT-LLM DeepSeek aggregated rows with attention DP under the scripts' balance (recipe_adp_balance; "
               "timeout_iters 60%s): %d\n", no_adp_balance ? ", off: --no-adp-balance" : "", nAdpBal);
    if (nAdpBalGptoss)
        printf("TensorRT-LLM gpt-oss B200 aggregated rows with attention DP under the script's balance at TensorRT-LLM's "
               "default timeout (gptoss_adp_balance, h189; timeout_iters 50): %d\n", nAdpBalGptoss);
    printf("gpt-oss InferenceX TensorRT-LLM layouts as run (gptoss_h200_trt / gptoss_square4, h238; --gptoss-trt-layout "
           "%d): H200 rows given ep = TP %d, 2 x 2 records read as 2 GPUs %d, H200 KV cache 16-bit %d\n",
           gptoss_trt_layout, nGptossLayout[0], nGptossLayout[1], nGptossLayout[2]);
    printf("InferenceMAX 2 x 2 records outside gpt-oss read as 2 GPUs (imax_square4, h244; --imax-square4 %d): %d\n",
           imax_square4_on, nImaxSquare4);
    printf("SGLang GLM-5 Hopper rows read with the 16-bit KV cache SGLang's DSA default gives there (glm5_sgl_hopper_kv, "
           "h242; --sgl-dsa-kv %d): %d\n", sgl_dsa_kv, nSglDsaKv);
    for (int m = 0; m < RM_N; m++) runs += rm_count[m];
    if (!runs) return;
    printf("\nInferenceMAX recipes (%s, %d entries): %d disaggregated runs without worker counts:\n", recipes_path, nREC,
           runs);
    for (int m = 0; m < RM_N; m++)
        printf("  %5d  %s\n", rm_count[m], rm_name[m]);
    if (rm_amb_mtp) printf("         of the ambiguous: %d where the entries differ in MTP too\n", rm_amb_mtp);
    if (rm_lay_used)
        printf("         ambiguous runs whose fitting entries agree on every worker's layout (tp, ep, dp-attn), read with it "
               "(h190): %d\n", rm_lay_used);
    printf("         ambiguous runs given the %s median of their fitting entries' worker counts, each side (h220; "
           "--amb-workers 0: one of each): %d\n", amb_mode == 1 ? "lower" : "upper", amb_mode ? amb_count : 0);
    if (cl_count[0] + cl_count[1] + cl_count[2])
        printf("         looks whose fitting entries differ in config key, narrowed to the keys the run's merge ran "
               "(%s, h190): %d; its keys kept all %d; no merge at the stamp %d\n", changelog_path, cl_count[0],
               cl_count[1], cl_count[2]);
    if (rm_meas[RM_ONE] + rm_meas[RM_AGREE])
        printf("         settled by the yaml in force on the run's measured= date (h142): %d (one entry %d, same workers %d;"
               " were ambiguous %d, no layout %d, no key %d on the dump's date)\n",
               rm_meas[RM_ONE] + rm_meas[RM_AGREE], rm_meas[RM_ONE], rm_meas[RM_AGREE], rm_meas_from[RM_SEVERAL],
               rm_meas_from[RM_NOLAYOUT], rm_meas_from[RM_NOKEY]);
    if (rm_srt[RM_ONE] + rm_srt[RM_AGREE])
        printf("         settled by the entries re-keyed on their srt-slurm recipe's benchmark clients, measured= date (h162):"
               " %d (one entry %d, same workers %d; were ambiguous %d, no layout %d, no key %d)\n",
               rm_srt[RM_ONE] + rm_srt[RM_AGREE], rm_srt[RM_ONE], rm_srt[RM_AGREE], rm_srt_from[RM_SEVERAL],
               rm_srt_from[RM_NOLAYOUT], rm_srt_from[RM_NOKEY]);
    if (rm_srt_open)
        printf("         left open: %d whose measured date's yaml has an entry with the clients and layout whose recipe"
               " srt-slurm lacks (it may be the run)\n", rm_srt_open);
    if (rm_label_end[0] + rm_label_end[1] + rm_label_end[2] + rm_label_end[3])
        printf("         runs with an entry set aside, its srt-slurm recipe benchmarking other clients than its label on "
               "the measured= date (h166): %d; then settled by another yaml entry %d, by the srt-slurm look %d, by a "
               "db-dump twin %d, unknown %d (of which %d: the srt look that day fits other workers)\n",
               rm_label_end[0] + rm_label_end[1] + rm_label_end[2] + rm_label_end[3], rm_label_end[0], rm_label_end[1],
               rm_label_end[2], rm_label_end[3], rm_label_clash);
    if (tw_count[0] + tw_count[1] + tw_count[2])
        printf("         unsettled by the recipes, read from the run's own db-dump record (h165: same GPU, precision, "
               "engine, isl, osl, clients, measured day, TTFT and TPOT): %d; twin's GPUs differ %d, twins disagree %d "
               "(left unknown); settled were ambiguous %d, no layout %d, no key %d\n", tw_count[0], tw_count[1],
               tw_count[2], tw_from[RM_SEVERAL], tw_from[RM_NOLAYOUT], tw_from[RM_NOKEY]);
    if (tw_check[0] + tw_check[1])
        printf("         runs the recipes settled that have a db-dump twin: worker counts and GPUs agree %d, differ %d (the "
               "twin's used)\n",
               tw_check[0], tw_check[1]);
    if (pair_count[0] + pair_count[1])
        printf("         runs whose entries differ in MTP only, read by their pair (h233: two runs of the key in the "
               "file, one with a db-dump twin; --mtp-pair 0 off): plain (the twin) %d, MTP (the other) %d\n",
               pair_count[0], pair_count[1]);
    /* the decode rows per MTP state (scored as the recipe says), and the
     * MTP rows re-predicted plain */
    static const char *const be[3] = {"trtllm", "sglang", "vllm"};
    static double rm[MAXR], r0[MAXR]; /* predicted / measured of the MTP rows: with, plain */
    for (int b = 0; b < 3; b++) {
        double e[3] = {0}, e0 = 0;
        int n[3] = {0};
        for (int i = 0; i < nR; i++) {
            const row_t *r = &R[i];
            if (strcmp(r->set, "silicon") || r->wl.phase != DLP_LLM_DECODE_ONLY || r->workers_unknown != 2 ||
                strcmp(r->backend, be[b]) || !(r->a[T_TPOT] > 0))
                continue;
            int k = r->spec_k > 0 ? 2 : r->spec_k < 0 ? 1 : 0;
            double err = fabs(r->a[T_TPOT] - r->y[T_TPOT]) / r->y[T_TPOT];
            e[k] += err, n[k]++;
            if (k != 2) continue;
            rm[n[2] - 1] = r->a[T_TPOT] / r->y[T_TPOT], r0[n[2] - 1] = rm[n[2] - 1];
            dlp_llm_config c;
            dlp_error er = {0};
            dlp_llm_workload wl = r->wl;
            wl.spec_tokens = 0, wl.spec_accepted = 0;
            dlp_llm_prediction p;
            const dlp_device *d = dlp_devdb_find(db, devname[r->dev]);
            if (d && !dlp_llm_catalogue_get(r->model, &c, &er) && !dlp_llm_predict(&c, d, db, &wl, &ANALYTIC, &p, &er))
                e0 += fabs(p.tpot_ms - r->y[T_TPOT]) / r->y[T_TPOT], r0[n[2] - 1] = p.tpot_ms / r->y[T_TPOT];
            else
                e0 += err; /* no plain answer: counted as the MTP one */
        }
        if (!n[0] && !n[1] && !n[2]) continue;
        printf("  %s decode workers, counts from the recipe, TPOT MAPE: no MTP %.1f %% (%d); MTP unknown (entries "
               "differ, or K not in the recipe name; scored plain) %.1f %% (%d)",
               be[b], n[0] ? 100 * e[0] / n[0] : NAN, n[0], n[1] ? 100 * e[1] / n[1] : NAN, n[1]);
        if (n[2])
            printf("; MTP K drafts at A(K) = p + ... + p^K, p %.3f: %.1f %% (%d), the same rows plain %.1f %%", IMAX_MTP_P,
                   100 * e[2] / n[2], n[2], 100 * e0 / n[2]);
        printf("\n");
        if (n[2])
            printf("    the MTP rows' median predicted / measured TPOT: with MTP %.2f, plain %.2f\n", median_of(rm, n[2]),
                   median_of(r0, n[2]));
    }
}

/* The decode-slot wait (h140, compose_slot_wait): the prefill workers with
 * worker counts and a decode cap, their TTFT MAPE and median predicted /
 * measured as the worker alone and as composed, by where the counts came
 * from, all of them and those whose clients outnumber the decode slots. */
/* One report line over n rows: each row's TTFT before (b) and after (a)
 * against the measured (y), MAPE and median predicted / measured. */
static double BA_B[MAXR], BA_A[MAXR], BA_Y[MAXR];
static void before_after_line(const char *what, int n) {
    static double m0[MAXR], m1[MAXR];
    double e0 = 0, e1 = 0;
    if (!n) return;
    for (int i = 0; i < n; i++) {
        e0 += fabs(BA_B[i] - BA_Y[i]) / BA_Y[i];
        e1 += fabs(BA_A[i] - BA_Y[i]) / BA_Y[i];
        m0[i] = BA_B[i] / BA_Y[i], m1[i] = BA_A[i] / BA_Y[i];
    }
    printf("  %-44s %4d rows: MAPE %.1f -> %.1f %%, median predicted / measured %.2f -> %.2f\n", what, n, 100 * e0 / n,
           100 * e1 / n, median_of(m0, n), median_of(m1, n));
}

static void slot_wait_line(const char *what, int src, int over, int fam, const char *be) {
    int n = 0;
    for (int i = 0; i < nR; i++) {
        const row_t *r = &R[i];
        if (strcmp(r->set, "silicon") || r->wl.phase != DLP_LLM_PREFILL_ONLY || !(r->ttft_pw_ms > 0) ||
            r->workers_unknown != src || !(r->y[T_TTFT] > 0) || (over && r->slot_c <= r->slot_s) ||
            (fam >= 0 && r->fam != fam) || (be && strcmp(r->backend, be)))
            continue;
        BA_B[n] = r->ttft_pw_ms, BA_A[n] = r->a[T_TTFT], BA_Y[n++] = r->y[T_TTFT];
    }
    before_after_line(what, n);
}

/* h143: the data-count prefill rows, the data's decode cap -> the recipe's;
 * sel 0 all looked up, 1 those the recipe gave a cap, 2 of them C > S */
static void data_cap_line(const char *what, int sel) {
    int n = 0;
    for (int i = 0; i < nR; i++) {
        const row_t *r = &R[i];
        int capped = r->cap_class == DC_ONE + 1 || r->cap_class == DC_SAME + 1;
        if (!r->cap_class || !(r->y[T_TTFT] > 0) || (sel >= 1 && !capped) || (sel == 2 && r->slot_c <= r->slot_s))
            continue;
        BA_B[n] = r->ttft_data_ms, BA_A[n] = r->a[T_TTFT], BA_Y[n++] = r->y[T_TTFT];
    }
    before_after_line(what, n);
}

static void data_cap_report(void) {
    int any = 0;
    for (int i = 0; i < DC_N; i++) any += dc_count[i];
    if (!any) return;
    printf("\ncounts in the data: the decode cap from the recipe entry the run is (h143; model, GPU, precision, "
           "engine, isl, osl, clients, workers, tp/ep/dp agree), %d runs:\n", any);
    for (int i = 0; i < DC_N; i++) printf("  %-58s %4d\n", dc_name[i], dc_count[i]);
    printf("  TTFT, the data's decode_batch_size as the cap -> the recipe's:\n");
    data_cap_line("all runs looked up", 0);
    data_cap_line("the recipe gives a cap", 1);
    data_cap_line("the recipe gives a cap, clients > slots", 2);
}

/* h164: the same rows, h140's closed form (every output gen long) -> the
 * round-robin run played with sa-bench's output lengths; sel 0 all, 1 C <= S,
 * 2 C > S; be an engine or NULL */
static void rr_sim_line(const char *what, int sel, const char *be) {
    int n = 0;
    for (int i = 0; i < nR; i++) {
        const row_t *r = &R[i];
        if (!(r->ttft_closed_ms > 0) || !(r->y[T_TTFT] > 0) || (sel == 1 && r->slot_c > r->slot_s) ||
            (sel == 2 && r->slot_c <= r->slot_s) || (be && strcmp(r->backend, be)))
            continue;
        BA_B[n] = r->ttft_closed_ms, BA_A[n] = r->a[T_TTFT], BA_Y[n++] = r->y[T_TTFT];
    }
    before_after_line(what, n);
}

static void rr_sim_report(void) {
    printf("  the slot wait's closed form (equal outputs) -> round-robin played with sa-bench's outputs (uniform "
           "[%.1f, 1] x osl, %d x C requests; h164), nothing fitted:\n", SA_RANGE_RATIO, SA_WAVES);
    rr_sim_line("all composed", 0, NULL);
    rr_sim_line("clients <= decode slots", 1, NULL);
    rr_sim_line("clients > decode slots", 2, NULL);
    rr_sim_line("TensorRT-LLM, clients <= slots", 1, "trtllm");
    rr_sim_line("SGLang, clients <= slots", 1, "sglang");
    rr_sim_line("TensorRT-LLM, clients > slots", 2, "trtllm");
    rr_sim_line("SGLang, clients > slots", 2, "sglang");
}

static void slot_wait_report(void) {
    int any = 0;
    for (int i = 0; i < nR && !any; i++) any = R[i].ttft_pw_ms > 0;
    if (!any) return;
    printf("\nprefill workers' TTFT with the wait for a decode slot (closed loop, round-robin: max(prefill TTFT, "
           "(C / S - 1) x decode gen x TPOT), bench/disagg_wait.h; since h164 the run played with sa-bench's output lengths where "
           "the slots split evenly over the decode workers), worker alone -> composed:\n");
    static const char *const srcn[3] = {"counts in the data", "", "counts from the recipe"};
    char b[96];
    for (int src = 0; src <= 2; src += 2) {
        snprintf(b, sizeof b, "%s, all with a decode cap", srcn[src]);
        slot_wait_line(b, src, 0, -1, NULL);
        snprintf(b, sizeof b, "%s, clients > decode slots", srcn[src]);
        slot_wait_line(b, src, 1, -1, NULL);
        for (int f = 0; f < nfam; f++) {
            snprintf(b, sizeof b, "  %s, clients > slots", famname[f]);
            slot_wait_line(b, src, 1, f, NULL);
        }
    }
    /* h144: the SGLang recipe rows, their cap from decode_caps.csv */
    slot_wait_line("SGLang recipes, cap from decode_caps.csv", 2, 0, -1, "sglang");
    slot_wait_line("SGLang recipes, clients > decode slots", 2, 1, -1, "sglang");
    rr_sim_report();
}

/* Where one family's silicon rows miss, as a diagnostic (issue 22): the
 * rows of each phase split by engine, GPU, weight format and clients (1-4,
 * 5-32, 33-128, 129+), each group's median predicted / measured TTFT and
 * TPOT.  A median tells the direction of a bias, which a MAPE hides (an
 * under-prediction counts at most 100 %, an over-prediction without bound). */
static int cmp_dbl(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_of(double *v, int n) {
    if (n < 1) return NAN;
    qsort(v, (size_t)n, sizeof *v, cmp_dbl);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static int conc_bucket(int64_t c) { return c <= 4 ? 0 : c <= 32 ? 1 : c <= 128 ? 2 : 3; }

/* Orders row indices by phase, engine, GPU, weights, clients bucket. */
static int split_cmp(const void *pa, const void *pb) {
    const row_t *a = &R[*(const int *)pa], *b = &R[*(const int *)pb];
    int d = a->wl.phase - b->wl.phase;
    if (!d) d = strcmp(a->backend, b->backend);
    if (!d) d = strcmp(devname[a->dev], devname[b->dev]);
    if (!d) d = strcmp(dlp_quant_name(a->wl.quant), dlp_quant_name(b->wl.quant));
    if (!d) d = conc_bucket(a->wl.concurrency) - conc_bucket(b->wl.concurrency);
    return d;
}

static void split_report(const char *family) {
    static const char *const cb[4] = {"1-4", "5-32", "33-128", "129+"};
    static const char *const phn[3] = {"aggregated", "prefill worker", "decode worker"};
    double *v0 = malloc(sizeof(double) * (size_t)nR), *v1 = malloc(sizeof(double) * (size_t)nR);
    int *ix = malloc(sizeof(int) * (size_t)nR), m = 0;
    if (!v0 || !v1 || !ix) goto out;
    for (int i = 0; i < nR; i++)
        if (!strcmp(R[i].set, "silicon") && !strcmp(R[i].family, family)) ix[m++] = i;
    if (!m) goto out;
    qsort(ix, (size_t)m, sizeof *ix, split_cmp);
    printf("\n%s silicon rows by phase, engine, GPU, weights and clients: median predicted / measured\n\n", family);
    printf("| phase | engine | GPU | weights | clients | rows | TTFT | TPOT |\n|---|---|---|---|---|---:|---:|---:|\n");
    for (int i = 0; i < m;) {
        int j = i, n0 = 0, n1 = 0;
        for (; j < m && !split_cmp(&ix[i], &ix[j]); j++) {
            const row_t *r = &R[ix[j]];
            if (isfinite(r->y[T_TTFT]) && r->a[T_TTFT] > 0) v0[n0++] = r->a[T_TTFT] / r->y[T_TTFT];
            if (isfinite(r->y[T_TPOT]) && r->a[T_TPOT] > 0) v1[n1++] = r->a[T_TPOT] / r->y[T_TPOT];
        }
        const row_t *a = &R[ix[i]];
        printf("| %s | %s | %s | %s | %s | %d |", phn[a->wl.phase], a->backend, devname[a->dev],
               dlp_quant_name(a->wl.quant), cb[conc_bucket(a->wl.concurrency)], j - i);
        if (n0) printf(" %.2f |", median_of(v0, n0));
        else printf(" - |");
        if (n1) printf(" %.2f |\n", median_of(v1, n1));
        else printf(" - |\n");
        i = j;
    }
out:
    free(v0);
    free(v1);
    free(ix);
}

/* The low-load TTFT split into what grows with the prompt and what does not
 * (issue 22): at 1-4 clients a TTFT is about the front end plus one
 * prompt's prefill, so where a setup (family, engine, GPU, weights, GPUs,
 * EP, attention DP, phase, clients) was run at both 1,024- and 8,192-token
 * prompts, the measured difference TTFT(8k) - TTFT(1k) is what 7,168 more
 * prompt tokens cost on that setup, and the predicted difference is our
 * prefill's slope (the front end cancels).  Their ratio says whether the
 * prefill itself is too fast (> 1) or too slow (< 1); the gap at 1k
 * (measured - predicted, ms) is what is missing that does not grow with
 * the prompt.  Medians over the setups of each group. */
typedef struct {
    int i1;                    /* the setup's first 1k row (its key)             */
    double m1, p1, m8, p8;     /* medians at 1k and 8k: measured, predicted (ms) */
} pair_t;

static int same_setup(const row_t *a, const row_t *b) {
    return a->fam == b->fam && a->dev == b->dev && !strcmp(a->backend, b->backend) && a->wl.quant == b->wl.quant &&
           a->wl.n_gpus == b->wl.n_gpus && a->wl.ep == b->wl.ep && a->wl.attn_dp == b->wl.attn_dp &&
           a->wl.phase == b->wl.phase && a->wl.concurrency == b->wl.concurrency;
}

static int lowload_row(const row_t *r) {
    return !strcmp(r->set, "silicon") && r->wl.phase != DLP_LLM_DECODE_ONLY && r->wl.concurrency <= 4 &&
           isfinite(r->y[T_TTFT]) && r->a[T_TTFT] > 0 && (r->wl.seq == 1024 || r->wl.seq == 8192);
}

/* One entry per setup with rows at both lengths (medians over its rows:
 * a setup is often run twice, or at several output lengths). */
static int lowload_pairs(pair_t *pr, double *w) {
    int np = 0;
    for (int i = 0; i < nR; i++) {
        if (!lowload_row(&R[i]) || R[i].wl.seq != 1024) continue;
        int seen = 0;
        for (int k = 0; k < np && !seen; k++) seen = same_setup(&R[pr[k].i1], &R[i]);
        if (seen) continue;
        double v[4];
        for (int q = 0; q < 4; q++) {
            int n = 0;
            for (int j = 0; j < nR; j++)
                if (lowload_row(&R[j]) && R[j].wl.seq == (q < 2 ? 1024 : 8192) && same_setup(&R[i], &R[j]))
                    w[n++] = q % 2 ? R[j].a[T_TTFT] : R[j].y[T_TTFT];
            v[q] = median_of(w, n);
        }
        if (isfinite(v[2])) pr[np++] = (pair_t){i, v[0], v[1], v[2], v[3]};
    }
    return np;
}

static int pair_cmp(const void *pa, const void *pb) {
    const row_t *a = &R[((const pair_t *)pa)->i1], *b = &R[((const pair_t *)pb)->i1];
    int d = strcmp(a->family, b->family);
    if (!d) d = a->wl.phase - b->wl.phase;
    if (!d) d = strcmp(a->backend, b->backend);
    if (!d) d = strcmp(devname[a->dev], devname[b->dev]);
    if (!d) d = strcmp(dlp_quant_name(a->wl.quant), dlp_quant_name(b->wl.quant));
    return d;
}

static void lowload_report(const char *family) {
    pair_t *pr = malloc(sizeof(pair_t) * (size_t)(nR > 0 ? nR : 1));
    double *sl = malloc(sizeof(double) * (size_t)(nR > 0 ? nR : 1)), *gp = malloc(sizeof(double) * (size_t)(nR > 0 ? nR : 1));
    if (!pr || !sl || !gp) goto out;
    int np = lowload_pairs(pr, sl);
    if (!np) goto out;
    qsort(pr, (size_t)np, sizeof *pr, pair_cmp);
    printf("\nlow-load TTFT (1-4 clients), setups run at 1k and 8k prompts: measured / predicted TTFT(8k) - TTFT(1k) "
           "(the prefill's slope; > 1: our prefill too fast) and measured - predicted TTFT at 1k (what does not grow "
           "with the prompt), medians%s%s\n\n", family ? " — " : "", family ? family : "");
    printf("| family | phase | engine | GPU | weights | setups | slope measured / predicted | gap at 1k (ms) |\n"
           "|---|---|---|---|---|---:|---:|---:|\n");
    for (int i = 0; i < np;) {
        int j = i, n = 0;
        for (; j < np && !pair_cmp(&pr[i], &pr[j]); j++) {
            double dp = pr[j].p8 - pr[j].p1;
            sl[n] = dp > 0 ? (pr[j].m8 - pr[j].m1) / dp : NAN;
            gp[n++] = pr[j].m1 - pr[j].p1;
        }
        const row_t *a = &R[pr[i].i1];
        if (!family || !strcmp(a->family, family))
            printf("| %s | %s | %s | %s | %s | %d | %.2f | %.0f |\n", a->family,
                   a->wl.phase == DLP_LLM_AGG ? "aggregated" : "prefill worker", a->backend, devname[a->dev],
                   dlp_quant_name(a->wl.quant), n, median_of(sl, n), median_of(gp, n));
        i = j;
    }
out:
    free(pr);
    free(sl);
    free(gp);
}

/* The disaggregated prefill rows' TTFT against the output length (h123):
 * a prefill worker's own work does not depend on how many tokens the decode
 * side will generate, so where a setup (the same prefill layout, clients
 * and prompt) was run at both 1,024 and 8,192 output tokens, a measured
 * TTFT(8k out) / TTFT(1k out) above 1 is time the client spends waiting on
 * the decode side (a decode slot, the router's choice of worker), which a
 * prefill-only prediction cannot see.  Medians over the setups. */
static int outlen_row(const row_t *r) {
    return !strcmp(r->set, "silicon") && r->wl.phase == DLP_LLM_PREFILL_ONLY && isfinite(r->y[T_TTFT]) &&
           r->a[T_TTFT] > 0 && (r->wl.gen_tokens == 1024 || r->wl.gen_tokens == 8192);
}

static int outlen_pairs(pair_t *pr, double *w) {
    int np = 0;
    for (int i = 0; i < nR; i++) {
        if (!outlen_row(&R[i]) || R[i].wl.gen_tokens != 1024) continue;
        int seen = 0;
        for (int k = 0; k < np && !seen; k++)
            seen = same_setup(&R[pr[k].i1], &R[i]) && R[pr[k].i1].wl.seq == R[i].wl.seq;
        if (seen) continue;
        double v[4];
        for (int q = 0; q < 4; q++) {
            int n = 0;
            for (int j = 0; j < nR; j++)
                if (outlen_row(&R[j]) && R[j].wl.gen_tokens == (q < 2 ? 1024 : 8192) && R[j].wl.seq == R[i].wl.seq &&
                    same_setup(&R[i], &R[j]))
                    w[n++] = q % 2 ? R[j].a[T_TTFT] : R[j].y[T_TTFT];
            v[q] = median_of(w, n);
        }
        if (isfinite(v[2])) pr[np++] = (pair_t){i, v[0], v[1], v[2], v[3]};
    }
    return np;
}

static void outlen_report(const char *family) {
    pair_t *pr = malloc(sizeof(pair_t) * (size_t)(nR > 0 ? nR : 1));
    double *a = malloc(sizeof(double) * (size_t)(nR > 0 ? nR : 1)), *b = malloc(sizeof(double) * (size_t)(nR > 0 ? nR : 1));
    if (!pr || !a || !b) goto out;
    int np = outlen_pairs(pr, a);
    if (!np) goto out;
    qsort(pr, (size_t)np, sizeof *pr, pair_cmp);
    printf("\nprefill workers, setups run at 1k and 8k output tokens (same prompt, clients, layout): TTFT(8k out) / "
           "TTFT(1k out), measured and predicted (a prefill worker's own work does not depend on the output: "
           "measured > 1 is waiting on the decode side), medians%s%s\n\n", family ? " — " : "", family ? family : "");
    printf("| family | engine | GPU | weights | setups | measured ratio | predicted ratio |\n"
           "|---|---|---|---|---:|---:|---:|\n");
    for (int i = 0; i < np;) {
        int j = i, n = 0;
        for (; j < np && !pair_cmp(&pr[i], &pr[j]); j++, n++) {
            a[n] = pr[j].m8 / pr[j].m1;
            b[n] = pr[j].p8 / pr[j].p1;
        }
        const row_t *r = &R[pr[i].i1];
        if (!family || !strcmp(r->family, family))
            printf("| %s | %s | %s | %s | %d | %.2f | %.2f |\n", r->family, r->backend, devname[r->dev],
                   dlp_quant_name(r->wl.quant), n, median_of(a, n), median_of(b, n));
        i = j;
    }
out:
    free(pr);
    free(a);
    free(b);
}

/* ---- LLM-Inference-Bench: offline batches (issue 22) ---------------------- */

/* argonne-lcf/LLM-Inference-Bench (arXiv 2411.00136; ../shared/data, its
 * SOURCE.txt): every row is one offline batch, vLLM's or TensorRT-LLM's
 * generate() over B prompts of L random tokens submitted at once, L tokens
 * generated each (ignore_eos), fp16, tensor parallel over "Num of Hardware"
 * GPUs, timed end to end.  Four kinds of row, each with its own coverage:
 *   IB_ALL    Plots/All_results.csv: the batch's latency (s) and
 *             B (L + L) / latency tokens/s
 *   IB_TTFT   Plots/Fig_22: B = 16 prompts of 1,024 tokens, one output token
 *   IB_ITL    the same line's end_latency is All_results' 1,024 / 1,024 run
 *             (equal to its last digit), so (end - TTFT) / 1,023 per token
 *   IB_POWER  Plots/Fig_16_a_b: one GPU; avg_power is the mean of NVML's
 *             nvmlDeviceGetPowerUsage on GPU 0 over the run, which NVML
 *             returns in milliwatts (the repository's power_utils.py): W =
 *             avg_power / 1000 (A100 222-382 W, H100 363-595 W: under TDP)
 * A row is predicted as `dlperf llm --concurrency B --max-seqs B --prompt L
 * --gen L --dtype fp16 --gpus N --engine E` would, and scored on the library's
 * own fields: e2e_ms, tokens_per_s, ttft_ms, tpot_ms, power_per_gpu_w and
 * energy_j.  Nothing is fitted on these rows. */
enum { IB_ALL = 0, IB_TTFT, IB_ITL, IB_POWER, IB_N };
static const char *const ib_name[IB_N] = {"All_results (e2e latency, tokens/s)", "Fig_22 TTFT", "Fig_22 ITL",
                                          "Fig_16_a_b power, energy"};
static reasons_t ib_reasons[IB_N];
static int ib_seen[IB_N][2], ib_ok[IB_N]; /* rows seen [engine modelled?], answered */
static int ib_floor[IB_N];                /* answered, measured below floor_ms     */
static char fwname[MAXG][48];
static int nfw;

/* The data's hardware names.  A100 is the SXM4 40 GB of ALCF's nodes (as
 * bench_llm.c reads it), H100 the SXM5, GH200 the 96 GB HBM3 superchip
 * (devices.json gh200).  An MI250 card is two GCDs, each its own device to
 * ROCm (devices.json mi250 is one GCD, 64 GiB); the data's "Num of
 * Hardware" counts cards: vLLM/MI250/run-throughput-bench.sh runs
 * --tensor-parallel-size 4 and 8 where the rows say 2 and 4, and Llama-2-70B
 * in fp16 (128.5 GiB of weights) is recorded on "2" MI250s, which two GCDs
 * (128 GiB) cannot hold.  So *per_card = 2 there.
 *
 * "Intel Max 1550" is one stack of an Aurora Max 1550 (devices.json
 * max1550-stack), and its count is stacks: the rows entered All_results on
 * 2024-09-23 (4de4e87), the day vLLM/Max1550/README.md (b814b47) gave the
 * setup that ran them: vLLM v0.5.2 on IPEX 2.3.110+xpu with
 * ZE_FLAT_DEVICE_HIERARCHY=FLAT, in which each stack is its own device
 * (also the driver's default since late 2023, Intel's GPU optimization
 * guide), and its benchmark_latency.py writes --tensor-parallel-size as
 * "Num of Hardware": TP 1 is one XPU device, one stack.  (The README's
 * "single GPU (both tiles)" reads sysmon, which shows memory per card.)
 * "Intel PVC GPU" vLLM rows (Sep 20, 691ffab) have no setup in the
 * repository (vLLM/PVC/README.md was empty; no script ran their batch 128
 * or TP 2 / 4), measure 18.7 s at B 1 for 128 + 128 where Max 1550
 * measures 2.0 s (a ~17 s constant per run that no token count explains),
 * and the authors' later figures swap them for the Max 1550 rows: stack
 * or card cannot be settled, so they stay refused (ib_unmapped), as do
 * Gaudi2 and SN40L (not in the database): NULL. */
static const char *ib_device(const char *hw, int *per_card) {
    static const struct { const char *hw, *id; int gcds; } m[] = {
        {"Nvidia A100 GPU", "a100-40gb", 1}, {"Nvidia H100 GPU", "h100-sxm", 1}, {"Nvidia GH200 GPU", "gh200", 1},
        {"AMD MI250 GPU", "mi250", 2},       {"AMD MI300X GPU", "mi300x", 1}, {"Intel Max 1550", "max1550-stack", 1}};
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++)
        if (!strcmp(hw, m[i].hw)) {
            *per_card = m[i].gcds;
            return m[i].id;
        }
    *per_card = 1;
    return NULL;
}

/* Why a row's hardware has no device (ib_device's comment). */
static const char *ib_unmapped(const char *hw) {
    return !strcmp(hw, "Intel PVC GPU") ? "setup not in the repository, stack or card unknown"
                                        : "device not in the database";
}

/* The engine of a row; -1: not modelled (llama.cpp, DeepSpeed-MII,
 * DeepSpeed on Gaudi2, sambaflow).  Versions from the repository's setup
 * files (@4211f5d): vLLM on GH200 is vllm==0.5.3.post1
 * (vLLM/GH200/run-throughput-bench.sh) and on H100 `pip install vllm` before
 * the first commit (2024-07-29; 0.5.3 was current): vLLM <= 0.5, the
 * vllm-v0 engine.  On MI250 and MI300X `git checkout v0.6.1` (their
 * READMEs), on A100 the 0.6.1-era requirements (torch 2.4, vllm-flash-attn
 * 2.6.1, einops "for Qwen2-VL", new in 0.6.1): vLLM >= 0.6, the modern
 * engine; on Intel Max 1550 `git clone -b v0.5.2` (vLLM/Max1550/README.md,
 * the XPU backend on IPEX): vllm-v0, run eager -- vLLM 0.5's XPUExecutor
 * (vllm/executor/xpu_executor.py, _verify_and_get_model_config) sets
 * enforce_eager, "CUDA graph is not supported on XPU" -- so those rows carry
 * the eager host time per layer (wl.eager, h151; h184).  TensorRT-LLM is 0.11
 * (TensorRT-LLM/H100/requirements.txt).  The
 * AMD rows run through the same serving model on the AMD devices' own peaks
 * and curves: it assumes ROCm's vLLM schedules as CUDA's does and its
 * kernels reach the shares of peak predict's curves give an AMD device. */
static int ib_engine(const char *fw, const char *hw) {
    if (!strcmp(fw, "TensorRT-LLM")) return DLP_LLM_ENGINE_TRTLLM;
    if (strcmp(fw, "vLLM")) return -1;
    return !strcmp(hw, "Nvidia H100 GPU") || !strcmp(hw, "Nvidia GH200 GPU") || !strcmp(hw, "Intel Max 1550")
               ? DLP_LLM_ENGINE_VLLM_V0
               : DLP_LLM_ENGINE_MODERN;
}

/* The tokens vLLM generates for a prompt of `in` and a request of `gen`:
 * its stop check ends a sequence once its length passes max_model_len
 * (seq.get_len() > max_model_len -> FINISHED_LENGTH_CAPPED, ignore_eos or
 * not), max_model_len being the config's positions when none is given, so
 * a prompt that fits generates positions - in + 1.  The 2,048 + 2,048 rows
 * of the 2,048-position models (GH200, vLLM 0.5.3) measure 0.04-0.05 s at
 * B 1 against 6.5-7.4 s for 1,024 + 1,024: a prefill and one token.  The
 * library counts prompt + gen <= positions (the sampled last token needs
 * no position, so it is one stricter): that one run is predicted as a
 * prompt of positions - 1 and one token, one prompt token (0.05 %) short. */
static void ib_vllm_cap(const char *model, int eng, int64_t *in, int64_t *gen) {
    dlp_llm_config c;
    dlp_error e = {0};
    if ((eng != DLP_LLM_ENGINE_VLLM_V0 && eng != DLP_LLM_ENGINE_MODERN) || dlp_llm_catalogue_get(model, &c, &e)) return;
    int64_t M = c.max_position_embeddings;
    if (!(M > 1) || *in > M || *in + *gen <= M) return;
    *gen = M - *in + 1;
    if (*in + *gen > M) *in = M - *gen;
}

/* TensorRT-LLM's batches here are copies of one prompt decoded greedily
 * (h185): the repository's run_power.py (@4211f5d, TensorRT-LLM/{A100,H100,
 * GH200}) builds its batch with generate_input, batch_size copies of one
 * string of max_input_length words "France", and runs ModelRunnerCpp with
 * utils.py's top_k 1; the All_results rows at 1,024 + 1,024 are the power
 * file's runs to the last digit (same latency), so the throughput rows came
 * from that harness.  vLLM's benchmark_throughput.py draws each prompt's
 * token ids at random (np.random.randint) and samples at temperature 1: its
 * requests differ.  The TTFT / ITL figure's harness is not in the
 * repository: left distinct.  --no-same-prompts: h173's reading. */
static int ib_same_off;
static int ib_same_prompts(int sub, int eng) {
    return !ib_same_off && eng == DLP_LLM_ENGINE_TRTLLM && (sub == IB_ALL || sub == IB_POWER);
}

/* Which TensorRT-LLM ran (h206): 0.11.0 from the NVIDIA index on A100 and
 * H100 (TensorRT-LLM/A100/Benchmarking_Throughput/requirements.txt,
 * TensorRT-LLM/H100/requirements.txt @4211f5d), v0.12.0 built from source
 * on GH200 (TensorRT-LLM/GH200/README.MD): the A100 / H100 rows read as 0.11's
 * XQA decode attention (docs/llm.md "h210").  --no-trt-xqa: off. */
static int ib_xqa_off;
static int ib_trt011(const char *hw, int eng) {
    return !ib_xqa_off && eng == DLP_LLM_ENGINE_TRTLLM && (strstr(hw, "A100") || strstr(hw, "H100"));
}

/* Predict one row of kind `sub`; the row (counted in nR) or NULL, the
 * refusal counted in that kind's table. */
static row_t *ib_predict(int sub, const char *hw, const char *fw, const char *model, int n, int64_t in, int64_t gen,
                         int64_t B) {
    int eng = ib_engine(fw, hw), per_card;
    const char *dev = ib_device(hw, &per_card);
    char why[160];
    row_t *r = NULL;
    ib_seen[sub][eng >= 0]++;
    cur_reasons = &ib_reasons[sub];
    if (eng < 0) {
        snprintf(why, sizeof why, "engine not modelled: %s", fw);
        refuse(why);
    } else if (!dev) {
        snprintf(why, sizeof why, "%s: %s", ib_unmapped(hw), hw);
        refuse(why);
    } else if (nR + 1 < MAXR) {
        ib_vllm_cap(model, eng, &in, &gen);
        r = new_row("infbench", hw, fw);
        r->wl = (dlp_llm_workload){.batch = 1, .seq = in, .gen_tokens = gen, .quant = DLP_QT_FP16, .n_gpus = n * per_card,
                                   .concurrency = B, .max_seqs = B, .engine = eng, .offline = 1, /* LLM.generate(), run.py */
                                   .same_prompts = ib_same_prompts(sub, eng), .eager = !strcmp(hw, "Intel Max 1550"),
                                   .trt_xqa_block = ib_trt011(hw, eng)};
        if (predict_row(r, model, dev)) {
            r->fw = intern(fwname, &nfw, fw);
            nR++;
            ib_ok[sub]++;
        } else {
            r = NULL;
        }
    }
    cur_reasons = &main_reasons;
    return r;
}

/* The vLLM power harness (argonne-lcf/LLM-Inference-Bench @4211f5d,
 * vLLM/{A100/Power_measurement,H100,GH200}/benchmark_power.py) starts the
 * NVML probe, runs generate, sleeps 1 s, then stops it: avg_power is the
 * mean over the run and one idle second after it (with NVML's 1-s trailing
 * average, Hopper's, half a second before and after: the same second).  So
 * the measured figure is (P T + idle x 1 s) / (T + 1 s), T the run: the row
 * is scored on that, the energy (W x latency / B, the un-probed run's
 * latency) scaled alike.  --no-probe-tail: the before (h195). */
static int ib_tail_off;
static void ib_probe_tail(row_t *r) {
    double T = r->a[T_E2E] * 1e-3, P = r->a[T_POWER];
    if (ib_tail_off || !(T > 0) || !(P > 0)) return;
    double pw = (P * T + r->idle_w * 1.0) / (T + 1.0);
    r->a[T_ENERGY] *= pw / P;
    r->a[T_POWER] = pw;
}

/* All_results.csv (sub IB_ALL) or the power file (IB_POWER): same columns,
 * the power file adds avg_power.  Energy per request = W x GPUs x latency / B. */
static void ib_load_results(const char *root, const char *rel, int sub) {
    static char line[2048], hl[2048];
    char *h[16], *v[16];
    int nh;
    FILE *f = csv_open(root, rel, hl, (int)sizeof hl, h, 16, &nh);
    int cH = csv_col(h, nh, "Hardware"), cN = csv_col(h, nh, "Num of Hardware"), cF = csv_col(h, nh, "Framework"),
        cM = csv_col(h, nh, "Model"), cL = csv_col(h, nh, "Input Output Length"), cB = csv_col(h, nh, "Batch Size"),
        cLat = csv_col(h, nh, "Latency"), cT = csv_col(h, nh, "Throughput"),
        cP = sub == IB_POWER ? csv_col(h, nh, "avg_power") : -1;
    while (fgets(line, sizeof line, f)) {
        if (csv_split(line, v, 16) < nh) continue; /* blank lines */
        int64_t L = atoll(v[cL]), B = atoll(v[cB]);
        int n = atoi(v[cN]);
        double lat = atof(v[cLat]), thr = atof(v[cT]), mw = cP >= 0 ? atof(v[cP]) : 0;
        if (L < 1 || B < 1 || n < 1 || !(lat > 0) || (sub == IB_POWER && !(mw > 0))) continue;
        row_t *r = ib_predict(sub, v[cH], v[cF], v[cM], n, L, L, B);
        if (!r) continue;
        /* faster than streaming the weights once per token: not a
         * measurement of this workload (Qwen2-7B on TensorRT-LLM H100 at
         * 2,048 tokens: 60-83 ms for 2,047 steps); counted, not scored */
        if (lat * 1e3 < r->floor_ms) {
            ib_floor[sub]++;
            continue;
        }
        if (sub == IB_ALL) {
            r->y[T_E2E] = lat * 1e3;
            /* the data's tokens/s counts B (L + L); a capped run (ib_vllm_cap)
             * made B (L + its generated tokens) */
            if (thr > 0) r->y[T_TOKS] = r->wl.gen_tokens == L ? thr : (double)B * (double)(L + r->wl.gen_tokens) / lat;
        } else {
            r->y[T_POWER] = mw * 1e-3;
            r->y[T_ENERGY] = mw * 1e-3 * n * lat / (double)B;
            if (!strcmp(v[cF], "vLLM")) ib_probe_tail(r);
        }
    }
    fclose(f);
}

/* Fig_22: a TTFT row (the prompt and one output token) and, where the line
 * has end_latency, an ITL row (the prompt length generated after it). */
static void ib_load_ttft(const char *root) {
    static char line[2048], hl[2048];
    char *h[16], *v[16];
    int nh;
    FILE *f = csv_open(root, "LLM-Inference-Bench/Plots/Fig_22/all_results_TTFT_ITL.csv", hl, (int)sizeof hl, h, 16, &nh);
    int cH = csv_col(h, nh, "Hardware"), cN = csv_col(h, nh, "Num of Hardware"), cF = csv_col(h, nh, "Framework"),
        cM = csv_col(h, nh, "Model"), cI = csv_col(h, nh, "Input Length"), cO = csv_col(h, nh, "Output Length"),
        cB = csv_col(h, nh, "Batch Size"), cT = csv_col(h, nh, "TTFT Latency"), cE = csv_col(h, nh, "end_latency");
    while (fgets(line, sizeof line, f)) {
        int k = csv_split(line, v, 16);
        if (k < cT + 1) continue; /* blank lines; end_latency may be missing */
        int64_t in = atoll(v[cI]), out = atoll(v[cO]), B = atoll(v[cB]);
        int n = atoi(v[cN]);
        double ttft = atof(v[cT]), end = k > cE ? atof(v[cE]) : 0;
        if (in < 2 || out < 1 || B < 1 || n < 1 || !(ttft > 0)) continue;
        row_t *r = ib_predict(IB_TTFT, v[cH], v[cF], v[cM], n, in, out, B);
        if (r) r->y[T_TTFT] = ttft * 1e3;
        if (!(end > ttft)) continue;
        r = ib_predict(IB_ITL, v[cH], v[cF], v[cM], n, in, in, B);
        if (r && (end - ttft) * 1e3 < r->floor_ms) ib_floor[IB_ITL]++;
        else if (r) r->y[T_TPOT] = (end - ttft) * 1e3 / (double)(in - 1);
    }
    fclose(f);
}

static void load_infbench(const char *root) {
    ib_load_results(root, "LLM-Inference-Bench/Plots/All_results.csv", IB_ALL);
    ib_load_ttft(root);
    ib_load_results(root, "LLM-Inference-Bench/Plots/Fig_16_a_b/power_results.csv", IB_POWER);
}

/* Coverage per kind of row and overall, with and without the rows whose
 * engine is not modelled, and every refusal by reason. */
static void ib_coverage(void) {
    int all = 0, in = 0, ok = 0;
    printf("\n### infbench: LLM-Inference-Bench (argonne-lcf, arXiv 2411.00136), offline batches\n\n");
    printf("| rows of | rows | engine modelled (vLLM, TensorRT-LLM) | answered | of all rows | of engine-modelled rows |\n"
           "|---|---:|---:|---:|---:|---:|\n");
    for (int s = 0; s < IB_N; s++) {
        int n = ib_seen[s][0] + ib_seen[s][1];
        all += n, in += ib_seen[s][1], ok += ib_ok[s];
        printf("| %s | %d | %d | %d | %.1f %% | %.1f %% |\n", ib_name[s], n, ib_seen[s][1], ib_ok[s],
               100.0 * ib_ok[s] / (n ? n : 1), 100.0 * ib_ok[s] / (ib_seen[s][1] ? ib_seen[s][1] : 1));
    }
    printf("| all | %d | %d | %d | **%.1f %%** | **%.1f %%** |\n", all, in, ok, 100.0 * ok / (all ? all : 1),
           100.0 * ok / (in ? in : 1));
    for (int s = 0; s < IB_N; s++)
        if (ib_floor[s])
            printf("\n%s: %d answered rows measured faster than their floor (the active weights streamed once per "
                   "generated token at peak bandwidth): not measurements of the workload, not scored\n",
                   ib_name[s], ib_floor[s]);
    for (int s = 0; s < IB_N; s++) {
        if (!ib_reasons[s].k) continue;
        printf("\nrefused, %s:\n", ib_name[s]);
        for (int i = 0; i < ib_reasons[s].k; i++) printf("  %5d  %s\n", ib_reasons[s].n[i], ib_reasons[s].why[i]);
    }
}

/* Median of predicted / measured over the infbench rows of target t that
 * pass keep (NULL: all); its row count in *n. */
static double ib_median(int t, const double *pred, int (*keep)(const row_t *, int), int arg, int *n) {
    double *v = malloc(sizeof(double) * (size_t)(nR > 0 ? nR : 1));
    int m = 0;
    for (int i = 0; v && i < nR; i++) {
        const row_t *r = &R[i];
        if (strcmp(r->set, "infbench") || !isfinite(r->y[t]) || !(pred[i] > 0) || (keep && !keep(r, arg))) continue;
        v[m++] = pred[i] / r->y[t];
    }
    double md = median_of(v, m);
    free(v);
    *n = m;
    return md;
}

static int ib_keep_fw_dev(const row_t *r, int fd) { return r->fw == fd / MAXG && r->dev == fd % MAXG; }
static int ib_keep_fw_dev_b(const row_t *r, int fdb) {
    int b = fdb / (MAXG * MAXG), bucket = r->wl.concurrency == 1 ? 0 : r->wl.concurrency <= 32 ? 1 : 2;
    return bucket == b && ib_keep_fw_dev(r, fdb % (MAXG * MAXG));
}

/* MAPE of target t by one grouping (kind as score(): 1 GPU, 2 family, 6
 * framework, 7 GPU count). */
static void ib_by(int t, const double *a, int kind, const char *label) {
    int ng = kind == 1 ? ndev : kind == 2 ? nfam : kind == 6 ? nfw : 9;
    printf("%s %s:", tname[t], label);
    for (int g = kind == 7 ? 1 : 0; g < ng; g++) {
        score_t s = score(t, a, "infbench", kind, g);
        if (!s.n) continue;
        if (kind == 7) printf("  TP %d %.1f %% (%d)", g, s.mape, s.n);
        else printf("  %s %.1f %% (%d)", kind == 1 ? devname[g] : kind == 2 ? famname[g] : fwname[g], s.mape, s.n);
    }
    printf("\n");
}

/* Framework x GPU: e2e MAPE and the median bias, overall and by batch. */
static void ib_fw_gpu(const double *a) {
    printf("\nend-to-end latency by framework x GPU: MAPE, median predicted / measured (all rows; batch 1; 16-32; "
           "64-256)\n\n| framework | GPU | engine | rows | MAPE | median | B = 1 | B 16-32 | B 64-256 |\n"
           "|---|---|---|---:|---:|---:|---:|---:|---:|\n");
    for (int f = 0; f < nfw; f++)
        for (int g = 0; g < ndev; g++) {
            int n, nb;
            double md = ib_median(T_E2E, a, ib_keep_fw_dev, f * MAXG + g, &n);
            if (!n) continue;
            const char *eng = "";
            for (int i = 0; i < nR; i++)
                if (!strcmp(R[i].set, "infbench") && R[i].fw == f && R[i].dev == g)
                    eng = dlp_llm_engine_name(R[i].wl.engine);
            double e = 0;
            for (int i = 0; i < nR; i++) {
                const row_t *r = &R[i];
                if (!strcmp(r->set, "infbench") && r->fw == f && r->dev == g && isfinite(r->y[T_E2E]) && a[i] > 0)
                    e += fabs(a[i] - r->y[T_E2E]) / r->y[T_E2E];
            }
            printf("| %s | %s | %s | %d | %.1f %% | %.2f |", fwname[f], devname[g], eng, n, 100 * e / n, md);
            for (int b = 0; b < 3; b++) {
                double mb = ib_median(T_E2E, a, ib_keep_fw_dev_b, b * MAXG * MAXG + f * MAXG + g, &nb);
                if (nb) printf(" %.2f (%d) |", mb, nb);
                else printf(" - |");
            }
            printf("\n");
        }
}

/* e2e MAPE of pred over the infbench rows of one vendor (NULL: all); rows in *n. */
static double ib_mape_vendor(const double *pred, const char *vendor, int *n) {
    double e = 0;
    int m = 0;
    for (int i = 0; i < nR; i++) {
        const row_t *r = &R[i];
        if (strcmp(r->set, "infbench") || !isfinite(r->y[T_E2E]) || !(pred[i] > 0)) continue;
        const dlp_device *d = dlp_devdb_find(db, devname[r->dev]);
        if (vendor && (!d || strcmp(d->vendor, vendor))) continue;
        e += fabs(pred[i] - r->y[T_E2E]) / r->y[T_E2E];
        m++;
    }
    *n = m;
    return m ? 100 * e / m : NAN;
}

/* Diagnostics, not scored: (1) the offline wave as it runs — every prompt
 * prefilled in the first burst, then gen - 1 decode steps without prompt
 * arrivals — against the closed-loop answer the bench scores; (2) the vLLM
 * rows under the other vLLM engine than their version says. */
static void ib_diagnostics(const double *a) {
    double *w = malloc(sizeof(double) * (size_t)(nR > 0 ? nR : 1));
    if (!w) return;
    for (int i = 0; i < nR; i++) {
        const row_t *r = &R[i];
        w[i] = NAN;
        if (strcmp(r->set, "infbench")) continue;
        w[i] = r->tb_ms + (double)(r->wl.gen_tokens - 1) * r->dec_ms;
    }
    score_t s0 = score(T_E2E, a, "infbench", 0, 0), s1 = score(T_E2E, w, "infbench", 0, 0);
    printf("\ndiagnostic (not scored): e2e as one offline wave (the burst's prefill + (gen - 1) decode steps, no front end)"
           " %.1f %% MAPE against the closed-loop e2e_ms %.1f %% (%d rows);", s1.mape, s0.mape, s0.n);
    for (int f = 0; f < nfw; f++) {
        score_t q = score(T_E2E, w, "infbench", 6, f);
        if (q.n) printf(" %s %.1f %%", fwname[f], q.mape);
    }
    for (int i = 0; i < nR; i++) w[i] = !strcmp(R[i].set, "infbench") ? R[i].tb_ms : NAN;
    s0 = score(T_TTFT, a, "infbench", 0, 0), s1 = score(T_TTFT, w, "infbench", 0, 0);
    printf("\nTTFT as the burst alone: %.1f %% against ttft_ms %.1f %% (%d rows)\n", s1.mape, s0.mape, s0.n);
    /* the other vLLM engine on the same rows; w: the scored answers with
     * the vLLM <= 0.5 rows (vllm-v0) swapped to the modern engine */
    for (int i = 0; i < nR; i++) w[i] = a[i];
    printf("vLLM rows under the other vLLM engine, e2e MAPE as scored -> swapped:");
    for (int g = 0; g < ndev; g++) {
        double e0 = 0, e1 = 0;
        int n = 0, eng = -1;
        for (int i = 0; i < nR; i++) {
            const row_t *r = &R[i];
            if (strcmp(r->set, "infbench") || r->dev != g || strcmp(r->backend, "vLLM") || !isfinite(r->y[T_E2E])) continue;
            dlp_llm_config c;
            dlp_error e = {0};
            const dlp_device *d = dlp_devdb_find(db, devname[g]);
            if (!d || dlp_llm_catalogue_get(r->model, &c, &e)) continue;
            dlp_llm_workload wl = r->wl;
            wl.engine = r->wl.engine == DLP_LLM_ENGINE_VLLM_V0 ? DLP_LLM_ENGINE_MODERN : DLP_LLM_ENGINE_VLLM_V0;
            dlp_llm_prediction p;
            if (dlp_llm_predict(&c, d, db, &wl, &ANALYTIC, &p, &e)) continue;
            e0 += fabs(a[i] - r->y[T_E2E]) / r->y[T_E2E];
            e1 += fabs(p.e2e_ms - r->y[T_E2E]) / r->y[T_E2E];
            n++, eng = wl.engine;
            if (wl.engine == DLP_LLM_ENGINE_MODERN) w[i] = p.e2e_ms;
        }
        if (n) printf("  %s %.1f -> %.1f %% (%s, %d)", devname[g], 100 * e0 / n, 100 * e1 / n, dlp_llm_engine_name(eng), n);
    }
    int n0, n1, n2;
    double s_all = ib_mape_vendor(a, NULL, &n0), s_nv = ib_mape_vendor(a, "nvidia", &n1), s_amd = ib_mape_vendor(a, "amd", &n2);
    printf("\ne2e MAPE by vendor as scored: all %.1f %% (%d), NVIDIA %.1f %% (%d), AMD %.1f %% (%d); with the vLLM <= 0.5 "
           "rows on the modern engine instead: all %.1f %%, NVIDIA %.1f %%, AMD %.1f %%\n", s_all, n0, s_nv, n1, s_amd, n2,
           ib_mape_vendor(w, NULL, &n0), ib_mape_vendor(w, "nvidia", &n1), ib_mape_vendor(w, "amd", &n2));
    free(w);
}

static void ib_report(void) {
    if (!ib_seen[IB_ALL][0] && !ib_seen[IB_ALL][1]) return; /* not loaded */
    ib_coverage();
    double *a = malloc(sizeof(double) * (size_t)(nR > 0 ? nR : 1));
    if (!a) return;
    printf("\n| target | rows | analytic MAPE | Acc(10%%) | median predicted / measured |\n|---|---:|---:|---:|---:|\n");
    static const int ts[] = {T_E2E, T_TOKS, T_TTFT, T_TPOT, T_POWER, T_ENERGY};
    for (size_t k = 0; k < sizeof ts / sizeof ts[0]; k++) {
        int t = ts[k], n;
        for (int i = 0; i < nR; i++) a[i] = R[i].a[t];
        score_t s = score(t, a, "infbench", 0, 0);
        if (!s.n) continue;
        double md = ib_median(t, a, NULL, 0, &n);
        printf("| %s%s | %d | %.1f %% | %.0f %% | %.2f |\n", t == T_TPOT ? "ITL (TPOT)" : tname[t],
               t == T_TTFT ? " (B 16, 1k prompts)" : "", s.n, s.mape, s.acc10, md);
    }
    printf("\n");
    for (size_t k = 0; k < sizeof ts / sizeof ts[0]; k++) {
        int t = ts[k];
        for (int i = 0; i < nR; i++) a[i] = R[i].a[t];
        if (!score(t, a, "infbench", 0, 0).n) continue;
        ib_by(t, a, 1, "by GPU");
        ib_by(t, a, 6, "by framework");
        if (t != T_E2E) continue;
        ib_by(t, a, 2, "by family");
        ib_by(t, a, 7, "by GPUs (TP)");
    }
    for (int i = 0; i < nR; i++) a[i] = R[i].a[T_E2E];
    ib_fw_gpu(a);
    double *e = malloc(sizeof(double) * (size_t)(nR > 0 ? nR : 1));
    if (e) {
        /* the diagnostics read e2e and TTFT from one array: each row has one */
        for (int i = 0; i < nR; i++) e[i] = isfinite(R[i].y[T_E2E]) ? R[i].a[T_E2E] : R[i].a[T_TTFT];
        ib_diagnostics(e);
        free(e);
    }
    free(a);
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* In-process speed: serving predictions per second (profile cached after
 * the first call, as in a capacity-planning loop), beside `dlperf
 * predict`'s in-process rate on examples/bert.onnx (graph loaded once). */
static void speed(void) {
    dlp_error e = {0};
    const dlp_device *d = dlp_devdb_find(db, "h100-sxm");
    dlp_llm_config c;
    if (dlp_llm_catalogue_get("meta-llama/Llama-3.1-8B-Instruct", &c, &e)) return;
    dlp_llm_prediction p;
    int n = 0;
    double t0 = now_s(), t;
    do {
        for (int k = 0; k < 200; k++, n++) {
            dlp_llm_workload wl = {.batch = 1, .seq = 256 + 16 * (n % 64), .gen_tokens = 128 + (n % 7) * 64,
                                   .quant = DLP_QT_BF16, .n_gpus = 1 << (n % 3), .concurrency = 1 + n % 256};
            if (dlp_llm_predict(&c, d, db, &wl, &ANALYTIC, &p, &e)) {
                fprintf(stderr, "%s\n", e.msg);
                return;
            }
        }
        t = now_s() - t0;
    } while (t < 2.0);
    double llm_rate = n / t;
    dlp_graph *g = NULL;
    dlp_load_opts lo = {.batch = 8, .seq = 128};
    double pred_rate = 0;
    if (dlp_graph_load("examples/bert.onnx", &lo, &g, &e) == DLP_OK) {
        int m = 0;
        t0 = now_s();
        do {
            dlp_prediction pp;
            if (dlp_predict(g, d, db, NULL, &pp, &e)) break;
            dlp_prediction_clear(&pp);
            m++;
            t = now_s() - t0;
        } while (t < 2.0);
        pred_rate = m / t;
        dlp_graph_free(g);
    }
    printf("\n### speed (in-process, one core)\n\n");
    printf("| call | predictions/s |\n|---|---:|\n");
    printf("| dlp_llm_predict, serving (Llama-3.1-8B, varied prompt/gen/TP/concurrency) | %.0f |\n", llm_rate);
    if (pred_rate > 0)
        printf("| dlp_predict, examples/bert.onnx batch 8 seq 128 (graph loaded once) | %.0f |\n", pred_rate);
    if (pred_rate > 0) printf("\nratio llm serving / predict: %.1fx\n", llm_rate / pred_rate);
}

/* ---- splitwise-sim's profile (issue 22) ---------------------------------- */

/* splitwise-sim's data/perf_model.csv (MIT, commit 8f99e7d; SOURCE.txt):
 * the DGX-A100 / DGX-H100 profile behind the Splitwise paper's simulator
 * (Patel et al., ISCA 2024), Llama-2-70B (TP 2/4/8) and BLOOM-176B (TP 8)
 * in fp16, 5-15 repeats of each (prompt P, batch B, output T, TP).  The
 * simulator reads two numbers per setup (notebooks/perf_model.py:
 * interpolated over batch tokens B x P):
 *   prompt_time  the prefill of B prompts of P tokens together, ms
 *   token_time   one decode step of the batch of B, ms
 * Each setup (median of its repeats) is one row of set "splitwise", scored
 * against the library's public API:
 *   prompt_time  vs round_ms of a prefill worker with B clients and
 *                max_seqs B: its B prompts back to back in the engine's
 *                chunks (B x P tokens: the one-pass cost up to chunking)
 *   token_time   vs decode_step_ms of a decode worker at B running, the
 *                context at P + T / 2 (the mean over the generation)
 * They sit in the TTFT and TPOT columns of row_t, under their own names in
 * sw_report.  e2e_time is not scored: at T >= 1,024 it is 1.5-15x shorter
 * than prompt_time + T x token_time (the runs stopped early, e.g.
 * Llama-2-70B TP 2, P 512, T 8,192: 34.9 s for 494 s of steps), and the
 * TP 2, B 64 runs report prompt_time below the B 32 one with an e2e of
 * 84-160 s (the batch did not fit).  peak_power / average_power are
 * normalised to an undocumented reference: not scored either.
 * The power-capped H100 rows (h100-80gb-pcap) are refused.  The cap is 70 %
 * (splitwise-sim's notebooks/utils.py power_cap_scaler=0.7; skus/
 * dgx-h100-pcap.yaml tdp 7140 W = 0.7 x dgx-h100's 10200 W), but the rows
 * are not measurements: every one of the 420 repeats is the H100 row of the
 * same setup with prompt_time x 1.3 exactly and token_time, e2e_time equal
 * (power columns 0), the paper's rule of thumb written into the profile;
 * and the serving model has no power limit to put under them. */
#define SW_MAXREP 32
typedef struct {
    char model[24], hw[24];
    int tp;
    int64_t P, B, T;
    double pt[SW_MAXREP], tt[SW_MAXREP];
    int n;
} sw_setup;
static sw_setup *SW;
static int nSW;
/* the engine the slice is scored with (vLLM of 2023: vllm-v0, the <= 0.5
 * engine), and the other engine beside it, per row: [0] prefill, [1] step */
static const int sw_engine = DLP_LLM_ENGINE_VLLM_V0, sw_other = DLP_LLM_ENGINE_MODERN;
static double sw_alt[MAXR][2];
/* per row: the engine's CPU time inside the predicted prefill (all its
 * chunks) and inside the decode step, ms (the fits below take it out) */
static double sw_ovh[MAXR][2];
/* per row: the model's layers and the engine steps of its prefill (the
 * batch's tokens in steps of at most CHUNK_TOKENS, as sw_prefill counts
 * them), for the eager stack's per-layer refit (sw_eager_report) */
static double sw_layers[MAXR], sw_pf_steps[MAXR];
static int sw_seen, sw_answered;

static const char *sw_dev(const char *hw) {
    if (!strcmp(hw, "a100-80gb")) return "a100-80gb";
    if (!strcmp(hw, "h100-80gb")) return "h100-sxm"; /* DGX-H100: SXM5 */
    return NULL;
}

static sw_setup *sw_find(const char *model, const char *hw, int tp, int64_t P, int64_t B, int64_t T) {
    for (int i = 0; i < nSW; i++) {
        sw_setup *s = &SW[i];
        if (s->tp == tp && s->P == P && s->B == B && s->T == T && !strcmp(s->model, model) && !strcmp(s->hw, hw))
            return s;
    }
    if (nSW >= MAXR) return NULL;
    sw_setup *s = &SW[nSW++];
    memset(s, 0, sizeof *s);
    snprintf(s->model, sizeof s->model, "%s", model);
    snprintf(s->hw, sizeof s->hw, "%s", hw);
    s->tp = tp, s->P = P, s->B = B, s->T = T;
    return s;
}

/* The median of a setup's repeats, v kept (median_of sorts in place). */
static double sw_median(const double *v, int n) {
    double t[SW_MAXREP];
    memcpy(t, v, sizeof(double) * (size_t)n);
    return median_of(t, n);
}

/* Engine steps a prefill of `tokens` takes: chunks of at most llm_serve.c's
 * CHUNK_TOKENS (8,192) */
static double sw_steps(double tokens) { return tokens / fmin(tokens, 8192.0); }

/* The prefill of the setup's B prompts on `engine`: round_ms of a prefill
 * worker of B clients, and its engine CPU time over all its chunks. */
static int sw_prefill(const dlp_llm_config *c, const dlp_device *d, const dlp_llm_workload *dec, int engine,
                      double *ms, double *ovh) {
    dlp_llm_workload wl = *dec;
    wl.phase = DLP_LLM_PREFILL_ONLY, wl.engine = engine;
    dlp_llm_prediction p;
    dlp_error e = {0};
    if (dlp_llm_predict(c, d, db, &wl, &ANALYTIC, &p, &e) || !(p.round_ms > 0)) return 0;
    double tokens = (double)wl.seq * (double)wl.concurrency;
    *ms = p.round_ms;
    *ovh = p.overhead_ms * sw_steps(tokens);
    return 1;
}

/* The decode step of the setup on `engine` (0 if refused). */
static double sw_step(const dlp_llm_config *c, const dlp_device *d, const dlp_llm_workload *dec, int engine) {
    dlp_llm_workload wl = *dec;
    wl.engine = engine;
    dlp_llm_prediction p;
    dlp_error e = {0};
    return dlp_llm_predict(c, d, db, &wl, &ANALYTIC, &p, &e) ? 0 : p.decode_step_ms;
}

/* One setup -> one row (predict_row counts and words the refusals). */
static void sw_row(const sw_setup *s) {
    const char *dev = sw_dev(s->hw);
    sw_seen++;
    if (!dev) {
        nSeen++;
        char b[160];
        snprintf(b, sizeof b, "splitwise %s: not measured (the H100 rows, prompt_time x 1.3)", s->hw);
        refuse(b);
        return;
    }
    row_t *r = new_row("splitwise", s->hw, "vllm");
    r->wl = (dlp_llm_workload){.batch = 1, .seq = s->P, .gen_tokens = s->T, .quant = DLP_QT_FP16, .n_gpus = s->tp,
                               .concurrency = s->B, .max_seqs = s->B, .engine = sw_engine,
                               .phase = DLP_LLM_DECODE_ONLY, .offline = 1, /* profiled batches, no server */
                               .eager = 1}; /* vLLM before CUDA graphs (llm_serve.c EAGER_LAYER_MS) */
    if (!predict_row(r, s->model, dev)) return;
    int i = nR;
    r->y[T_TTFT] = sw_median(s->pt, s->n);
    r->y[T_TPOT] = sw_median(s->tt, s->n);
    sw_ovh[i][1] = r->ovh_ms;
    r->a[T_TTFT] = NAN;
    dlp_llm_config c;
    dlp_error e = {0};
    const dlp_device *d = dlp_devdb_find(db, dev);
    dlp_llm_catalogue_get(s->model, &c, &e);
    double ms, ovh, ms2, ovh2;
    if (sw_prefill(&c, d, &r->wl, sw_engine, &ms, &ovh)) r->a[T_TTFT] = ms, sw_ovh[i][0] = ovh;
    double tokens = (double)s->P * (double)s->B;
    sw_layers[i] = (double)c.num_hidden_layers, sw_pf_steps[i] = sw_steps(tokens);
    sw_alt[i][0] = sw_prefill(&c, d, &r->wl, sw_other, &ms2, &ovh2) ? ms2 : NAN;
    double st = sw_step(&c, d, &r->wl, sw_other);
    sw_alt[i][1] = st > 0 ? st : NAN;
    /* ML.ENERGY's rule for vllm-v0 rows (predict_row) set the TPOT column
     * to the decode step already; the other targets are not this set's */
    r->a[T_TPUT] = r->a[T_ENERGY] = NAN;
    nR++;
    sw_answered++;
}

static void load_splitwise(const char *root) {
    static char line[4096], hl[4096];
    char *h[32], *v[32];
    int nh;
    FILE *f = csv_open(root, "splitwise-sim/data/perf_model.csv", hl, (int)sizeof hl, h, 32, &nh);
    int cM = csv_col(h, nh, "model"), cH = csv_col(h, nh, "hardware"), cP = csv_col(h, nh, "prompt_size"),
        cB = csv_col(h, nh, "batch_size"), cT = csv_col(h, nh, "token_size"), cTP = csv_col(h, nh, "tensor_parallel"),
        cPT = csv_col(h, nh, "prompt_time"), cTT = csv_col(h, nh, "token_time");
    SW = calloc(MAXR, sizeof *SW);
    if (!SW) {
        fclose(f);
        return;
    }
    while (fgets(line, sizeof line, f)) {
        if (csv_split(line, v, 32) != nh) continue;
        int tp = atoi(v[cTP]);
        int64_t P = atoll(v[cP]), B = atoll(v[cB]), T = atoll(v[cT]);
        double pt = atof(v[cPT]), tt = atof(v[cTT]);
        if (tp < 1 || P < 1 || B < 1 || T < 1 || !(pt > 0) || !(tt > 0)) continue;
        sw_setup *s = sw_find(v[cM], v[cH], tp, P, B, T);
        if (!s || s->n >= SW_MAXREP) continue;
        s->pt[s->n] = pt, s->tt[s->n] = tt, s->n++;
    }
    fclose(f);
    for (int i = 0; i < nSW && nR + 1 < MAXR; i++) sw_row(&SW[i]);
    free(SW);
    SW = NULL;
}

/* ---- the splitwise slice's scores ---- */

/* Does row i belong to group g of kind (0 all, 1 GPU, 2 family, 3 TP)? */
static int sw_in(int i, int kind, int g) {
    const row_t *r = &R[i];
    if (strcmp(r->set, "splitwise")) return 0;
    return kind == 0 || (kind == 1 && r->dev == g) || (kind == 2 && r->fam == g) || (kind == 3 && r->wl.n_gpus == g);
}

/* MAPE, Acc(10%) and the median predicted / measured over the rows of a
 * group for target k (0 prefill, 1 step) with predictions pred[i] */
typedef struct {
    double mape, acc10, med;
    int n;
} sw_score_t;
static sw_score_t sw_score(int k, const double *pred, int kind, int g) {
    int t = k ? T_TPOT : T_TTFT, n = 0;
    double *ratio = malloc(sizeof(double) * (size_t)(nR ? nR : 1)), e = 0, acc = 0;
    for (int i = 0; i < nR; i++) {
        if (!sw_in(i, kind, g) || !isfinite(R[i].y[t]) || !isfinite(pred[i]) || !(pred[i] > 0)) continue;
        double err = fabs(pred[i] - R[i].y[t]) / R[i].y[t];
        e += err, acc += err <= 0.10, ratio[n++] = pred[i] / R[i].y[t];
    }
    sw_score_t s = {n ? 100 * e / n : NAN, n ? 100 * acc / n : NAN, n ? median_of(ratio, n) : NAN, n};
    free(ratio);
    return s;
}

/* The engine's CPU time a prefill (k 0) or decode step (k 1) of the
 * splitwise rows would need: c[0] + c[1] (TP - 1) + c[2] B, least squares
 * of the relative residual (measured - the predicted GPU part) over the
 * rows outside group `skip` of kind (1 GPU, 2 family; 0 none).  The form
 * is vllm-v0's (llm_serve.c ENGINE_CPU: fixed + per running sequence + per
 * GPU beyond the first).  Returns 0 when the rows hold one TP (the TP term
 * is then not identified: leaving Llama-2 out leaves BLOOM's TP 8 alone). */
static int sw_fit(int k, int kind, int skip, double c[3]) {
    int t = k ? T_TPOT : T_TTFT, tp0 = 0, tps = 0;
    double A[3][4] = {{0}};
    for (int i = 0; i < nR; i++) {
        const row_t *r = &R[i];
        if (!sw_in(i, 0, 0) || !isfinite(r->a[t]) || (kind && sw_in(i, kind, skip))) continue;
        if (!tp0) tp0 = r->wl.n_gpus;
        tps |= r->wl.n_gpus != tp0;
        double w = 1.0 / r->y[t], u[3] = {w, w * (r->wl.n_gpus - 1), w * (double)r->wl.concurrency};
        double y = w * (r->y[t] - (r->a[t] - sw_ovh[i][k]));
        for (int j = 0; j < 3; j++) {
            for (int l = 0; l < 3; l++) A[j][l] += u[j] * u[l];
            A[j][3] += u[j] * y;
        }
    }
    if (!tps) return 0;
    solve_n(3, A, c);
    return 1;
}

/* MAPE of target k with the refit engine time over the rows of group g of
 * kind (1 GPU, 2 family), predicted by a fit without that group (kind 0:
 * all rows, in-sample); *n_out its rows; NAN when the fit is not
 * identified.  c_out (may be NULL) gets the constants. */
static double sw_heldout(int k, int kind, int g, int *n_out, double *c_out) {
    int t = k ? T_TPOT : T_TTFT, n = 0;
    double err = 0, c[3];
    *n_out = 0;
    if (!sw_fit(k, kind, g, c)) return NAN;
    if (c_out) memcpy(c_out, c, sizeof c);
    for (int i = 0; i < nR; i++) {
        const row_t *r = &R[i];
        if (!sw_in(i, kind, g) || !isfinite(r->a[t])) continue;
        double p = r->a[t] - sw_ovh[i][k] + c[0] + c[1] * (r->wl.n_gpus - 1) + c[2] * (double)r->wl.concurrency;
        err += fabs(p - r->y[t]) / r->y[t];
        n++;
    }
    *n_out = n;
    return n ? 100.0 * err / n : NAN;
}

/* The held-out MAPE of each group of kind, printed, and over all of them
 * (NAN if one group's fit is not identified). */
static void sw_heldout_groups(int k, int kind) {
    double err = 0;
    int n = 0, ok = 1;
    printf("    leave-one-%s-out:", kind == 1 ? "GPU" : "model");
    for (int g = 0; g < (kind == 1 ? ndev : nfam); g++) {
        int any = 0, ng;
        for (int i = 0; i < nR && !any; i++) any = sw_in(i, kind, g);
        if (!any) continue;
        double c[3], m = sw_heldout(k, kind, g, &ng, c);
        const char *nm = kind == 1 ? devname[g] : famname[g];
        if (!isfinite(m)) {
            printf("  %s n/a (the rest hold one TP: the per-GPU term is not identified)", nm);
            ok = 0;
            continue;
        }
        printf("  %s %.1f %% (%d rows; fit %.2f + %.2f x (GPUs - 1) + %.3f x batch)", nm, m, ng, c[0], c[1], c[2]);
        err += m * ng, n += ng;
    }
    if (ok && n) printf("; all %.1f %%", err / n);
    printf("\n");
}

/* The 2023 stack's cost per layer (h150, docs/llm.md "The splitwise
 * profile's stack"): the profile was made on the Splitwise authors'
 * prototype, "on top of an internal vLLM branch" (vllm-project/vllm#2472,
 * 2024-01-18), before arXiv v1 (2023-11-30), so before vLLM ran its decode
 * steps as CUDA graphs (vllm-project/vllm#1926, merged 2023-12-17): every
 * kernel of every layer issued eagerly from Python on each TP rank, and
 * each layer's two all-reduces wait for the slowest rank.  What that costs
 * is not documented, so one constant e (ms per layer, added to every
 * engine step) is fitted on the decode steps' measured - predicted (the
 * compiled-in vllm-v0 offline prediction), weighted relatively like
 * sw_fit, without the rows of group `skip` of kind (1 GPU, 2 model, 3 TP;
 * 0 none).  Compiled in as the rows' wl.eager (DLP__LLM_EAGER_LAYER_MS):
 * the scored prediction holds it, so it is taken out before the refit. */
static double sw_eager_fit(int kind, int skip) {
    double num = 0, den = 0;
    for (int i = 0; i < nR; i++) {
        const row_t *r = &R[i];
        if (!sw_in(i, 0, 0) || !isfinite(r->a[T_TPOT]) || (kind && sw_in(i, kind, skip))) continue;
        double x = sw_layers[i] / r->y[T_TPOT], graphed = r->a[T_TPOT] - DLP__LLM_EAGER_LAYER_MS * sw_layers[i];
        num += x * (r->y[T_TPOT] - graphed) / r->y[T_TPOT], den += x * x;
    }
    return den > 0 ? num / den : NAN;
}

/* MAPE of target k (0 prefill: e on each of its steps; 1 decode step) over
 * group g of kind with e ms per layer added; *n_out its rows. */
static double sw_eager_mape(int k, int kind, int g, double e, int *n_out) {
    int t = k ? T_TPOT : T_TTFT, n = 0;
    double err = 0;
    for (int i = 0; i < nR; i++) {
        const row_t *r = &R[i];
        if (!sw_in(i, kind, g) || !isfinite(r->a[t])) continue;
        double p = r->a[t] + (e - DLP__LLM_EAGER_LAYER_MS) * sw_layers[i] * (k ? 1.0 : sw_pf_steps[i]);
        err += fabs(p - r->y[t]) / r->y[t], n++;
    }
    *n_out = n;
    return n ? 100.0 * err / n : NAN;
}

/* The held-out lines of the per-layer refit: each group of kind predicted
 * with e fitted without it, decode and prefill, and pooled. */
static void sw_eager_groups(int kind) {
    static const char *const kn[4] = {"", "GPU", "model", "TP"};
    double ed = 0, ep = 0;
    int nd = 0, np = 0;
    printf("    leave-one-%s-out:", kn[kind]);
    int ng = kind == 1 ? ndev : kind == 2 ? nfam : 9;
    for (int g = 0; g < ng; g++) {
        int n0, n1;
        double e = sw_eager_fit(kind, g), m1 = sw_eager_mape(1, kind, g, e, &n1), m0 = sw_eager_mape(0, kind, g, e, &n0);
        if (!n1) continue;
        if (kind == 3) printf("  TP %d", g);
        else printf("  %s", kind == 1 ? devname[g] : famname[g]);
        printf(" (e %.3f): step %.1f %%, prefill %.1f %% (%d)", e, m1, m0, n1);
        ed += m1 * n1, nd += n1, ep += m0 * n0, np += n0;
    }
    if (nd && np) printf("; all: step %.1f %%, prefill %.1f %%", ed / nd, ep / np);
    printf("\n");
}

static void sw_eager_report(void) {
    int n0, n1;
    double e = sw_eager_fit(0, 0);
    if (!isfinite(e)) return;
    double m1 = sw_eager_mape(1, 0, 0, e, &n1), m0 = sw_eager_mape(0, 0, 0, e, &n0);
    printf("\nthe 2023 stack's cost per layer, refit here (compiled in: %.3f ms, the rows' eager flag, llm_serve.c "
           "EAGER_LAYER_MS; vLLM before CUDA graphs, vllm#1926): e ms per layer on every engine step, fitted on the "
           "decode steps only (measured - the graphed prediction); the prefill rows are not fitted\n",
           DLP__LLM_EAGER_LAYER_MS);
    printf("  e = %.3f ms per layer: decode step %.1f %% (%d rows), prefill of the batch %.1f %% (%d rows), in-sample\n",
           e, m1, n1, m0, n0);
    for (int kind = 1; kind <= 3; kind++) sw_eager_groups(kind);
}

static void sw_groups(int k, const double *pred, int kind) {
    static const char *const kn[4] = {"", "GPU", "model", "TP"};
    printf("  by %s:", kn[kind]);
    int ng = kind == 1 ? ndev : kind == 2 ? nfam : 9;
    for (int g = 0; g < ng; g++) {
        sw_score_t s = sw_score(k, pred, kind, g);
        if (!s.n) continue;
        if (kind == 3) printf("  TP %d", g);
        else printf("  %s", kind == 1 ? devname[g] : famname[g]);
        printf(" %.1f %% (x%.2f, %d)", s.mape, s.med, s.n);
    }
    printf("\n");
}

static void sw_report(void) {
    if (!sw_seen) return;
    static const char *const kname[2] = {"prefill of the batch (prompt_time)", "decode step (token_time)"};
    printf("\n### splitwise: %d of %d setups answered (%.1f %%; the rest refused, reasons above)\n\n", sw_answered,
           sw_seen, 100.0 * sw_answered / sw_seen);
    printf("engine: %s (vLLM of 2023); beside it %s. x = median predicted / measured.\n\n",
           dlp_llm_engine_name(sw_engine), dlp_llm_engine_name(sw_other));
    printf("| target | rows | analytic MAPE | Acc(10%%) | x | %s MAPE | x |\n|---|---:|---:|---:|---:|---:|---:|\n",
           dlp_llm_engine_name(sw_other));
    double *a = malloc(sizeof(double) * (size_t)nR), *o = malloc(sizeof(double) * (size_t)nR);
    for (int k = 0; k < 2; k++) {
        for (int i = 0; i < nR; i++) a[i] = R[i].a[k ? T_TPOT : T_TTFT], o[i] = sw_alt[i][k];
        sw_score_t s = sw_score(k, a, 0, 0), so = sw_score(k, o, 0, 0);
        printf("| %s | %d | %.1f %% | %.0f %% | %.2f | %.1f %% | %.2f |\n", kname[k], s.n, s.mape, s.acc10, s.med,
               so.mape, so.med);
    }
    for (int k = 0; k < 2; k++) {
        for (int i = 0; i < nR; i++) a[i] = R[i].a[k ? T_TPOT : T_TTFT], o[i] = sw_alt[i][k];
        printf("\n%s, %s (MAPE, x, rows):\n", kname[k], dlp_llm_engine_name(sw_engine));
        for (int kind = 1; kind <= 3; kind++) sw_groups(k, a, kind);
        printf("%s, %s:\n", kname[k], dlp_llm_engine_name(sw_other));
        for (int kind = 1; kind <= 3; kind++) sw_groups(k, o, kind);
    }
    free(a);
    free(o);
    printf("\nengine CPU time the splitwise rows would need, refit here (not compiled in): c0 + c1 x (GPUs - 1) + "
           "c2 x batch, on measured - the predicted GPU part (compiled-in vllm-v0 offline since h128: %.2f + %.3f x (GPUs - 1) + "
           "%.4f x running, refit on LLM-Inference-Bench: the vllm-v0 offline block below)\n",
           2.26, 0.160, 0.0658);
    for (int k = 0; k < 2; k++) {
        double c[3] = {0, 0, 0};
        int n;
        double in = sw_heldout(k, 0, 0, &n, c);
        printf("  %s: %.2f + %.2f x (GPUs - 1) + %.3f x batch ms; MAPE in-sample %.1f %% (%d rows)\n", kname[k], c[0],
               c[1], c[2], in, n);
        sw_heldout_groups(k, 1);
        sw_heldout_groups(k, 2);
    }
    sw_eager_report();
}

/* ---- an engine's offline CPU time per step, refit on LLM-Inference-Bench -- */

/* What the offline fit below reads (h128 for vllm-v0, h131 for modern):
 * the engine's rows, and with dev >= 0 only that GPU's rows (the modern
 * engine's vLLM 0.6.1 rows are fitted on A100 alone: the ROCm rows miss by
 * 2.6-6x on the GPU side, docs/llm.md, which a CPU term would absorb); base
 * is the triple the fit is judged against. */
typedef struct {
    int engine, dev;
    const double *base;
    const char *base_name;
} ibfit_t;
static ibfit_t IBF;

/* An infbench row the offline fit reads: the engine IBF names (on its GPU
 * where it names one), an e2e latency, and at least two generated tokens (a
 * decode step). */
static int ibv0_row(const row_t *r) {
    /* vllm-v0's fit leaves out the Intel Max 1550 rows (vLLM 0.5.2 on XPU,
     * h132): their misses are on the GPU side, which a CPU term would absorb */
    return !strcmp(r->set, "infbench") && r->wl.engine == IBF.engine && (IBF.dev < 0 || r->dev == IBF.dev) &&
           (IBF.engine != DLP_LLM_ENGINE_VLLM_V0 || !strncmp(r->system, "Nvidia", 6)) &&
           isfinite(r->y[T_E2E]) && r->wl.gen_tokens > 1 && isfinite(r->a[T_TTFT]) && r->dec_ms > 0;
}

/* The measured decode step of a row, derived: (measured latency - our
 * prefill of the batch) / (gen - 1).  An offline batch is one prefill and
 * gen - 1 decode steps (LLM.generate() with ignore_eos: every sequence runs
 * to the end together); our prefill is a median 4 % of the measured
 * latency on these rows (9 % at the 90th percentile, 42 % at most), so its
 * error moves the derived step little. */
static double ibv0_step(const row_t *r) {
    return (r->y[T_E2E] - r->a[T_TTFT]) / (double)(r->wl.gen_tokens - 1);
}

/* The predicted e2e of a row with the step's CPU part cpu_ms: our prefill
 * plus gen - 1 steps of (our GPU step + cpu_ms).  With cpu_ms = the
 * library's ovh_ms it is the scored e2e_ms (offline: TTFT + (gen - 1) TPOT). */
static double ibv0_e2e(const row_t *r, double cpu_ms) {
    return r->a[T_TTFT] + (double)(r->wl.gen_tokens - 1) * (r->dec_ms - r->ovh_ms + cpu_ms);
}

/* c[0] + c[1] (GPUs - 1) + c[2] running: the form of sw_fit. */
static double ibv0_cpu(const row_t *r, const double c[3]) {
    return c[0] + (r->wl.n_gpus > 1 ? c[1] * (r->wl.n_gpus - 1) : 0) + c[2] * r->running;
}

/* Weighted least squares of the derived step's CPU part (derived step -
 * our GPU step, i.e. - (dec_ms - ovh_ms)) over the vllm-v0 rows outside
 * group `skip` of kind (1 GPU, 2 family; 0 none), each row's relative
 * error weighted equally (divided by the derived step), as sw_fit.
 * Returns 0 when no row is left, 1 for the triple, 2 when the rows hold
 * one GPU count: the per-GPU term is then not identified (leaving H100
 * out leaves GH200's one-GPU rows), so only the fixed and per-sequence
 * terms are fitted and c[1] is NAN (ibv0_mape then scores the one-GPU
 * rows only). */
static int ibv0_fit(int kind, int skip, double c[3]) {
    double A[3][4] = {{0}};
    int tp0 = 0, tps = 0;
    for (int i = 0; i < nR; i++) {
        const row_t *r = &R[i];
        if (!ibv0_row(r) || (kind == 1 && r->dev == skip) || (kind == 2 && r->fam == skip)) continue;
        double ys = ibv0_step(r);
        if (!(ys > 0)) continue;
        if (!tp0) tp0 = r->wl.n_gpus;
        tps |= r->wl.n_gpus != tp0;
        double w = 1.0 / ys, u[3] = {w, w * (r->wl.n_gpus - 1), w * r->running};
        double y = w * (ys - (r->dec_ms - r->ovh_ms));
        for (int j = 0; j < 3; j++) {
            for (int l = 0; l < 3; l++) A[j][l] += u[j] * u[l];
            A[j][3] += u[j] * y;
        }
    }
    if (!tp0) return 0;
    if (tps) {
        solve_n(3, A, c);
        if (c[1] >= 0) return 1;
    }
    /* the fixed and per-sequence rows and columns of the normal equations:
     * one GPU count, or a per-GPU term that came out negative (a further
     * GPU's worker cannot take CPU time off the step: the modern engine's
     * A100 rows, where it absorbs the predicted GPU step's error by TP), so
     * held at its bound 0, as non-negative least squares would */
    double B[2][4] = {{A[0][0], A[0][2], A[0][3]}, {A[2][0], A[2][2], A[2][3]}}, x[2];
    solve_n(2, B, x);
    c[0] = x[0], c[1] = tps ? 0.0 : NAN, c[2] = x[1];
    return tps ? 1 : 2;
}

/* h124's blog-derived offline constants, the reference the fit was judged
 * against: the leaderboard's 20.5 ms and 0.217 ms / sequence x 29 / 62 (the
 * vLLM team's v0.5.3 split), the 11.8 ms per extra GPU whole */
static const double IBV0_BLOG[3] = {20.5 * 29.0 / 62.0, 11.8, 0.217 * 29.0 / 62.0};

/* e2e MAPE over the vllm-v0 rows of group g of kind (0 all) with the CPU
 * part from c (NULL: the compiled-in ovh_ms), over the one-GPU rows only
 * when one_gpu; rows in *n. */
static double ibv0_mape(int kind, int g, const double *c, int one_gpu, int *n) {
    double e = 0;
    int m = 0;
    for (int i = 0; i < nR; i++) {
        const row_t *r = &R[i];
        if (!ibv0_row(r) || (kind == 1 && r->dev != g) || (kind == 2 && r->fam != g)) continue;
        if (one_gpu && r->wl.n_gpus > 1) continue;
        double p = ibv0_e2e(r, c ? ibv0_cpu(r, c) : r->ovh_ms);
        e += fabs(p - r->y[T_E2E]) / r->y[T_E2E];
        m++;
    }
    *n = m;
    return m ? 100.0 * e / m : NAN;
}

/* Leave each group of kind out: its rows predicted by a fit without it,
 * beside the blog-derived constants (IBV0_BLOG) on the same rows.  Where
 * the rest hold one GPU count (ibv0_fit 2) only the held-out group's
 * one-GPU rows are scored.  Returns the pooled held-out MAPE; *base the
 * blog-derived MAPE over the same rows. */
static double ibv0_heldout(int kind, double *base) {
    double err = 0, eb = 0;
    int n = 0, partial = 0;
    printf("  leave-one-%s-out:", kind == 1 ? "GPU" : "family");
    for (int g = 0; g < (kind == 1 ? ndev : nfam); g++) {
        int ng, nb, nall;
        double c[3];
        ibv0_mape(kind, g, NULL, 0, &nall);
        int how = nall ? ibv0_fit(kind, g, c) : 0;
        if (!how) continue;
        double m = ibv0_mape(kind, g, c, how == 2, &ng), mb = ibv0_mape(kind, g, IBF.base, how == 2, &nb);
        const char *nm = kind == 1 ? devname[g] : famname[g];
        if (how == 2)
            printf("  %s %.1f %% (%s %.1f %%; its %d one-GPU rows of %d: the rest hold one GPU count, the "
                   "per-GPU term is not identified; fit %.2f + %.4f x running)", nm, m, IBF.base_name, mb, ng, nall, c[0],
                   c[2]);
        else
            printf("  %s %.1f %% (%s %.1f %%, %d rows; fit %.2f + %.2f x (GPUs - 1) + %.4f x running)", nm, m,
                   IBF.base_name, mb, ng, c[0], c[1], c[2]);
        partial |= how == 2;
        err += m * ng, eb += mb * nb, n += ng;
    }
    *base = n ? eb / n : NAN;
    double all = n ? err / n : NAN;
    if (n)
        printf("; all %.1f %% (%s %.1f %%, %d rows%s)", all, IBF.base_name, *base, n,
               partial ? ", one-GPU rows only where said" : "");
    printf("\n");
    return all;
}

/* A triple c applied to splitwise's decode steps (another data set, nothing
 * of it fitted): MAPE with c's CPU part in place of the library's. */
static double ibv0_on_splitwise(const double c[3], int *n) {
    double e = 0;
    int m = 0;
    for (int i = 0; i < nR; i++) {
        const row_t *r = &R[i];
        if (!sw_in(i, 0, 0) || !isfinite(r->a[T_TPOT]) || !isfinite(r->y[T_TPOT])) continue;
        double p = r->a[T_TPOT] - sw_ovh[i][1] + c[0] + c[1] * (r->wl.n_gpus - 1) + c[2] * (double)r->wl.concurrency;
        e += fabs(p - r->y[T_TPOT]) / r->y[T_TPOT];
        m++;
    }
    *n = m;
    return m ? 100.0 * e / m : NAN;
}

/* vllm-v0's offline CPU time per step refit on LLM-Inference-Bench's
 * vLLM <= 0.5 rows (H100, GH200), with leave-one-GPU-out,
 * leave-one-family-out and splitwise's decode steps as held-out checks,
 * beside h124's blog-derived constants and what the library compiles in
 * (llm_serve.c VLLM_V0_OFFLINE_*, this fit rounded, since h128). */
static void ibv0_report(void) {
    double c[3];
    int n, nb;
    IBF = (ibfit_t){DLP_LLM_ENGINE_VLLM_V0, -1, IBV0_BLOG, "blog-derived"};
    if (!ibv0_fit(0, -1, c)) return; /* no vllm-v0 infbench rows loaded */
    printf("\n### vllm-v0 offline: the CPU time per step refit on LLM-Inference-Bench's vLLM <= 0.5 rows\n\n"
           "derived step = (measured latency - our prefill of the batch) / (gen - 1); fitted: derived step - our "
           "GPU step = c0 + c1 x (GPUs - 1) + c2 x running; scored on e2e latency\n");
    printf("  blog-derived (h124, the leaderboard's x 29 / 62): %.2f + %.1f x (GPUs - 1) + %.4f x running\n",
           IBV0_BLOG[0], IBV0_BLOG[1], IBV0_BLOG[2]);
    double in = ibv0_mape(0, 0, c, 0, &n), b0 = ibv0_mape(0, 0, IBV0_BLOG, 0, &nb), k0 = ibv0_mape(0, 0, NULL, 0, &nb);
    printf("  in-sample: %.3f + %.3f x (GPUs - 1) + %.5f x running ms; e2e MAPE %.1f %% (blog-derived %.1f %%, "
           "compiled-in %.1f %%, %d rows)\n", c[0], c[1], c[2], in, b0, k0, n);
    double bg, bf, lg = ibv0_heldout(1, &bg), lf = ibv0_heldout(2, &bf);
    double sw = ibv0_on_splitwise(c, &n), sb = ibv0_on_splitwise(IBV0_BLOG, &nb);
    if (n) printf("  on splitwise's decode steps (another data set): %.1f %% (blog-derived %.1f %%, %d rows)\n", sw, sb, n);
    else printf("  on splitwise's decode steps: not loaded (run `all`)\n");
    int beats = isfinite(lg) && lg < bg && isfinite(lf) && lf < bf && n && sw < sb;
    printf("  every held-out check beats the blog-derived constants: %s\n", beats ? "yes" : n ? "no" : "splitwise not loaded");
}

/* ---- vLLM 0.6.1 offline (modern engine): the same fit, h131 -------------- */

/* The modern engine's CPU side before h131, served and offline alike
 * (llm_serve.c MODERN_CPU: round numbers, 0.35 ms + 0.010 ms per running
 * sequence, no per-GPU term): the reference the offline fit is judged
 * against. */
static const double IBM_ROUND[3] = {0.35, 0.0, 0.010};

/* The fit's triple c on each other GPU's rows of the engine (held out
 * whole: nothing of them fitted), beside the reference; *worst is 1 when
 * any GPU's rows score worse with c.  Prints, per GPU, also what a fit on
 * that GPU alone would say (a diagnostic: a CPU part that grows far faster
 * with the batch than A100's is GPU time the CPU term cannot carry). */
static void ibm_other_gpus(int fit_dev, const double c[3], int *worse) {
    printf("  the fit on the other GPUs' rows (held out whole):");
    for (int g = 0; g < ndev; g++) {
        if (g == fit_dev) continue;
        IBF.dev = g;
        int n, nb;
        double m = ibv0_mape(0, 0, c, 0, &n), mb = ibv0_mape(0, 0, IBF.base, 0, &nb), own[3];
        if (!n) continue;
        int how = ibv0_fit(0, -1, own);
        *worse |= !(m < mb);
        printf("  %s %.1f %% (%s %.1f %%, %d rows; fit on it alone %.2f + %.2f x (GPUs - 1) + %.4f x running)",
               devname[g], m, IBF.base_name, mb, n, own[0], how == 1 ? own[1] : NAN, own[2]);
    }
    IBF.dev = fit_dev;
    printf("\n");
}

/* The modern engine's offline CPU time per step refit on LLM-Inference-
 * Bench's vLLM 0.6.1 A100 rows (the modern engine's only NVIDIA vLLM rows):
 * in-sample, leave-one-family-out on A100, and the other GPUs' (MI250,
 * MI300X) rows held out whole, beside the round numbers it replaces
 * offline (llm_serve.c MODERN_OFFLINE_*, this fit rounded, since h131).
 * The served triple is not touched: silicon's served rows do not move. */
static void ibm_report(void) {
    int a100 = -1;
    for (int g = 0; g < ndev; g++)
        if (!strcmp(devname[g], "a100-40gb")) a100 = g;
    IBF = (ibfit_t){DLP_LLM_ENGINE_MODERN, a100, IBM_ROUND, "round numbers"};
    double c[3];
    int n, nb, worse = 0;
    if (a100 < 0 || ibv0_fit(0, -1, c) != 1) return; /* no A100 modern infbench rows (or one GPU count) */
    printf("\n### modern offline: the CPU time per step refit on LLM-Inference-Bench's vLLM 0.6.1 A100 rows\n\n"
           "the same fit as vllm-v0's above, on the A100 rows only (the ROCm rows' miss is GPU time: below)\n");
    printf("  round numbers (the served modern engine's, offline too before h131): %.2f + %.1f x (GPUs - 1) + %.4f x "
           "running\n", IBM_ROUND[0], IBM_ROUND[1], IBM_ROUND[2]);
    double in = ibv0_mape(0, 0, c, 0, &n), b0 = ibv0_mape(0, 0, IBM_ROUND, 0, &nb), k0 = ibv0_mape(0, 0, NULL, 0, &nb);
    printf("  in-sample: %.3f + %.3f x (GPUs - 1) + %.5f x running ms; e2e MAPE %.1f %% (round numbers %.1f %%, "
           "compiled-in %.1f %%, %d rows)\n", c[0], c[1], c[2], in, b0, k0, n);
    double bf, lf = ibv0_heldout(2, &bf);
    ibm_other_gpus(a100, c, &worse);
    /* pooled over every GPU of the engine, leave-one-GPU-out: a diagnostic
     * (the ROCm rows' GPU miss would enter the CPU term) */
    IBF.dev = -1;
    double bg;
    printf("  diagnostic, fitted on every GPU's rows (not compiled in):");
    ibv0_heldout(1, &bg);
    IBF.dev = a100;
    int beats = isfinite(lf) && lf < bf && !worse;
    printf("  every held-out check beats the round numbers: %s\n", beats ? "yes" : "no");
}

/* ---- vLLM 0.6.1 on ROCm: one GPU-time factor, leave-one-GPU-out (h141) -- */

/* Where the MI250 / MI300X rows miss (docs/llm.md "h141"): the measured
 * offline batches were 1.9-2.1x our GPU time on both ROCm GPUs at every
 * length and batch to 32, and MI300X's grows with batch x context.  Upstream
 * vLLM v0.6.1 (what the run scripts build: `git checkout v0.6.1`,
 * Dockerfile.rocm) has none of the decode kernels of AMD's ROCm fork
 * (llm_serve.c rocm_offline_gpu_x), and no source gives the old kernels'
 * share of peak, so the factor is fitted here on the rows, each ROCm GPU
 * held out whole.  The rows carry the compiled-in factor K0
 * (DLP__LLM_ROCM_OFFLINE_GPU_X); k below multiplies it, so k = 1 is the
 * compiled-in answer, k = 1 / K0 the answer without it (the fit's fixed
 * point: k = 1 pooled).  A ROCm row: the modern engine (vLLM 0.6.1) on an
 * AMD system. */
static int ibr_row(const row_t *r) {
    return !strcmp(r->set, "infbench") && r->wl.engine == DLP_LLM_ENGINE_MODERN && !strncmp(r->system, "AMD", 3) &&
           isfinite(r->y[T_E2E]) && r->wl.gen_tokens > 1 && isfinite(r->a[T_TTFT]) && r->dec_ms > 0;
}

/* The row's e2e with its GPU time x k: the prefill and each step's GPU part
 * (dec_ms - ovh_ms) scaled, the engine's CPU part per step (ovh_ms) kept
 * (the prefill's own CPU part, 3 ms of seconds, is scaled with it). */
static double ibr_e2e(const row_t *r, double k) {
    return k * r->a[T_TTFT] + (double)(r->wl.gen_tokens - 1) * (k * (r->dec_ms - r->ovh_ms) + r->ovh_ms);
}

/* e2e MAPE with factor k over the ROCm rows on GPU dev (skip < 0) or on
 * every ROCm GPU but skip (dev < 0); rows in *n. */
static double ibr_mape(int dev, int skip, double k, int *n) {
    double e = 0;
    int m = 0;
    for (int i = 0; i < nR; i++) {
        const row_t *r = &R[i];
        if (!ibr_row(r) || (dev >= 0 && r->dev != dev) || (skip >= 0 && r->dev == skip)) continue;
        e += fabs(ibr_e2e(r, k) - r->y[T_E2E]) / r->y[T_E2E];
        m++;
    }
    *n = m;
    return m ? 100.0 * e / m : NAN;
}

/* The k of least MAPE on the ROCm rows but GPU skip's: a scan over
 * 0.200-4.000 by 0.002 (MAPE in one factor is convex enough for a scan,
 * and a scan needs no derivative of |x|). */
static double ibr_fit(int skip) {
    double best = NAN, bk = 1.0;
    for (int i = 100; i <= 2000; i++) {
        int n;
        double m = ibr_mape(-1, skip, i / 500.0, &n);
        if (n && (isnan(best) || m < best)) best = m, bk = i / 500.0;
    }
    return bk;
}

/* ---- TensorRT-LLM offline: the single-block decode-attention rate (h173) ---
 *
 * llm_serve.c trt_cta_rate: LLM-Inference-Bench's TensorRT-LLM engines
 * (0.11 on A100 / H100, 0.12 on GH200, multi_block_mode off) run one
 * decode-attention thread block per head and sequence, so a step's
 * attention lasts at least one block's stream of one KV head's cache, at a
 * rate per SM clock fitted here.  Each TensorRT-LLM row with an e2e latency
 * is predicted again at every rate of a scan (dlp__llm_knob.trt_cta_bpc), and the
 * rate is refit leaving out each GPU and each model family in turn, beside
 * the answer without the floor. */
#define IBT_NR 26 /* rates 8, 10, ..., 58 bytes per SM clock */
static double ibt_bpc(int k) { return 8.0 + 2.0 * k; }
static int ibt_row(const row_t *r) {
    return !strcmp(r->set, "infbench") && r->wl.engine == DLP_LLM_ENGINE_TRTLLM && isfinite(r->y[T_E2E]);
}

/* Row r predicted with one library knob (a dlp__llm_knob field) at v and
 * the field restored after: the refit scans below (the TensorRT-LLM block
 * rate, 0.11's host time, the memory share) each ask the model one what-if
 * a row.  Nonzero if the row is refused. */
static int predict_with(const row_t *r, double *knob, double v, dlp_llm_prediction *p) {
    dlp_error e = {0};
    dlp_llm_config c;
    const dlp_device *d = dlp_devdb_find(db, devname[r->dev]);
    if (!d || dlp_llm_catalogue_get(r->model, &c, &e)) return 1;
    double was = *knob;
    *knob = v;
    int bad = dlp_llm_predict(&c, d, db, &r->wl, &ANALYTIC, p, &e);
    *knob = was;
    return bad;
}

/* The row's e2e at rate bpc (< 0: no floor); NAN if it is refused. */
static double ibt_e2e(const row_t *r, double bpc) {
    dlp_llm_prediction p;
    return predict_with(r, &dlp__llm_knob.trt_cta_bpc, bpc, &p) ? NAN : p.e2e_ms;
}

/* e2e MAPE of column k of P (k = IBT_NR: no floor) over the rows in
 * group g of kind (1 GPU, 2 family; 0 all), or outside it when out. */
static double ibt_mape(double (*P)[IBT_NR + 1], const int *ix, int n, int k, int kind, int g, int out, int *m) {
    double e = 0;
    int c = 0;
    for (int i = 0; i < n; i++) {
        const row_t *r = &R[ix[i]];
        int in = kind == 0 || (kind == 1 ? r->dev == g : r->fam == g);
        if (in == out || !isfinite(P[i][k])) continue;
        e += fabs(P[i][k] - r->y[T_E2E]) / r->y[T_E2E];
        c++;
    }
    *m = c;
    return c ? 100.0 * e / c : NAN;
}

/* The fit's target is what the floor is for: how a step grows with the
 * context at one sequence, where the blocks are fewest.  Each B 1 row at L
 * > 128 is paired with the L 128 row of its GPU, model and TP; the derived
 * step (measured e2e less our prefill, over gen - 1) grows by g between the
 * two, ours by g(k) at column k; the error |g(k) - g| is taken relative to
 * the longer row's derived step, so that it reads as that row's e2e error.
 * A fit on the e2e latency itself would not do: below the growth the steps
 * carry a per-step excess flat in the context (docs/llm.md "h173"), which a
 * low rate soaks up at every length.  Returns the mean relative error over
 * the pairs in (out = 0) or outside (out = 1) group g of kind; pairs in *m. */
static int ibt_pair(int a, int b) {
    const row_t *x = &R[a], *y = &R[b];
    return x->dev == y->dev && !strcmp(x->model, y->model) && x->wl.n_gpus == y->wl.n_gpus &&
           x->wl.concurrency == 1 && y->wl.concurrency == 1 && y->wl.seq == 128 && x->wl.seq > 128;
}
static double ibt_step(const row_t *r, double e2e) {
    return (e2e - r->a[T_TTFT]) / (double)(r->wl.gen_tokens - 1);
}
static double ibt_growth_err(double (*P)[IBT_NR + 1], const int *ix, int n, int k, int kind, int g, int out, int *m) {
    double e = 0;
    int c = 0;
    for (int i = 0; i < n; i++) {
        const row_t *x = &R[ix[i]];
        int in = kind == 0 || (kind == 1 ? x->dev == g : x->fam == g);
        if (in == out || x->wl.gen_tokens < 2) continue;
        for (int j = 0; j < n; j++) {
            if (!ibt_pair(ix[i], ix[j])) continue;
            const row_t *y = &R[ix[j]];
            double sx = ibt_step(x, x->y[T_E2E]), gm = sx - ibt_step(y, y->y[T_E2E]);
            double gp = ibt_step(x, P[i][k]) - ibt_step(y, P[j][k]);
            if (!(sx > 0) || !isfinite(gp)) continue;
            e += fabs(gp - gm) / sx;
            c++;
        }
    }
    *m = c;
    return c ? 100.0 * e / c : NAN;
}

/* The column of least growth error over the pairs outside group g of kind
 * (kind 0: all); -1 if none. */
static int ibt_fit(double (*P)[IBT_NR + 1], const int *ix, int n, int kind, int g) {
    int best = -1, m;
    double bm = INFINITY;
    for (int k = 0; k < IBT_NR; k++) {
        double v = ibt_growth_err(P, ix, n, k, kind, g, kind ? 1 : 0, &m);
        if (m && v < bm) bm = v, best = k;
    }
    return best;
}

/* Leave each group of kind out: the rate fitted on the other groups' pairs;
 * the held-out group's growth error and e2e MAPE (all its rows) at it,
 * against no floor. */
static void ibt_heldout(double (*P)[IBT_NR + 1], const int *ix, int n, int kind) {
    double eh = 0, e0 = 0, gh = 0, g0 = 0;
    int nh = 0, ng = 0;
    printf("  leave-one-%s-out:", kind == 1 ? "GPU" : "family");
    for (int g = 0; g < (kind == 1 ? ndev : nfam); g++) {
        int m, mg;
        if (ibt_mape(P, ix, n, IBT_NR, kind, g, 0, &m), !m) continue;
        int best = ibt_fit(P, ix, n, kind, g);
        if (best < 0) continue;
        double h = ibt_mape(P, ix, n, best, kind, g, 0, &m), h0 = ibt_mape(P, ix, n, IBT_NR, kind, g, 0, &m);
        double q = ibt_growth_err(P, ix, n, best, kind, g, 0, &mg), q0 = ibt_growth_err(P, ix, n, IBT_NR, kind, g, 0, &mg);
        printf("  %s: fit %.0f, growth %.1f %% (no floor %.1f %%, %d pairs), e2e %.1f %% (no floor %.1f %%, %d rows)",
               kind == 1 ? devname[g] : famname[g], ibt_bpc(best), q, q0, mg, h, h0, m);
        eh += h * m, e0 += h0 * m, nh += m;
        if (mg) gh += q * mg, g0 += q0 * mg, ng += mg;
    }
    if (nh)
        printf("; all: growth %.1f %% (no floor %.1f %%, %d pairs), e2e %.1f %% (no floor %.1f %%, %d rows)",
               ng ? gh / ng : NAN, ng ? g0 / ng : NAN, ng, eh / nh, e0 / nh, nh);
    printf("\n");
}

static void ibt_report(void) {
    int *ix = malloc(sizeof(int) * (size_t)(nR > 0 ? nR : 1)), n = 0;
    double(*P)[IBT_NR + 1] = malloc(sizeof *P * (size_t)(nR > 0 ? nR : 1));
    if (!ix || !P) goto out;
    for (int i = 0; i < nR; i++)
        if (ibt_row(&R[i])) ix[n++] = i;
    if (!n) goto out;
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < IBT_NR; k++) P[i][k] = ibt_e2e(&R[ix[i]], ibt_bpc(k));
        P[i][IBT_NR] = ibt_e2e(&R[ix[i]], -1.0);
    }
    printf("\n### TensorRT-LLM offline (0.11 / 0.12, multi_block_mode off): the single-block decode-attention rate "
           "refit\n\nper layer, decode attention >= its kernel floor + one KV head's cache of one sequence / (rate x "
           "boost clock); compiled in %.0f bytes per SM clock (llm_serve.c trt_cta_rate); fitted on the growth of the "
           "derived step from L 128 to L at B 1 (error relative to the step), scored on it and on e2e latency\n",
           DLP__LLM_TRT_CTA_BYTES_PER_CLK);
    int m, mg, best = ibt_fit(P, ix, n, 0, 0);
    if (best < 0) goto out;
    double q = ibt_growth_err(P, ix, n, best, 0, 0, 0, &mg), q0 = ibt_growth_err(P, ix, n, IBT_NR, 0, 0, 0, &mg);
    double e = ibt_mape(P, ix, n, best, 0, 0, 0, &m), e0 = ibt_mape(P, ix, n, IBT_NR, 0, 0, 0, &m);
    printf("  in-sample: %.0f bytes per SM clock, growth %.1f %% (no floor %.1f %%, %d pairs), e2e MAPE %.1f %% (no "
           "floor %.1f %%, %d rows)\n", ibt_bpc(best), q, q0, mg, e, e0, m);
    ibt_heldout(P, ix, n, 1);
    ibt_heldout(P, ix, n, 2);
out:
    free(ix);
    free(P);
}

/* ---- TensorRT-LLM 0.11: a host time per layer per step (h222, a what-if) ---
 *
 * llm_serve.c trt011_host_s: the A100 / H100 TensorRT-LLM rows (0.11, the
 * workload's trt_xqa_block) predicted again at each host time per layer of
 * a scan; the time refit on e2e latency leaving out each GPU and each
 * family, and at the in-sample fit what the power rows' power and energy
 * become (the time charged at the GPU's floor).  Nothing compiled in: the
 * answers stay at --trt011-layer-ms (0 unless given). */
#define IBL_NR 17 /* 0, 5, ..., 80 us a layer */
static double ibl_ms(int k) { return 0.005 * k; }
static int ibl_row(const row_t *r) {
    return !strcmp(r->set, "infbench") && r->wl.engine == DLP_LLM_ENGINE_TRTLLM && r->wl.trt_xqa_block &&
           (isfinite(r->y[T_E2E]) || isfinite(r->y[T_POWER]));
}

/* The row at host time ms a layer: e2e, power and energy in v[0..2]. */
static int ibl_predict(const row_t *r, double ms, double v[3]) {
    dlp_llm_prediction p;
    if (predict_with(r, &dlp__llm_knob.trt011_layer_ms, ms, &p)) return 0;
    v[0] = p.e2e_ms, v[1] = p.power_per_gpu_w, v[2] = p.energy_j;
    return 1;
}

/* Mean |err| (%) of target t (0 e2e, 1 power, 2 energy) at column k over the
 * rows in (out 0) or outside (out 1) group g of kind (0 all, 1 GPU, 2
 * family); rows in *m. */
static double ibl_mape(double (*P)[IBL_NR][3], const int *ix, int n, int k, int t, int kind, int g, int out, int *m) {
    static const int col[3] = {T_E2E, T_POWER, T_ENERGY};
    double e = 0;
    int c = 0;
    for (int i = 0; i < n; i++) {
        const row_t *r = &R[ix[i]];
        int in = kind == 0 || (kind == 1 ? r->dev == g : r->fam == g);
        double y = r->y[col[t]], a = P[i][k][t];
        if (in == out || !isfinite(y) || !isfinite(a)) continue;
        e += fabs(a - y) / y;
        c++;
    }
    *m = c;
    return c ? 100.0 * e / c : NAN;
}

static int ibl_fit(double (*P)[IBL_NR][3], const int *ix, int n, int kind, int g) {
    int best = -1, m;
    double bm = INFINITY;
    for (int k = 0; k < IBL_NR; k++) {
        double v = ibl_mape(P, ix, n, k, 0, kind, g, kind ? 1 : 0, &m);
        if (m && v < bm) bm = v, best = k;
    }
    return best;
}

static void ibl_heldout(double (*P)[IBL_NR][3], const int *ix, int n, int kind) {
    double eh = 0, e0 = 0;
    int nh = 0;
    printf("  leave-one-%s-out:", kind == 1 ? "GPU" : "family");
    for (int g = 0; g < (kind == 1 ? ndev : nfam); g++) {
        int m, best = ibl_fit(P, ix, n, kind, g);
        double h0 = ibl_mape(P, ix, n, 0, 0, kind, g, 0, &m);
        if (!m || best < 0) continue;
        double h = ibl_mape(P, ix, n, best, 0, kind, g, 0, &m);
        printf("  %s: fit %.3f ms, e2e %.1f %% (none %.1f %%, %d rows)", kind == 1 ? devname[g] : famname[g],
               ibl_ms(best), h, h0, m);
        eh += h * m, e0 += h0 * m, nh += m;
    }
    if (nh) printf("; all: e2e %.1f %% (none %.1f %%, %d rows)", eh / nh, e0 / nh, nh);
    printf("\n");
}

static void ibl_report(void) {
    int *ix = malloc(sizeof(int) * (size_t)(nR > 0 ? nR : 1)), n = 0, m, mp;
    double(*P)[IBL_NR][3] = malloc(sizeof *P * (size_t)(nR > 0 ? nR : 1));
    if (!ix || !P) goto out;
    for (int i = 0; i < nR; i++)
        if (ibl_row(&R[i])) ix[n++] = i;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < IBL_NR; k++)
            if (!ibl_predict(&R[ix[i]], ibl_ms(k), P[i][k])) P[i][k][0] = P[i][k][1] = P[i][k][2] = NAN;
    int best = n ? ibl_fit(P, ix, n, 0, 0) : -1;
    if (best < 0) goto out;
    printf("\n### TensorRT-LLM 0.11 offline (A100 / H100): a host time per layer per step, refit (a what-if, not "
           "compiled in)\n\nllm_serve.c trt011_host_s: engine CPU time = t x layers a step, the GPU at its floor "
           "meanwhile; fitted on e2e latency over the 0.11 rows; the answers above use --trt011-layer-ms %.3f\n",
           dlp__llm_knob.trt011_layer_ms);
    double e = ibl_mape(P, ix, n, best, 0, 0, 0, 0, &m), e0 = ibl_mape(P, ix, n, 0, 0, 0, 0, 0, &m);
    double pw = ibl_mape(P, ix, n, best, 1, 0, 0, 0, &mp), pw0 = ibl_mape(P, ix, n, 0, 1, 0, 0, 0, &mp);
    double en = ibl_mape(P, ix, n, best, 2, 0, 0, 0, &mp), en0 = ibl_mape(P, ix, n, 0, 2, 0, 0, 0, &mp);
    printf("  in-sample: %.3f ms a layer, e2e %.1f %% (none %.1f %%, %d rows); its power rows: power %.1f %% (none "
           "%.1f %%), energy %.1f %% (none %.1f %%, %d rows)\n", ibl_ms(best), e, e0, m, pw, pw0, en, en0, mp);
    ibl_heldout(P, ix, n, 1);
    ibl_heldout(P, ix, n, 2);
out:
    free(ix);
    free(P);
}

/* ---- the modern engines' memory share refit on LLM-Inference-Bench's power (h225) ----
 *
 * llm_serve.c P_FIT_MEM (the shared shares' memory share, a 0.45 prior
 * before h225): LLM-Inference-Bench's power rows that the shared shares
 * answer (TensorRT-LLM on A100 / H100 / GH200, vLLM 0.6.1 on A100; the
 * vllm-v0 rows keep the leaderboard's P_V0_*) predicted again at each
 * share of a scan, the vLLM harness's idle second (ib_probe_tail) applied
 * as in the scored rows; the share fitted on power (energy would fold the
 * time's error in), then refit leaving out each GPU, each engine and each
 * family, each held-out group scored on power and energy at its own fit. */
#define IBP_NR 121 /* 0.30, 0.31, ..., 1.50 */
static double ibp_pm(int k) { return 0.30 + 0.01 * k; }
static int ibp_row(const row_t *r) {
    return !strcmp(r->set, "infbench") && r->wl.engine != DLP_LLM_ENGINE_VLLM_V0 && isfinite(r->y[T_POWER]) &&
           isfinite(r->y[T_ENERGY]);
}

/* The row at share pm: power and energy as scored, in v[0..1]. */
static int ibp_predict(const row_t *r, double pm, double v[2]) {
    dlp_llm_prediction p;
    if (predict_with(r, &dlp__llm_knob.p_fit_mem, pm, &p) || !(p.power_per_gpu_w > 0)) return 0;
    double T = p.e2e_ms * 1e-3, P = p.power_per_gpu_w, pw = P;
    if (r->wl.engine != DLP_LLM_ENGINE_TRTLLM && !ib_tail_off && T > 0) pw = (P * T + r->idle_w) / (T + 1.0);
    v[0] = pw, v[1] = p.energy_j * pw / P;
    return 1;
}

/* The group key of kind 1 (GPU), 2 (engine), 3 (model: the power rows are
 * two Llama generations of one family, Llama-2-7B and Llama-3-8B, so the
 * family split is the model's; ibp_models, filled by ibp_report). */
#define IBP_NM 16
static const char *ibp_models[IBP_NM];
static int ibp_nm;
static int ibp_model(const char *m) {
    for (int i = 0; i < ibp_nm; i++)
        if (!strcmp(ibp_models[i], m)) return i;
    if (ibp_nm == IBP_NM) return IBP_NM - 1;
    ibp_models[ibp_nm] = m;
    return ibp_nm++;
}
static int ibp_key(const row_t *r, int kind) {
    return kind == 1 ? r->dev : kind == 2 ? (r->wl.engine == DLP_LLM_ENGINE_TRTLLM) : ibp_model(r->model);
}

/* Mean |err| (%) of target t (0 power, 1 energy) at column k (-1: the
 * compiled-in share) over the rows in (out 0) or outside (out 1) group g of
 * kind (0 all); rows in *m. */
static double ibp_mape(double (*P)[IBP_NR + 1][2], const int *ix, int n, int k, int t, int kind, int g, int out,
                       int *m) {
    double e = 0;
    int c = 0;
    for (int i = 0; i < n; i++) {
        const row_t *r = &R[ix[i]];
        int in = kind == 0 || ibp_key(r, kind) == g;
        double y = r->y[t ? T_ENERGY : T_POWER], a = P[i][k < 0 ? IBP_NR : k][t];
        if (in == out || !isfinite(a)) continue;
        e += fabs(a - y) / y;
        c++;
    }
    *m = c;
    return c ? 100.0 * e / c : NAN;
}

static int ibp_fit(double (*P)[IBP_NR + 1][2], const int *ix, int n, int kind, int g) {
    int best = -1, m;
    double bm = INFINITY;
    for (int k = 0; k < IBP_NR; k++) {
        double v = ibp_mape(P, ix, n, k, 0, kind, g, kind ? 1 : 0, &m);
        if (m && v < bm) bm = v, best = k;
    }
    return best;
}

static void ibp_heldout(double (*P)[IBP_NR + 1][2], const int *ix, int n, int kind, double prior) {
    static const char *const kname[] = {"", "GPU", "engine", "model (family)"};
    int ng = kind == 1 ? ndev : kind == 2 ? 2 : ibp_nm, kp = (int)lround((prior - 0.30) / 0.01);
    double ep = 0, ee = 0, pp = 0, pe = 0;
    int nh = 0;
    printf("  leave-one-%s-out:", kname[kind]);
    for (int g = 0; g < ng; g++) {
        int m, best = ibp_fit(P, ix, n, kind, g);
        if (best < 0 || !(ibp_mape(P, ix, n, best, 0, kind, g, 0, &m) >= 0) || !m) continue;
        double hp = ibp_mape(P, ix, n, best, 0, kind, g, 0, &m), he = ibp_mape(P, ix, n, best, 1, kind, g, 0, &m);
        double p0 = ibp_mape(P, ix, n, kp, 0, kind, g, 0, &m), e0 = ibp_mape(P, ix, n, kp, 1, kind, g, 0, &m);
        printf("  %s: fit %.2f, power %.1f %% (%.2f: %.1f %%), energy %.1f %% (%.1f %%), %d rows",
               kind == 1 ? devname[g] : kind == 2 ? (g ? "TensorRT-LLM" : "vLLM") : ibp_models[g], ibp_pm(best), hp,
               prior, p0, he, e0, m);
        ep += hp * m, ee += he * m, pp += p0 * m, pe += e0 * m, nh += m;
    }
    if (nh) printf("; all: power %.1f %% (%.1f %%), energy %.1f %% (%.1f %%)", ep / nh, pp / nh, ee / nh, pe / nh);
    printf("\n");
}

static void ibp_report(void) {
    int *ix = malloc(sizeof(int) * (size_t)(nR > 0 ? nR : 1)), n = 0, m;
    double(*P)[IBP_NR + 1][2] = malloc(sizeof *P * (size_t)(nR > 0 ? nR : 1));
    if (!ix || !P) goto out;
    for (int i = 0; i < nR; i++)
        if (ibp_row(&R[i])) ix[n++] = i, ibp_model(R[i].model);
    for (int i = 0; i < n; i++)
        for (int k = 0; k <= IBP_NR; k++)
            if (!ibp_predict(&R[ix[i]], k < IBP_NR ? ibp_pm(k) : 0, P[i][k])) P[i][k][0] = P[i][k][1] = NAN;
    int best = n ? ibp_fit(P, ix, n, 0, 0) : -1;
    if (best < 0) goto out;
    printf("\n### LLM-Inference-Bench power: the modern engines' memory share refit (llm_serve.c P_FIT_MEM, compiled "
           "in %.2f; the 0.45 prior before h225)\n\nfitted on the power of the rows on the shared shares (TensorRT-LLM, "
           "vLLM 0.6.1 on A100), GH200 scaled as its die (devices.json die_tdp_w); the answers above use %.2f\n",
           dlp__llm_knob.p_fit_mem > 0 ? dlp__llm_knob.p_fit_mem : DLP__LLM_P_FIT_MEM, dlp__llm_knob.p_fit_mem > 0 ?
           dlp__llm_knob.p_fit_mem : DLP__LLM_P_FIT_MEM);
    double p1 = ibp_mape(P, ix, n, best, 0, 0, 0, 0, &m), e1 = ibp_mape(P, ix, n, best, 1, 0, 0, 0, &m);
    double pc = ibp_mape(P, ix, n, -1, 0, 0, 0, 0, &m), ec = ibp_mape(P, ix, n, -1, 1, 0, 0, 0, &m);
    int kp = (int)lround((0.45 - 0.30) / 0.01);
    double p0 = ibp_mape(P, ix, n, kp, 0, 0, 0, 0, &m), e0 = ibp_mape(P, ix, n, kp, 1, 0, 0, 0, &m);
    printf("  in-sample: %.2f, power %.1f %%, energy %.1f %% (the 0.45 prior: %.1f / %.1f %%; compiled in: %.1f / "
           "%.1f %%; %d rows)\n", ibp_pm(best), p1, e1, p0, e0, pc, ec, m);
    for (int kind = 1; kind <= 3; kind++) ibp_heldout(P, ix, n, kind, 0.45);
out:
    free(ix);
    free(P);
}

/* Fit on one ROCm GPU, judged on the other (and the reverse), beside the
 * answer without the factor; the NVIDIA rows are outside it by
 * construction (rocm_offline_gpu_x is 1 there). */
static void ibr_report(void) {
    int g[MAXG], ng = 0, n;
    const double k0 = DLP__LLM_ROCM_OFFLINE_GPU_X;
    for (int d = 0; d < ndev && ng < MAXG; d++)
        if (ibr_mape(d, -1, 1.0, &n), n) g[ng++] = d;
    if (ng < 2) return; /* one ROCm GPU or none: nothing to hold out */
    printf("\n### vLLM 0.6.1 on ROCm: the GPU-time factor refit, leave-one-GPU-out\n\n"
           "predicted e2e = K x (our prefill + our GPU step x (gen - 1)) + the engine's CPU time per step x (gen - 1); "
           "compiled in K = %.2f (llm_serve.c rocm_offline_gpu_x), without it K = 1\n", k0);
    int beats = 1;
    for (int i = 0; i < ng; i++) {
        double k = ibr_fit(g[i]);
        int nh, nin;
        double held = ibr_mape(g[i], -1, k, &nh), none = ibr_mape(g[i], -1, 1.0 / k0, &nh);
        double in = ibr_mape(-1, g[i], k, &nin);
        beats &= held < none;
        printf("  %s held out: K %.2f fitted on the others (in-sample %.1f %%, %d rows); %s %.1f %% (K = 1: %.1f %%, "
               "%d rows)\n", devname[g[i]], k * k0, in, nin, devname[g[i]], held, none, nh);
    }
    double k = ibr_fit(-1);
    printf("  pooled: K %.2f, e2e MAPE %.1f %% (compiled-in %.1f %%, K = 1: %.1f %%)\n", k * k0,
           ibr_mape(-1, -1, k, &n), ibr_mape(-1, -1, 1.0, &n), ibr_mape(-1, -1, 1.0 / k0, &n));
    printf("  every held-out check beats K = 1: %s\n", beats ? "yes" : "no");
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: bench_serving DATA_DIR [silicon|leaderboard|splitwise|infbench|speed|all] [--rows FILE] [--analytic-only] "
                        "[--split FAMILY] [--lowload] [--recipes FILE|none] [--vllm-ep FILE|none] [--vllm-scripts FILE|none] [--vllm-ungraphed-ms X] "
                        "[--recv-interval FILE|none] [--sglang-mem FILE|none] [--sglang-ep-moe FILE|none] [--spec-agg FILE|none] [--ttft-sim] "
                        "[--agg-sim|--agg-sim-tpot] "
                        "[--no-rocm-floor] [--rocm-gemm-c C] [--rocm-v1-eta E] [--no-trt-cta-floor] [--no-floor-sm] [--no-same-prompts] [--no-probe-tail] [--vllm-admission] [--slot-wait-closed] [--no-adp-balance] [--gptoss-trt-layout BITS] [--imax-square4 0|1] [--sgl-dsa-kv 0|1] [--moe-grouped M] [--no-gen-poll] [--trt-ctx-sim] [--sgl-batch-sim M] [--no-trt-ctx-mv] [--trt-fp4-ew BITS] [--moe-imb-fp4 BITS] [--trt011-layer-ms MS] [--p-fit-mem PM]\n");
        return 2;
    }
    const char *root = argv[1], *which = argc > 2 && argv[2][0] != '-' ? argv[2] : "all";
    const char *rows_out = NULL;
    int recipes_explicit = 0;
    for (int i = 2; i < argc; i++)
        if (!strcmp(argv[i], "--rows") && i + 1 < argc) rows_out = argv[++i];
        else if (!strcmp(argv[i], "--analytic-only")) analytic_only = 1;
        else if (!strcmp(argv[i], "--split") && i + 1 < argc) split_family = argv[++i];
        else if (!strcmp(argv[i], "--lowload")) lowload = 1;
        else if (!strcmp(argv[i], "--slot-wait-closed")) slot_rr = 0; /* h140's closed form alone */
        else if (!strcmp(argv[i], "--ttft-sim")) dlp__llm_knob.ttft_sim = 1;
        else if (!strcmp(argv[i], "--agg-sim")) agg_sim_mode = 1;
        else if (!strcmp(argv[i], "--agg-sim-tpot")) agg_sim_mode = 2;
        else if (!strcmp(argv[i], "--no-rocm-floor")) dlp__llm_knob.rocm_floor_off = 1;
        else if (!strcmp(argv[i], "--rocm-gemm-c") && i + 1 < argc) dlp__llm_knob.rocm_gemm_c = atof(argv[++i]);
        else if (!strcmp(argv[i], "--rocm-v1-eta") && i + 1 < argc) dlp__llm_knob.rocm_v1_eta = atof(argv[++i]);
        else if (!strcmp(argv[i], "--no-trt-cta-floor")) dlp__llm_knob.trt_cta_bpc = -1.0;
        else if (!strcmp(argv[i], "--no-trt-xqa")) ib_xqa_off = 1;
        else if (!strcmp(argv[i], "--no-floor-sm")) dlp__llm_knob.floor_sm_draw = 0;
        else if (!strcmp(argv[i], "--trt-xqa-bpc") && i + 1 < argc) dlp__llm_knob.trt_xqa_bpc = atof(argv[++i]);
        else if (!strcmp(argv[i], "--trt011-layer-ms") && i + 1 < argc) dlp__llm_knob.trt011_layer_ms = atof(argv[++i]); /* h222 */
        else if (!strcmp(argv[i], "--p-fit-mem") && i + 1 < argc) dlp__llm_knob.p_fit_mem = atof(argv[++i]); /* h225 */
        else if (!strcmp(argv[i], "--moe-hits-fit") && i + 1 < argc) dlp__llm_knob.moe_hits_fit = atoi(argv[++i]); /* h227 */
        else if (!strcmp(argv[i], "--mla-dec-math") && i + 1 < argc) dlp__llm_knob.mla_dec_math = atoi(argv[++i]); /* h229 */
        else if (!strcmp(argv[i], "--sgl-moe-rows") && i + 1 < argc) dlp__llm_knob.sgl_moe_rows = atoi(argv[++i]); /* h244 */
        else if (!strcmp(argv[i], "--sgl-b300-req-ms") && i + 1 < argc) dlp__llm_knob.sgl_b300_req_ms = atof(argv[++i]); /* h248 */
        else if (!strcmp(argv[i], "--ep-busiest") && i + 1 < argc) dlp__llm_knob.ep_busiest = atoi(argv[++i]); /* h236 */
        else if (!strcmp(argv[i], "--mla-gen-mod") && i + 1 < argc) dlp__llm_knob.mla_gen_mod = atoi(argv[++i]); /* h236 */
        else if (!strcmp(argv[i], "--dsa-gen-mod") && i + 1 < argc) dlp__llm_knob.dsa_gen_mod = atoi(argv[++i]); /* h245 */
        else if (!strcmp(argv[i], "--sgl-fmha") && i + 1 < argc) dlp__llm_knob.sgl_fmha = atoi(argv[++i]); /* h241 */
        else if (!strcmp(argv[i], "--moe-grouped") && i + 1 < argc) dlp__llm_knob.moe_grouped = atoi(argv[++i]); /* h242 */
        else if (!strcmp(argv[i], "--sgl-moe-fi") && i + 1 < argc) dlp__llm_knob.sgl_moe_fi = atoi(argv[++i]); /* h247 */
        else if (!strcmp(argv[i], "--no-same-prompts")) ib_same_off = 1; /* h185's before */
        else if (!strcmp(argv[i], "--no-probe-tail")) ib_tail_off = 1;   /* h195's before */
        else if (!strcmp(argv[i], "--vllm-admission")) dlp__llm_knob.trt_evict = 1; /* h185's before */
        else if (!strcmp(argv[i], "--fused-elem") && i + 1 < argc) dlp__llm_knob.fused_elem = atoi(argv[++i]); /* h198 */
        else if (!strcmp(argv[i], "--prompt-draw") && i + 1 < argc) prompt_draw_ratio = atof(argv[++i]); /* h230 */
        else if (!strcmp(argv[i], "--gemm-each") && i + 1 < argc) dlp__llm_knob.gemm_each = atoi(argv[++i]); /* h211 */
        else if (!strcmp(argv[i], "--trtgen-mxfp4") && i + 1 < argc) dlp__llm_knob.trtgen_mxfp4 = atoi(argv[++i]); /* h223 */
        else if (!strcmp(argv[i], "--trtgen-pf") && i + 1 < argc) /* h223: "A,ETA", the held-out fits */
            sscanf(argv[++i], "%lf,%lf", &dlp__llm_knob.trtgen_pf[0], &dlp__llm_knob.trtgen_pf[1]);
        else if (!strcmp(argv[i], "--fused-eta") && i + 1 < argc) dlp__llm_knob.fused_eta = atof(argv[++i]);
        else if (!strcmp(argv[i], "--no-adp-balance")) no_adp_balance = 1;
        else if (!strcmp(argv[i], "--no-gap-twin")) no_gap_twin = 1;
        else if (!strcmp(argv[i], "--sglang-agg-mtp") && i + 1 < argc) sglang_mtp_p = atof(argv[++i]);

        else if (!strcmp(argv[i], "--gptoss-trt-layout") && i + 1 < argc) gptoss_trt_layout = atoi(argv[++i]); /* h238 */
        else if (!strcmp(argv[i], "--imax-square4") && i + 1 < argc) imax_square4_on = atoi(argv[++i]); /* h244 */
        else if (!strcmp(argv[i], "--sgl-dsa-kv") && i + 1 < argc) sgl_dsa_kv = atoi(argv[++i]); /* h242 */
        else if (!strcmp(argv[i], "--no-adp-max-tokens")) no_adp_mnt = 1;
        else if (!strcmp(argv[i], "--no-gen-poll")) no_gen_poll = 1; /* h175's before */
        else if (!strcmp(argv[i], "--trt-ctx-sim")) trt_ctx_sim_on = 1; /* h200, off by default */
        else if (!strcmp(argv[i], "--sgl-batch-sim") && i + 1 < argc) sgl_batch_on = atoi(argv[++i]); /* h235, 0 by default */

        else if (!strcmp(argv[i], "--trt-ctx-mv")) trt_ctx_mv_on = 1;   /* h237, the default */
        else if (!strcmp(argv[i], "--no-trt-ctx-mv")) trt_ctx_mv_on = 0;
        else if (!strcmp(argv[i], "--trt-fp4-ew") && i + 1 < argc) dlp__llm_knob.trt_fp4_ew = atoi(argv[++i]); /* h240, off */
        else if (!strcmp(argv[i], "--trt-mla-ew") && i + 1 < argc) dlp__llm_knob.trt_mla_ew = atoi(argv[++i]); /* h246, off */
        else if (!strcmp(argv[i], "--moe-imb-fp4") && i + 1 < argc) dlp__llm_knob.moe_imb_fp4 = atoi(argv[++i]); /* h240 */
        else if (!strcmp(argv[i], "--a2a-none") && i + 1 < argc) { /* h219: all (default), pf, dec, none */
            if ((a2a_none_mode = a2a_mode_of(argv[++i])) < 0) {
                fprintf(stderr, "--a2a-none: all, pf, dec or none, not '%s'\n", argv[i]);
                return 2;
            }
        }
        else if (!strcmp(argv[i], "--recipes") && i + 1 < argc) recipes_path = argv[++i], recipes_explicit = 1;
        else if (!strcmp(argv[i], "--changelog") && i + 1 < argc) changelog_path = argv[++i];
        else if (!strcmp(argv[i], "--vllm-ep") && i + 1 < argc) vep_path = argv[++i];
        else if (!strcmp(argv[i], "--vllm-scripts") && i + 1 < argc) vsc_path = argv[++i];
        else if (!strcmp(argv[i], "--vllm-ungraphed-ms") && i + 1 < argc) vllm_ungraphed_ms = atof(argv[++i]);
        else if (!strcmp(argv[i], "--recv-interval") && i + 1 < argc) RCV.path = argv[++i];
        else if (!strcmp(argv[i], "--sglang-mem") && i + 1 < argc) SMEM.path = argv[++i];
        else if (!strcmp(argv[i], "--sglang-ep-moe") && i + 1 < argc) EPM.path = argv[++i];
        else if (!strcmp(argv[i], "--spec-agg") && i + 1 < argc) spa_path = argv[++i];
        else if (!strcmp(argv[i], "--changelog-runs") && i + 1 < argc) clr_path = argv[++i];
        else if (!strcmp(argv[i], "--no-changelog")) no_changelog = 1;
        else if (!strcmp(argv[i], "--no-moe-backend")) no_moe_backend = 1;
        else if (!strcmp(argv[i], "--mtp-pair") && i + 1 < argc) mtp_pair_on = atoi(argv[++i]); /* h233 */
        else if (!strcmp(argv[i], "--eager-ctx-ms") && i + 1 < argc) eager_ctx_ms = atof(argv[++i]);
        else if (!strcmp(argv[i], "--eager-launch-us") && i + 1 < argc) eager_launch_us = atof(argv[++i]);
        else if (!strcmp(argv[i], "--trt-eager-layer-ms") && i + 1 < argc) trt_eager_layer_ms = atof(argv[++i]);
        else if (!strcmp(argv[i], "--trt-eager-scope") && i + 1 < argc) trt_eager_scope = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--decode-moe-backend") && i + 1 < argc) dec_moe_gpu = argv[++i];
        else if (!strcmp(argv[i], "--no-max-tokens")) use_mnt = 0;
        else if (!strcmp(argv[i], "--amb-workers") && i + 1 < argc) amb_mode = atoi(argv[++i]); /* h220 */
    dlp_error e = {0};
    if (dlp_devdb_load(NULL, &db, &e)) {
        fprintf(stderr, "%s\n", e.msg);
        return 1;
    }
    clock_t t0 = clock();
    if (!strcmp(which, "speed")) {
        speed();
        dlp_devdb_free(db);
        return 0;
    }
    if (!strcmp(which, "all") || !strcmp(which, "silicon")) load_recipes(recipes_explicit), load_changelog(), load_silicon(root);
    int n_sil_seen = nSeen;
    if (!strcmp(which, "all") || !strcmp(which, "leaderboard")) load_leaderboard(root);
    if (!strcmp(which, "all") || !strcmp(which, "splitwise")) load_splitwise(root);
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    /* the line above counts silicon and the leaderboard (LLM-Inference-Bench
     * has its own coverage table, loaded after it) */
    int nR0 = nR, nSeen0 = nSeen;
    if (!strcmp(which, "all") || !strcmp(which, "infbench")) load_infbench(root);
    printf("## dlperf llm serving model vs public serving measurements\n\n");
    if (nSeen0)
        printf("coverage: %d of %d rows answered (%.1f %%; silicon %d rows seen — disaggregated runs count twice, "
               "prefill and decode workers); %.2f s of CPU for %d predictions (%.0f /s incl. parsing)\n",
               nR0, nSeen0, 100.0 * nR0 / nSeen0, n_sil_seen, secs, nSeen0, nSeen0 / (secs > 0 ? secs : 1));
    if (main_reasons.k) {
        printf("\nrefusals by reason:\n");
        for (int i = 0; i < main_reasons.k; i++) printf("  %5d  %s\n", main_reasons.n[i], main_reasons.why[i]);
    }
    report("silicon");
    agg_sim_report();
    mtp_report();
    imax_report();
    slot_wait_report();
    data_cap_report();
    if (split_family) split_report(split_family);
    if (lowload) lowload_report(split_family), outlen_report(split_family);
    report("leaderboard");
    /* the leaderboard's and silicon's fits (nothing to fit on splitwise or
     * LLM-Inference-Bench alone) */
    if (strcmp(which, "splitwise") && strcmp(which, "infbench")) engine_report();
    sw_report();
    ib_report();
    ibv0_report();
    ibm_report();
    ibr_report();
    ibt_report();
    ibl_report();
    ibp_report();
    if (!strcmp(which, "all")) speed();
    if (rows_out) {
        FILE *f = fopen(rows_out, "w");
        if (f) {
            fprintf(f, "set,model,system,backend,isl,osl,conc,gpus,ep,dp,phase,quant");
            for (int t = 0; t < T_BASE; t++) fprintf(f, ",y_%d,a_%d", t, t);
            fprintf(f, ",running,ovh_ms,req_ms,mem_util,math_util,power_w,tdp_w,workers_unknown,src,prefill_ms,decode_step_ms");
            /* the offline-batch targets after the columns older readers index */
            for (int t = T_BASE; t < T_COUNT; t++) fprintf(f, ",y_%d,a_%d", t, t);
            fprintf(f, ",ttft_burst_ms,ttft_steady_ms,family,src_name,slot_c,slot_s,slot_w,ttft_pw_ms,fixed,mixed,lockstep,spec_k,spec_read");
            if (agg_sim_mode) fprintf(f, ",agg_sim,lib_ttft_ms,lib_tpot_ms,bw_iters,adp_iters");
            if (trt_steps_on()) {
                fprintf(f, ",recipe");
                for (int j = 1; j <= TRT_STEPS; j++) fprintf(f, ",trt_step_%d", j);
            }
            fprintf(f, "\n");
            for (int i = 0; i < nR; i++) {
                const row_t *r = &R[i];
                fprintf(f, "%s,%s,%s,%s,%lld,%lld,%lld,%d,%d,%d,%d,%s", r->set, r->model, r->system, r->backend,
                        (long long)r->wl.seq, (long long)r->wl.gen_tokens, (long long)r->wl.concurrency, r->wl.n_gpus,
                        r->wl.ep, r->wl.attn_dp, r->wl.phase, dlp_quant_name(r->wl.quant));
                for (int t = 0; t < T_BASE; t++) fprintf(f, ",%.6g,%.6g", r->y[t], r->a[t]);
                fprintf(f, ",%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%d,%d,%.6g,%.6g", r->running, r->ovh_ms, r->req_ms, r->um,
                        r->uc, r->pw, r->tdp, r->workers_unknown, r->src, r->pf_ms, r->dec_ms);
                for (int t = T_BASE; t < T_COUNT; t++) fprintf(f, ",%.6g,%.6g", r->y[t], r->a[t]);
                fprintf(f, ",%.6g,%.6g,%s,%s,%lld,%lld,%d,%.6g,%d,%d,%d,%d,%d", r->tb_ms, r->ts_ms, r->family,
                        src_name[r->src], (long long)r->slot_c, (long long)r->slot_s, r->slot_w, r->ttft_pw_ms,
                        r->wl.fixed_lengths, r->wl.mixed_chunk, r->lockstep, r->spec_k, r->spec_read);
                if (agg_sim_mode)
                    fprintf(f, ",%d,%.6g,%.6g,%d,%d", r->simmed, r->lib_ttft_ms, r->lib_tpot_ms, r->wl.batch_wait_iters,
                            r->wl.adp_balance_iters);
                if (trt_steps_on()) {
                    fprintf(f, ",%s", r->recipe);
                    for (int j = 1; j <= TRT_STEPS; j++) fprintf(f, ",%.6g", r->trt_step_ms[j]);
                }
                fprintf(f, "\n");
            }
            fclose(f);
        }
    }
    dlp_devdb_free(db);
    return 0;
}
