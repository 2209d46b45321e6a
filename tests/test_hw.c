/*
 * test_hw.c — the hardware database (src/hw): the built-in devices.json
 * loads and its values are plausible, names and aliases resolve, the values
 * agree with NeuSight's device configs where both describe a GPU, the MIG
 * recommender follows DIPPM's rule at the profile boundaries, malformed
 * files fail with one-line messages naming the field, and carbon lookups.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cJSON.h>

#include "dlperf.h"
#include "hw/hw.h"
#include "tap.h"

static dlp_devdb *builtin(void) {
    dlp_devdb *db = NULL;
    dlp_error e = {0};
    if (dlp_devdb_load(NULL, &db, &e)) fprintf(stderr, "  builtin load failed: %s\n", e.msg);
    return db;
}

static const char *id_of(const dlp_device *d) { return d ? d->id : "(none)"; }

/* ---- the built-in database ------------------------------------------------ */

static void t_builtin_loads(void) {
    dlp_devdb *db = builtin();
    CHECK(db != NULL);
    if (!db) return;
    CHECK(dlp_devdb_count(db) >= 52);       /* 51 GPUs and 1 CPU (docs/devices.md) */
    static const char *const need[] = {
        "v100-16gb", "v100-32gb", "v100-pcie-32gb", "p100", "p4", "t4", "a10", "a100-40gb",
        "a100-pcie-40gb", "a100-80gb", "a100-pcie-80gb", "l4", "l40s", "h100-pcie", "h100-sxm",
        "h200", "rtx3090", "rtx4090", "mi100", "mi210", "mi250", "gtx1080ti", "rtx2080ti",
        "titan-rtx", "titan-x-pascal", "titan-xp", "a40", "rtx-a6000", "quadro-rtx6000",
        /* issue 12: today's GPUs */
        "b200", "b300", "gb200", "h20", "h800", "h800-pcie", "a800", "a800-pcie-80gb", "l20", "l40",
        "rtx5090", "rtx5080", "rtx-pro-6000", "rtx-pro-6000-ws", "rtx-pro-6000-maxq", "mi300x",
        "mi325x", "mi355x",
        /* issue 22: LLM-Inference-Bench's GH200 and Intel Max 1550 (card, one stack) */
        "gh200", "max1550", "max1550-stack"};
    for (size_t i = 0; i < sizeof need / sizeof need[0]; i++) {
        const dlp_device *d = dlp_devdb_find(db, need[i]);
        if (!d) fprintf(stderr, "  missing device %s\n", need[i]);
        CHECK(d != NULL);
        if (d) CHECK_STR(d->id, need[i]);
    }
    CHECK(dlp_devdb_at(db, -1) == NULL);
    CHECK(dlp_devdb_at(db, dlp_devdb_count(db)) == NULL);
    dlp_devdb_free(db);
    dlp_devdb_free(NULL);      /* accepted */
}

/* Plausibility of every device; the limits are physics/marketing facts
 * (tensor cores are never slower than the vector units, ...), not values. */
static void t_sane_values(void) {
    dlp_devdb *db = builtin();
    if (!db) { CHECK(0); return; }
    for (int i = 0; i < dlp_devdb_count(db); i++) {
        const dlp_device *d = dlp_devdb_at(db, i);
        int before = tap_cur_fail;
        if (d->kind == DLP_DEVICE_CPU) continue;   /* t_cpu_device */
        CHECK_I64(d->kind, DLP_DEVICE_GPU);
        CHECK(d->sm_count > 0 && d->fp32_cores_per_sm > 0 && d->boost_clock_mhz > 0);
        /* FP32 peak = lanes x 2 (FMA) x boost clock, to 3% (datasheets round) */
        double derived = d->sm_count * (double)d->fp32_cores_per_sm * 2 * d->boost_clock_mhz / 1000.0;
        CHECK(fabs(derived - d->peak_fp32_gflops) <= 0.03 * d->peak_fp32_gflops);
        CHECK(d->peak_fp64_gflops > 0 && d->peak_fp64_gflops <= d->peak_fp32_gflops);
        CHECK(d->memory_gib >= 8 && d->memory_gib <= 320);
        CHECK(d->mem_bandwidth_gbs >= 100 && d->mem_bandwidth_gbs <= 10000);
        /* Ponte Vecchio's 408 MB L2 (204 a stack) is the largest */
        CHECK(d->l2_cache_mb >= 1 && d->l2_cache_mb <= 512);
        CHECK(d->shared_mem_kb_per_block <= d->shared_mem_kb_per_sm);
        CHECK(d->max_threads_per_block == 1024);
        CHECK(d->tdp_w >= 50 && d->tdp_w <= 1500);
        CHECK(d->idle_w > 0 && d->idle_w < 0.3 * d->tdp_w);
        if (d->fp16_tensor_tflops > 0) {
            CHECK(d->fp16_tensor_tflops * 1000 >= d->peak_fp32_gflops);
            if (d->bf16_tensor_tflops > 0) CHECK(d->bf16_tensor_tflops * 1000 >= d->peak_fp32_gflops);
            if (d->tf32_tensor_tflops > 0) CHECK(d->tf32_tensor_tflops <= d->fp16_tensor_tflops);
            /* Blackwell Ultra (10.3) is the exception: it cut INT8 to 0.125 POP/s */
            if (d->int8_tensor_tops > 0 && !(d->cc_major == 10 && d->cc_minor == 3))
                CHECK(d->int8_tensor_tops >= d->fp16_tensor_tflops);
            if (d->fp8_tensor_tflops > 0) CHECK(d->fp8_tensor_tflops >= d->fp16_tensor_tflops);
        }
        /* FP4 only where there is FP8, and never slower than it */
        if (d->fp4_tensor_tflops > 0) CHECK(d->fp8_tensor_tflops > 0 && d->fp4_tensor_tflops >= d->fp8_tensor_tflops);
        if (!strcmp(d->vendor, "nvidia")) {
            CHECK(d->cc_major >= 6 && d->cc_major <= 12);
            CHECK(d->warp_size == 32);
            CHECK(d->registers_per_sm == 65536 && d->max_threads_per_sm >= 1024);
            /* tensor cores arrived with Volta (7.0); BF16/TF32 with Ampere (8.0) */
            CHECK((d->fp16_tensor_tflops > 0) == (d->cc_major >= 7));
            CHECK((d->tf32_tensor_tflops > 0) == (d->cc_major >= 8));
            CHECK((d->fp8_tensor_tflops > 0) == (d->cc_major * 10 + d->cc_minor >= 89));
            CHECK((d->fp4_tensor_tflops > 0) == (d->cc_major >= 10));   /* FP4 from Blackwell */
        } else if (!strcmp(d->vendor, "intel")) {
            /* Xe-HPC: sub-groups of 16 (or 32), no MIG, no FP8, and FP64
             * only on the vector engines (no FP64 matrix rate) */
            CHECK((d->warp_size == 16 || d->warp_size == 32) && d->n_mig == 0);
            CHECK(d->fp8_tensor_tflops == 0 && d->fp64_tensor_tflops == 0);
        } else {
            CHECK_STR(d->vendor, "amd");
            CHECK(d->warp_size == 64 && d->n_mig == 0 && d->fp32_matrix_tflops > 0);
        }
        /* MIG: data-centre Ampere and later; sorted by memory, then slices.
         * The last profile is the whole GPU: 7 slices, or 4 on RTX PRO 6000. */
        int smax = d->n_mig ? d->mig[d->n_mig - 1].compute_slices : 0;
        if (d->n_mig) CHECK(smax == 7 || smax == 4);
        for (int k = 0; k < d->n_mig; k++) {
            const dlp_mig_profile *p = &d->mig[k];
            CHECK(p->memory_gib > 0 && p->memory_gib <= d->memory_gib);
            CHECK(p->usable_gib == 0 || (p->usable_gib <= p->memory_gib && p->usable_gib > 0.9 * p->memory_gib));
            CHECK(p->compute_slices >= 1 && p->compute_slices <= smax);
            CHECK(p->sms == 0 || p->sms <= d->sm_count);
            CHECK(p->max_instances >= 1 && p->max_instances * p->compute_slices <= smax);
            if (k) {
                const dlp_mig_profile *q = &d->mig[k - 1];
                CHECK(q->memory_gib < p->memory_gib ||
                      (q->memory_gib == p->memory_gib && q->compute_slices < p->compute_slices));
            }
        }
        if (d->n_mig) CHECK(d->cc_major >= 8);
        if (d->price_usd_per_hour > 0) CHECK(d->price_provider[0] && d->price_date[0]);
        CHECK(d->n_sources >= 1);
        /* every alias and the name lead back to this device */
        CHECK(dlp_devdb_find(db, d->id) == d);
        CHECK(dlp_devdb_find(db, d->name) == d);
        for (int k = 0; k < d->n_aliases; k++) {
            if (dlp_devdb_find(db, d->aliases[k]) != d)
                fprintf(stderr, "  alias '%s' -> %s\n", d->aliases[k], id_of(dlp_devdb_find(db, d->aliases[k])));
            CHECK(dlp_devdb_find(db, d->aliases[k]) == d);
        }
        if (tap_cur_fail != before) fprintf(stderr, "  ^ device %s\n", d->id);
    }
    dlp_devdb_free(db);
}

static void t_alias_lookup(void) {
    dlp_devdb *db = builtin();
    if (!db) { CHECK(0); return; }
    static const char *const pairs[][2] = {
        {"h100", "h100-sxm"}, {"H100", "h100-sxm"}, {"NVIDIA H100 80GB HBM3", "h100-sxm"},
        {"H100 80GB HBM3", "h100-sxm"}, {"h100_sxm", "h100-sxm"}, {"A100-SXM4-40GB", "a100-40gb"},
        {"NVIDIA A100-SXM4-40GB", "a100-40gb"}, {"a100", "a100-40gb"}, {"Tesla V100-SXM2-16GB", "v100-16gb"},
        {"Tesla V100-PCIE-32GB", "v100-pcie-32gb"}, {"NVIDIA A100 80GB PCIe", "a100-pcie-80gb"},
        {"nvidia geforce rtx 4090", "rtx4090"}, {"RTX-4090", "rtx4090"}, {"titanxp", "titan-xp"},
        {"titan_xp", "titan-xp"}, {"titanx", "titan-x-pascal"}, {"1080ti", "gtx1080ti"},
        {"2080ti", "rtx2080ti"}, {"titan_rtx", "titan-rtx"}, {"rtx6000", "quadro-rtx6000"},
        {"A40", "a40"}, {"AMD Instinct MI250", "mi250"}, {"Tesla T4", "t4"}, {"  t4 ", "t4"},
        {"a100_sxm", "a100-80gb"}, {"h200_sxm", "h200"}, {"L40S", "l40s"}, {"NVIDIA L4", "l4"},
        /* what torch.cuda.get_device_name() prints on today's GPUs */
        {"NVIDIA B200", "b200"}, {"NVIDIA B300", "b300"}, {"NVIDIA GB200", "gb200"}, {"NVIDIA H20", "h20"},
        {"NVIDIA H800", "h800"}, {"NVIDIA H800 PCIe", "h800-pcie"}, {"NVIDIA A800-SXM4-80GB", "a800"},
        {"NVIDIA A800 80GB PCIe", "a800-pcie-80gb"}, {"NVIDIA L20", "l20"}, {"NVIDIA L40", "l40"},
        {"NVIDIA GeForce RTX 5090", "rtx5090"}, {"NVIDIA GeForce RTX 5080", "rtx5080"},
        {"NVIDIA RTX PRO 6000 Blackwell Server Edition", "rtx-pro-6000"},
        {"NVIDIA RTX PRO 6000 Blackwell Workstation Edition", "rtx-pro-6000-ws"},
        {"NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition", "rtx-pro-6000-maxq"},
        {"RTX PRO 6000", "rtx-pro-6000"}, {"AMD Instinct MI300X", "mi300x"}, {"AMD Instinct MI325X", "mi325x"},
        {"AMD Instinct MI355X", "mi355x"}, {"mi300x", "mi300x"}, {"NVIDIA GH200 480GB", "gh200"},
        {"Nvidia GH200 GPU", "gh200"}};
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        const dlp_device *d = dlp_devdb_find(db, pairs[i][0]);
        if (!d || strcmp(d->id, pairs[i][1]))
            fprintf(stderr, "  '%s' -> %s, expected %s\n", pairs[i][0], id_of(d), pairs[i][1]);
        CHECK(d && !strcmp(d->id, pairs[i][1]));
    }
    CHECK(dlp_devdb_find(db, "h10") == NULL);
    CHECK(dlp_devdb_find(db, "") == NULL);
    CHECK(dlp_devdb_find(db, "---") == NULL);
    CHECK(dlp_devdb_find(db, NULL) == NULL);
    CHECK(dlp_devdb_find(NULL, "h100") == NULL);
    /* a long query must not overflow anything */
    char big[4096];
    memset(big, 'a', sizeof big - 1);
    big[sizeof big - 1] = 0;
    CHECK(dlp_devdb_find(db, big) == NULL);

    const char *ids[4];
    int n = dlp_devdb_suggest(db, "h10", ids, 4);
    CHECK(n == 4);
    int has_h100 = 0;
    for (int i = 0; i < n; i++) has_h100 |= !strncmp(ids[i], "h100", 4);
    CHECK(has_h100);
    n = dlp_devdb_suggest(db, "a100-40", ids, 2);
    CHECK(n == 2 && !strncmp(ids[0], "a100", 4));
    CHECK(dlp_devdb_suggest(db, big, ids, 3) == 3);   /* still answers */
    CHECK(dlp_devdb_suggest(db, "x", ids, 0) == 0);
    dlp_devdb_free(db);
}

/* ---- agreement with NeuSight's device configs ----------------------------- */

static char neusight_dir[1024];

static double jget(const cJSON *o, const char *k) {
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsNumber(x) ? x->valuedouble : -1;
}

static int rel_ok(double ours, double theirs, double tol) {
    return theirs > 0 && fabs(ours - theirs) <= tol * theirs;
}

/* Tolerances (docs/devices.md says the same):
 *   memory     1 GiB   (NeuSight lists T4 as 15: its ECC-usable memory)
 *   bandwidth  3%      (NeuSight's H100 3430 GB/s vs the datasheet's 3350)
 *   FP32 peak  5%      (NeuSight multiplies lanes x its own clock: P4, L4)
 *   clock      7%      (datasheet boost vs the nvidia-smi max clock: P100)
 *   L2         exact
 *   FP32 lanes (SMs x lanes per SM) exact: NeuSight writes the P4 as 40 SMs
 *              of 64 lanes; ours is 20 of 128 (GP104), the same 2560 lanes.
 *              AMD: compute units exact (NeuSight's Core_Per_SM is 4 there).
 * Known exception, documented in the data: L4 has 58 SMs (datasheet, 7424
 * CUDA cores); NeuSight uses 60 (the full AD104). */
static void t_neusight_agreement(void) {
    dlp_devdb *db = builtin();
    if (!db) { CHECK(0); return; }
    DIR *dir = opendir(neusight_dir);
    CHECK(dir != NULL);
    if (!dir) { dlp_devdb_free(db); return; }
    int compared = 0;
    struct dirent *e;
    while ((e = readdir(dir))) {
        size_t nl = strlen(e->d_name);
        if (nl < 6 || strcmp(e->d_name + nl - 5, ".json")) continue;
        /* *_TP.json describe tensor-parallel pairs of GPUs, not a device */
        if (nl > 8 && !strcmp(e->d_name + nl - 8, "_TP.json")) continue;
        char path[2048];
        snprintf(path, sizeof path, "%s/%s", neusight_dir, e->d_name);
        char *txt = tap_slurp(path, NULL);
        cJSON *o = txt ? cJSON_Parse(txt) : NULL;
        free(txt);
        CHECK(o != NULL);
        if (!o) continue;
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(o, "Device");
        const dlp_device *d = cJSON_IsString(name) ? dlp_devdb_find(db, name->valuestring) : NULL;
        int before = tap_cur_fail;
        CHECK(d != NULL);
        if (d) {
            compared++;
            double fp32 = jget(o, "SingleFLOPs") > 0 ? jget(o, "SingleFLOPs") : jget(o, "SingleFLOPsVEC");
            CHECK(fabs(d->memory_gib - jget(o, "Dev_Mem")) <= 1.0);
            CHECK(rel_ok(d->mem_bandwidth_gbs, jget(o, "Mem_Bw"), 0.03));
            CHECK(rel_ok(d->peak_fp32_gflops, fp32, 0.05));
            CHECK(rel_ok(d->boost_clock_mhz, jget(o, "Freq"), 0.07));
            CHECK(fabs(d->l2_cache_mb - jget(o, "L2Cache")) < 1e-6);
            double lanes = d->sm_count * (double)d->fp32_cores_per_sm;
            double their_lanes = jget(o, "Num_Sm") * jget(o, "Core_Per_SM");
            if (!strcmp(d->id, "l4")) {
                CHECK(d->sm_count == 58 && jget(o, "Num_Sm") == 60);   /* see above */
            } else if (!strcmp(d->vendor, "amd")) {
                /* NeuSight's Core_Per_SM is 4 for AMD (SIMDs per CU): compare CUs */
                CHECK(d->sm_count == jget(o, "Num_Sm"));
            } else {
                CHECK(lanes == their_lanes);
            }
            if (jget(o, "SingleFLOPsMM") > 0) CHECK(rel_ok(d->fp32_matrix_tflops * 1000, jget(o, "SingleFLOPsMM"), 0.05));
            /* the file name is an alias too (NeuSight looks devices up by it) */
            char stem[256];
            snprintf(stem, sizeof stem, "%.*s", (int)(nl - 5), e->d_name);
            CHECK(dlp_devdb_find(db, stem) == d);
        }
        if (tap_cur_fail != before)
            fprintf(stderr, "  ^ %s vs %s\n", e->d_name, id_of(d));
        cJSON_Delete(o);
    }
    closedir(dir);
    CHECK(compared >= 12);
    dlp_devdb_free(db);
}

/* ---- MIG ------------------------------------------------------------------ */

static const char *mig_pick(const dlp_device *d, double mb, double margin) {
    dlp_mig_choice c;
    if (dlp_mig_recommend(d, mb, margin, 0, 0, &c) != DLP_OK) return "(error)";
    return c.profile ? c.profile->name : "none";
}

/* DIPPM (thesis eq. 4.2) on the A100-40GB, no margin: 0-5 GB -> 1g.5gb,
 * 5-10 -> 2g.10gb, 10-20 -> 3g.20gb, 20-40 -> 7g.40gb. */
static void t_mig_dippm_rule(void) {
    dlp_devdb *db = builtin();
    const dlp_device *a = db ? dlp_devdb_find(db, "a100-40gb") : NULL;
    CHECK(a != NULL);
    if (!a) { dlp_devdb_free(db); return; }
    const double G = 1024;     /* MiB per GiB */
    CHECK_STR(mig_pick(a, 0, 0), "1g.5gb");
    CHECK_STR(mig_pick(a, 4.99 * G, 0), "1g.5gb");
    CHECK_STR(mig_pick(a, 5.00 * G, 0), "1g.5gb");     /* boundary is inclusive */
    CHECK_STR(mig_pick(a, 5.01 * G, 0), "2g.10gb");
    CHECK_STR(mig_pick(a, 9.99 * G, 0), "2g.10gb");
    CHECK_STR(mig_pick(a, 10.01 * G, 0), "3g.20gb");
    CHECK_STR(mig_pick(a, 19.99 * G, 0), "3g.20gb");   /* never 4g.20gb: same memory */
    CHECK_STR(mig_pick(a, 20.01 * G, 0), "7g.40gb");
    CHECK_STR(mig_pick(a, 39.99 * G, 0), "7g.40gb");
    CHECK_STR(mig_pick(a, 40.01 * G, 0), "none");
    /* with the default 10% margin, 4.6 GiB needs 5.06 GiB: 2g.10gb */
    CHECK_STR(mig_pick(a, 4.6 * G, 0.10), "2g.10gb");
    CHECK_STR(mig_pick(a, 4.5 * G, 0.10), "1g.5gb");

    /* the fit table: share of each profile's memory used (DIPPM table 5) */
    dlp_mig_choice c;
    CHECK(dlp_mig_recommend(a, 4.99 * G, 0, 0, 0, &c) == DLP_OK);
    CHECK_I64(c.n_fit, 5);
    CHECK_I64(c.index, 0);
    CHECK_NEAR(c.fit[0].used_share, 0.998, 1e-9);
    CHECK_NEAR(c.fit[4].used_share, 4.99 / 40, 1e-9);
    CHECK_I64(c.fit[0].fits_memory, 1);
    CHECK_I64(c.fit[0].fits_usable, 0);    /* 4.99 GiB > the 4.75 GiB usable */
    CHECK_I64(c.fit[1].fits_usable, 1);
    CHECK_I64(c.fit[0].meets_slo, -1);
    CHECK_NEAR(c.fit[0].latency_ms, -1, 0);
    CHECK_NEAR(c.latency_ms, -1, 0);
    CHECK(strstr(c.reason, "5 GiB") != NULL);
    dlp_devdb_free(db);
}

static void t_mig_h100_and_slo(void) {
    dlp_devdb *db = builtin();
    const dlp_device *h = db ? dlp_devdb_find(db, "h100-sxm") : NULL;
    const dlp_device *h200 = db ? dlp_devdb_find(db, "h200") : NULL;
    CHECK(h && h200);
    if (!h || !h200) { dlp_devdb_free(db); return; }
    dlp_mig_choice c;
    CHECK(dlp_mig_recommend(h, 7300, 0.10, 0, 0, &c) == DLP_OK);
    CHECK(c.profile && !strcmp(c.profile->name, "1g.10gb"));
    CHECK_NEAR(c.need_mb, 8030, 1e-6);
    CHECK_I64(c.n_fit, 6);
    CHECK_NEAR(c.fit[0].used_share, 7300.0 / 10240, 1e-12);
    /* same memory: the smaller compute wins (1g.20gb over 2g.20gb) */
    CHECK_STR(mig_pick(h, 15 * 1024, 0), "1g.20gb");
    CHECK_STR(mig_pick(h200, 100 * 1024, 0.1), "7g.141gb");
    CHECK_STR(mig_pick(h200, 17 * 1024, 0), "1g.18gb");

    /* SLO: 10 ms on the full GPU scales as 7/g: 1g 70, 2g 35, 3g 23.3 */
    CHECK(dlp_mig_recommend(h, 7300, 0.10, 10, 30, &c) == DLP_OK);
    CHECK(c.profile && !strcmp(c.profile->name, "3g.40gb"));
    CHECK_NEAR(c.latency_ms, 70.0 / 3, 1e-9);
    CHECK_I64(c.fit[0].meets_slo, 0);
    CHECK_I64(c.fit[2].meets_slo, 0);      /* 2g.20gb: 35 ms */
    CHECK_I64(c.fit[3].meets_slo, 1);
    CHECK(strstr(c.reason, "SLO") != NULL);
    CHECK(dlp_mig_recommend(h, 7300, 0.10, 10, 35, &c) == DLP_OK);   /* 35 <= 35 */
    CHECK(c.profile && !strcmp(c.profile->name, "2g.20gb"));
    CHECK(dlp_mig_recommend(h, 7300, 0.10, 10, 5, &c) == DLP_OK);    /* even 7g: 10 ms */
    CHECK(c.profile == NULL && c.index == -1);
    CHECK(strstr(c.reason, "SLO") && strstr(c.reason, "7g.80gb"));
    /* latency without an SLO: estimates only */
    CHECK(dlp_mig_recommend(h, 7300, 0.10, 10, 0, &c) == DLP_OK);
    CHECK(c.profile && !strcmp(c.profile->name, "1g.10gb"));
    CHECK_NEAR(c.latency_ms, 70, 1e-9);
    CHECK_I64(c.fit[5].meets_slo, -1);
    dlp_devdb_free(db);
}

static void t_mig_none_and_errors(void) {
    dlp_devdb *db = builtin();
    const dlp_device *a80 = db ? dlp_devdb_find(db, "a100-80gb") : NULL;
    const dlp_device *t4 = db ? dlp_devdb_find(db, "t4") : NULL;
    CHECK(a80 && t4);
    if (!a80 || !t4) { dlp_devdb_free(db); return; }
    dlp_mig_choice c;
    CHECK(dlp_mig_recommend(a80, 90 * 1024, 0, 0, 0, &c) == DLP_OK);
    CHECK(c.profile == NULL && c.index == -1);
    CHECK(strstr(c.reason, "7g.80gb") != NULL);
    CHECK_I64(c.n_fit, 5);
    CHECK_I64(c.fit[4].fits_memory, 0);
    CHECK_NEAR(c.fit[4].used_share, 90.0 / 80, 1e-12);
    CHECK(dlp_mig_recommend(t4, 1000, 0.1, 0, 0, &c) == DLP_OK);
    CHECK(c.profile == NULL && c.n_fit == 0);
    CHECK(strstr(c.reason, "no MIG") != NULL);
    CHECK(dlp_mig_recommend(a80, -1, 0.1, 0, 0, &c) == DLP_EINVAL);
    CHECK(dlp_mig_recommend(a80, NAN, 0.1, 0, 0, &c) == DLP_EINVAL);
    CHECK(dlp_mig_recommend(a80, 100, -0.1, 0, 0, &c) == DLP_EINVAL);
    CHECK(dlp_mig_recommend(a80, 100, 0.1, 0, 10, &c) == DLP_EINVAL);   /* SLO w/o latency */
    CHECK(c.reason[0] != 0);
    CHECK(dlp_mig_recommend(NULL, 100, 0.1, 0, 0, &c) == DLP_EINVAL);
    CHECK(dlp_mig_recommend(a80, 100, 0.1, 0, 0, NULL) == DLP_EINVAL);
    dlp_devdb_free(db);
}

/* The measured CPU (docs/devices.md): values typed in from lscpu and the
 * STREAM run, peak re-derived by hand: 2 cores x 16 FP32 FMA lanes x 2 FLOP
 * x 2.596 GHz = 166.144 GFLOP/s. */
static void t_cpu_device(void) {
    dlp_devdb *db = builtin();
    if (!db) { CHECK(0); return; }
    const dlp_device *d = dlp_devdb_find(db, "cpu-amd-epyc-2c");
    CHECK(d != NULL);
    if (!d) { dlp_devdb_free(db); return; }
    CHECK(dlp_devdb_find(db, "epyc-2c") == d);
    CHECK(dlp_devdb_find(db, "EPYC 2c") == d);
    CHECK_I64(d->kind, DLP_DEVICE_CPU);
    CHECK_STR(dlp_device_kind_name(d->kind), "cpu");
    CHECK_STR(dlp_device_kind_name(DLP_DEVICE_GPU), "gpu");
    CHECK_STR(d->vendor, "amd");
    CHECK_STR(d->arch, "zen4");
    CHECK_I64(d->sm_count, 2);
    CHECK_NEAR(d->peak_fp32_gflops, 2 * 16 * 2 * 2.596, 0.05);
    CHECK_NEAR(d->peak_fp64_gflops, 2 * 8 * 2 * 2.596, 0.05);
    CHECK_NEAR(d->mem_bandwidth_gbs, 28.2, 0);
    CHECK_NEAR(d->memory_gib, 23.5, 0);
    CHECK_NEAR(d->tdp_w, 0, 0);
    CHECK_NEAR(d->idle_w, 0, 0);
    CHECK_NEAR(d->price_usd_per_hour, 0, 0);
    CHECK_I64(d->n_mig, 0);
    CHECK_I64(d->cc_major, 0);
    CHECK_I64(d->warp_size, 0);
    /* no tensor cores: every dtype on the vector units */
    CHECK_NEAR(dlp_device_peak_flops(d, DLP_DT_FLOAT, 1), 166.1e9, 1);
    CHECK_NEAR(dlp_device_peak_flops(d, DLP_DT_BFLOAT16, 1), 166.1e9, 1);
    dlp_devdb_free(db);
    /* every GPU is kind gpu without saying so */
    db = builtin();
    const dlp_device *g = dlp_devdb_find(db, "a100-40gb");
    CHECK(g && g->kind == DLP_DEVICE_GPU);
    dlp_devdb_free(db);
}

/* ---- malformed files ---------------------------------------------------------- */

/* Write text to a fresh temp file; returns its path (static buffer). */
static const char *write_tmp(const char *text, size_t len) {
    static char path[64];
    snprintf(path, sizeof path, "/tmp/dlp_test_hw_XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0) return NULL;
    size_t off = 0;
    while (off < len) {
        ssize_t w = write(fd, text + off, len - off);
        if (w <= 0) break;
        off += (size_t)w;
    }
    close(fd);
    return path;
}

/* The built-in JSON with the first occurrence of `from` (after `anchor`)
 * replaced by `to`; NULL if not found. */
static char *edited(const char *anchor, const char *from, const char *to) {
    const char *src = dlp__devices_json;
    const char *a = anchor ? strstr(src, anchor) : src;
    const char *p = a ? strstr(a, from) : NULL;
    if (!p) return NULL;
    size_t n = strlen(src), fl = strlen(from), tl = strlen(to);
    char *out = malloc(n - fl + tl + 1);
    if (!out) return NULL;
    memcpy(out, src, (size_t)(p - src));
    memcpy(out + (p - src), to, tl);
    strcpy(out + (p - src) + tl, p + fl);
    return out;
}

/* Load `text` from a temp file; expect `code` and every needle in the one-line message. */
static void expect_load_error(const char *text, dlp_status code, const char *n1, const char *n2) {
    CHECK(text != NULL);
    if (!text) return;
    const char *path = write_tmp(text, strlen(text));
    CHECK(path != NULL);
    if (!path) return;
    dlp_devdb *db = (dlp_devdb *)1;
    dlp_error e = {0};
    dlp_status st = dlp_devdb_load(path, &db, &e);
    if (st != code || !strstr(e.msg, path) || (n1 && !strstr(e.msg, n1)) || (n2 && !strstr(e.msg, n2)))
        fprintf(stderr, "  got %d '%s' (want %d with '%s', '%s')\n", st, e.msg, code, n1 ? n1 : "",
                n2 ? n2 : "");
    CHECK(st == code);
    CHECK(e.code == code);
    CHECK(db == NULL);
    CHECK(strstr(e.msg, path) != NULL);          /* names the file */
    if (n1) CHECK(strstr(e.msg, n1) != NULL);
    if (n2) CHECK(strstr(e.msg, n2) != NULL);
    CHECK(strchr(e.msg, '\n') == NULL);
    unlink(path);
}

static void t_malformed_json(void) {
    char *s;
    /* wrong type */
    s = edited("\"id\": \"a100-40gb\"", "\"sm_count\": 108", "\"sm_count\": \"108\"");
    expect_load_error(s, DLP_EFORMAT, "'a100-40gb'", "'sm_count'");
    free(s);
    /* missing required field */
    s = edited("\"id\": \"h100-sxm\"", "\"idle_w\": 70,", "");
    expect_load_error(s, DLP_EFORMAT, "'h100-sxm'", "'idle_w' is missing");
    free(s);
    /* out of range (TFLOPS written into a GFLOPS field) */
    s = edited("\"id\": \"t4\"", "\"peak_fp32_gflops\": 8100", "\"peak_fp32_gflops\": 8.1");
    expect_load_error(s, DLP_EFORMAT, "'t4'", "'peak_fp32_gflops'");
    free(s);
    /* typo'd key */
    s = edited("\"id\": \"l4\"", "\"sm_count\"", "\"sm_cout\"");
    expect_load_error(s, DLP_EFORMAT, "'l4'", "'sm_cout'");
    free(s);
    /* MIG profile field */
    s = edited("\"id\": \"a100-80gb\"", "\"compute_slices\": 3", "\"compute_slices\": 3.5");
    expect_load_error(s, DLP_EFORMAT, "mig[2]", "'compute_slices'");
    free(s);
    /* the same alias on two devices would make lookups ambiguous */
    s = edited("\"id\": \"a10\"", "\"aliases\": [", "\"aliases\": [\"h100\", ");
    expect_load_error(s, DLP_EFORMAT, "'a10'", "h100-sxm");
    free(s);
    /* a source key that the top-level "sources" does not define */
    s = edited("\"id\": \"p4\"", "\"sources\": [", "\"sources\": [\"my-guess\", ");
    expect_load_error(s, DLP_EFORMAT, "'p4'", "my-guess");
    free(s);
    /* CPU entries: GPU-only fields must be null, no MIG, no CUDA capability;
     * a GPU still needs its TDP; kind is gpu or cpu */
    s = edited("\"id\": \"cpu-amd-epyc-2c\"", "\"warp_size\": null", "\"warp_size\": 32");
    expect_load_error(s, DLP_EFORMAT, "'cpu-amd-epyc-2c'", "'warp_size' is a GPU field");
    free(s);
    s = edited("\"id\": \"cpu-amd-epyc-2c\"", "\"mig\": null",
               "\"mig\": [{\"name\": \"1g.5gb\", \"memory_gib\": 5, \"usable_gib\": null, "
               "\"compute_slices\": 1, \"sms\": null, \"max_instances\": 7}]");
    expect_load_error(s, DLP_EFORMAT, "'cpu-amd-epyc-2c'", "'mig' must be null for a CPU");
    free(s);
    s = edited("\"id\": \"cpu-amd-epyc-2c\"", "\"compute_capability\": null", "\"compute_capability\": \"8.0\"");
    expect_load_error(s, DLP_EFORMAT, "'cpu-amd-epyc-2c'", "'compute_capability'");
    free(s);
    s = edited("\"id\": \"cpu-amd-epyc-2c\"", "\"kind\": \"cpu\"", "\"kind\": \"tpu\"");
    expect_load_error(s, DLP_EFORMAT, "'cpu-amd-epyc-2c'", "'kind' must be");
    free(s);
    s = edited("\"id\": \"t4\"", "\"tdp_w\": 70", "\"tdp_w\": null");
    expect_load_error(s, DLP_EFORMAT, "'t4'", "'tdp_w'");
    free(s);
    /* a CPU with a known TDP loads (energy is then predicted) */
    s = edited("\"id\": \"cpu-amd-epyc-2c\"", "\"tdp_w\": null", "\"tdp_w\": 15");
    char *idle = s ? strstr(strstr(s, "\"id\": \"cpu-amd-epyc-2c\""), "\"idle_w\": null") : NULL;
    CHECK(idle != NULL);
    if (idle) memcpy(idle + strlen("\"idle_w\": "), "3.00", 4);    /* same length as null */
    if (s && idle) {
        dlp_devdb *db2 = NULL;
        dlp_error e2 = {0};
        CHECK(dlp_devdb_load_mem(s, "cpu-tdp", &db2, &e2) == DLP_OK);
        const dlp_device *c = dlp_devdb_find(db2, "epyc-2c");
        CHECK(c && c->tdp_w == 15 && c->idle_w == 3);
        dlp_devdb_free(db2);
        free(s);
    }
    /* carbon section */
    s = edited("\"carbon\"", "\"pue\": 1.2", "\"pue\": \"1.2\"");
    expect_load_error(s, DLP_EFORMAT, "carbon", "'pue'");
    free(s);
    s = edited(NULL, "\"default_region\": \"world\"", "\"default_region\": \"mars\"");
    expect_load_error(s, DLP_EFORMAT, "carbon", "mars");
    free(s);
    /* another schema */
    s = edited(NULL, "dlperf-devices/1", "dlperf-devices/9");
    expect_load_error(s, DLP_EVERSION, "dlperf-devices/9", NULL);
    free(s);
    /* syntax errors: truncated, empty, not an object */
    size_t half = strlen(dlp__devices_json) / 2;
    s = malloc(half + 1);
    if (s) {
        memcpy(s, dlp__devices_json, half);
        s[half] = 0;
    }
    expect_load_error(s, DLP_EFORMAT, "JSON syntax error at line", NULL);
    free(s);
    expect_load_error("", DLP_EFORMAT, "JSON syntax error", NULL);
    expect_load_error("[1, 2]", DLP_EFORMAT, "top level", NULL);
    expect_load_error("{\"schema\": \"dlperf-devices/1\"}", DLP_EFORMAT, "'sources' is missing", NULL);

    /* a missing file is an I/O error, not a format error */
    dlp_devdb *db = NULL;
    dlp_error e = {0};
    CHECK(dlp_devdb_load("/nonexistent/devices.json", &db, &e) == DLP_EIO);
    CHECK(db == NULL && strstr(e.msg, "/nonexistent/devices.json"));
    CHECK(dlp_devdb_load(NULL, NULL, &e) == DLP_EINVAL);
    CHECK(dlp_devdb_load_mem(NULL, "x", &db, &e) == DLP_EINVAL);
}

/* A whole file of one hand-written device loads (the docs' "add a device"). */
static void t_custom_file(void) {
    static const char text[] =
        "{\"schema\": \"dlperf-devices/1\",\n"
        " \"sources\": {\"me\": \"measured by hand\"},\n"
        " \"carbon\": {\"default_region\": \"here\", \"pue\": 1.1, \"pue_source\": \"guess\",\n"
        "   \"regions\": {\"here\": {\"g_per_kwh\": 100, \"source\": \"guess\"}}},\n"
        " \"devices\": [{\"id\": \"my-gpu\", \"name\": \"My GPU\", \"vendor\": \"nvidia\", \"arch\": \"ampere\",\n"
        "   \"chip\": \"GA100\", \"form_factor\": \"PCIe\", \"aliases\": [\"mine\"], \"compute_capability\": \"8.0\",\n"
        "   \"sm_count\": 10, \"fp32_cores_per_sm\": 64, \"boost_clock_mhz\": 1000, \"peak_fp32_gflops\": 1280,\n"
        "   \"peak_fp64_gflops\": 640, \"peak_fp16_gflops\": null, \"fp16_tensor_tflops\": 20,\n"
        "   \"bf16_tensor_tflops\": null, \"tf32_tensor_tflops\": null, \"fp8_tensor_tflops\": null,\n"
        "   \"fp4_tensor_tflops\": null, \"int8_tensor_tops\": null, \"fp64_tensor_tflops\": null, \"fp32_matrix_tflops\": null,\n"
        "   \"memory_gib\": 8, \"memory_type\": \"HBM2\", \"mem_bandwidth_gbs\": 500, \"l2_cache_mb\": 4,\n"
        "   \"l1_cache_kb_per_sm\": null, \"shared_mem_kb_per_sm\": 164, \"shared_mem_kb_per_block\": 163,\n"
        "   \"max_threads_per_sm\": 2048, \"max_threads_per_block\": 1024, \"registers_per_sm\": 65536,\n"
        "   \"registers_per_block\": 65536, \"warp_size\": 32, \"tdp_w\": 100, \"idle_w\": 10,\n"
        "   \"interface\": \"PCIe 4.0 x16\",\n"
        "   \"mig\": [{\"name\": \"1g.4gb\", \"memory_gib\": 4, \"usable_gib\": null, \"compute_slices\": 1, \"sms\": null, \"max_instances\": 2}],\n"
        "   \"price\": null, \"sources\": [\"me\"]}]}\n";
    const char *path = write_tmp(text, sizeof text - 1);
    CHECK(path != NULL);
    if (!path) return;
    dlp_devdb *db = NULL;
    dlp_error e = {0};
    CHECK(dlp_devdb_load(path, &db, &e) == DLP_OK);
    if (e.msg[0]) fprintf(stderr, "  %s\n", e.msg);
    unlink(path);
    if (!db) return;
    CHECK_I64(dlp_devdb_count(db), 1);
    const dlp_device *d = dlp_devdb_find(db, "MINE");
    CHECK(d && !strcmp(d->id, "my-gpu"));
    if (d) {
        CHECK_STR(d->notes, "");
        CHECK_STR(d->price_provider, "");
        CHECK_NEAR(d->price_usd_per_hour, 0, 0);
        CHECK_I64(d->n_mig, 1);
        CHECK_I64(d->mig[0].sms, 0);
        CHECK_STR(d->sources[0], "measured by hand");
        CHECK_STR(d->source_keys[0], "me");
    }
    CHECK_NEAR(dlp_carbon_intensity(db, NULL), 100, 0);
    CHECK_NEAR(dlp_devdb_pue(db), 1.1, 0);
    dlp_devdb_free(db);
}

/* ---- peak throughput and carbon -------------------------------------------- */

static void t_peak_flops(void) {
    dlp_devdb *db = builtin();
    if (!db) { CHECK(0); return; }
    const dlp_device *h = dlp_devdb_find(db, "h100-sxm"), *v = dlp_devdb_find(db, "v100-16gb"),
                     *t4 = dlp_devdb_find(db, "t4"), *p4 = dlp_devdb_find(db, "p4"),
                     *a = dlp_devdb_find(db, "a100-40gb"), *mi = dlp_devdb_find(db, "mi100");
    CHECK(h && v && t4 && p4 && a && mi);
    if (h && v && t4 && p4 && a && mi) {
        CHECK_NEAR(dlp_device_peak_flops(h, DLP_DT_FLOAT16, 1), 989.4e12, 1e6);
        CHECK_NEAR(dlp_device_peak_flops(h, DLP_DT_FLOAT16, 0), 133.8e12, 1e6);
        CHECK_NEAR(dlp_device_peak_flops(h, DLP_DT_FLOAT, 0), 66.9e12, 1e6);
        CHECK_NEAR(dlp_device_peak_flops(h, DLP_DT_FLOAT, 1), 494.7e12, 1e6);      /* TF32 */
        CHECK_NEAR(dlp_device_peak_flops(h, DLP_DT_BFLOAT16, 1), 989.4e12, 1e6);
        CHECK_NEAR(dlp_device_peak_flops(h, DLP_DT_FLOAT8E4M3FN, 1), 1978.9e12, 1e6);
        CHECK_NEAR(dlp_device_peak_flops(h, DLP_DT_INT8, 1), 1978.9e12, 1e6);
        CHECK_NEAR(dlp_device_peak_flops(a, DLP_DT_DOUBLE, 0), 9.7e12, 1e6);
        CHECK_NEAR(dlp_device_peak_flops(a, DLP_DT_DOUBLE, 1), 19.5e12, 1e6);
        CHECK_NEAR(dlp_device_peak_flops(a, DLP_DT_INT64, 1), 19.5e12, 1e6);       /* ALU ~ FP32 */
        /* no BF16 tensor cores on Volta: vector FP32 rate */
        CHECK_NEAR(dlp_device_peak_flops(v, DLP_DT_BFLOAT16, 1), 15.7e12, 1e6);
        CHECK_NEAR(dlp_device_peak_flops(v, DLP_DT_FLOAT, 1), 15.7e12, 1e6);       /* no TF32 */
        /* no FP8 on Turing: computed as FP16 on the tensor cores */
        CHECK_NEAR(dlp_device_peak_flops(t4, DLP_DT_FLOAT8E5M2, 1), 65e12, 1e6);
        /* GP104's native FP16 is 1/64 rate; libraries use FP32 instead */
        CHECK_NEAR(dlp_device_peak_flops(p4, DLP_DT_FLOAT16, 1), 5.5e12, 1e6);
        CHECK_NEAR(dlp_device_peak_flops(mi, DLP_DT_FLOAT, 1), 46.1e12, 1e6);      /* matrix cores */
    }
    CHECK_NEAR(dlp_device_peak_flops(NULL, DLP_DT_FLOAT, 1), 0, 0);
    dlp_devdb_free(db);
}

/* Today's GPUs against their spec sheets (the golden values come from the
 * vendors' documents named in each comment, not from devices.json). */
static void t_spec_sheets(void) {
    dlp_devdb *db = builtin();
    if (!db) { CHECK(0); return; }
    const dlp_device *b200 = dlp_devdb_find(db, "NVIDIA B200"), *r5090 = dlp_devdb_find(db, "NVIDIA GeForce RTX 5090"),
                     *mi300 = dlp_devdb_find(db, "AMD Instinct MI300X"), *mi355 = dlp_devdb_find(db, "AMD Instinct MI355X"),
                     *h20 = dlp_devdb_find(db, "NVIDIA H20"), *l40 = dlp_devdb_find(db, "NVIDIA L40"),
                     *gb200 = dlp_devdb_find(db, "NVIDIA GB200");
    CHECK(b200 && r5090 && mi300 && mi355 && h20 && l40 && gb200);
    if (b200 && r5090 && mi300 && mi355 && h20 && l40 && gb200) {
        /* HGX B200 datasheet, 8 GPUs, sparse: FP4 144, FP8 72, FP16/BF16 36 PFLOPS;
         * per GPU dense = /8 /2.  180 GB, 1000 W; B200 8 TB/s */
        CHECK_NEAR(b200->fp4_tensor_tflops, 9000, 0);
        CHECK_NEAR(b200->fp8_tensor_tflops, 4500, 0);
        CHECK_NEAR(b200->bf16_tensor_tflops, 2250, 0);
        CHECK_NEAR(b200->memory_gib, 180, 0);
        CHECK_NEAR(b200->mem_bandwidth_gbs, 8000, 0);
        CHECK_NEAR(b200->tdp_w, 1000, 0);
        CHECK(b200->cc_major == 10 && b200->cc_minor == 0 && b200->n_mig == 6);
        /* GB200 NVL72 datasheet, per superchip (2 GPUs), sparse: FP4 40, FP8 20 PFLOPS */
        CHECK_NEAR(gb200->fp4_tensor_tflops, 40000 / 2 / 2, 0);
        CHECK_NEAR(gb200->fp8_tensor_tflops, 20000 / 2 / 2, 0);
        /* RTX Blackwell whitepaper / GeForce specs: 3352 AI TOPS = sparse FP4;
         * FP8 419 and FP16 209.5 dense with FP32 accumulate; 1792 GB/s, 575 W */
        CHECK_NEAR(r5090->fp4_tensor_tflops, 3352 / 2, 0);
        CHECK_NEAR(r5090->fp8_tensor_tflops, 419, 0);
        CHECK_NEAR(r5090->fp16_tensor_tflops, 209.5, 0);
        CHECK_NEAR(r5090->mem_bandwidth_gbs, 1792, 0);
        CHECK(r5090->cc_major == 12 && r5090->n_mig == 0);
        /* ROCm MI300 microarchitecture table: matrix FP8 2614.9, FP16 1307.4
         * TFLOPS; MI300X datasheet: 5.3 TB/s, 750 W */
        CHECK_NEAR(mi300->fp8_tensor_tflops, 2614.9, 0);
        CHECK_NEAR(mi300->fp16_tensor_tflops, 1307.4, 0);
        CHECK_NEAR(mi300->fp4_tensor_tflops, 0, 0);
        CHECK_NEAR(mi300->mem_bandwidth_gbs, 5300, 0);
        CHECK_NEAR(mi300->tdp_w, 750, 0);
        /* MI355X datasheet: MXFP4 10.1 PFLOPS, FP8 5.0, FP16 2.5 (dense); 8 TB/s, 1400 W */
        CHECK_NEAR(mi355->fp4_tensor_tflops, 10066.3, 0.1);
        CHECK_NEAR(mi355->fp8_tensor_tflops, 5033.2, 0.1);
        CHECK_NEAR(mi355->fp16_tensor_tflops, 2516.6, 0.1);
        CHECK_NEAR(mi355->tdp_w, 1400, 0);
        /* H20 spec sheet: FP8 296, BF16 148 TFLOPS, 4.0 TB/s, 400 W */
        CHECK_NEAR(h20->fp8_tensor_tflops, 296, 0);
        CHECK_NEAR(h20->bf16_tensor_tflops, 148, 0);
        CHECK_NEAR(h20->mem_bandwidth_gbs, 4000, 0);
        /* L40 datasheet: FP16 with FP32 accumulate 181.05, FP8 362 (dense) */
        CHECK_NEAR(l40->fp16_tensor_tflops, 181.05, 0);
        CHECK_NEAR(l40->fp8_tensor_tflops, 362.1, 0);
    }
    dlp_devdb_free(db);
}

/* GH200 (96 GB HBM3), from its datasheet by hand: tensor rates listed with
 * sparsity, FP8 3,958 and FP16 1,979 TFLOPS -> dense 1,979 and 989.5 (the
 * H100 SXM's, same GPU); 96 GB at 4 TB/s; module power up to 1,000 W, of which
 * the GPU's own enforced limit is 900 W (nvidia-smi on the 96 GB part).  And
 * what the bandwidth does to a memory-bound decode: Llama-3-8B fp16 at one
 * sequence streams its 8.03e9 weights x 2 B = 16.06 GB per step, >= 16.06e9
 * / 4000e9 = 4.015 ms on a GH200; the same step on an H100 SXM (3,350 GB/s)
 * is slower by at most 4000 / 3350 = 1.194 (only the streamed part scales;
 * the step's fixed costs do not) and by more than 1. */
static void t_gh200(void) {
    dlp_devdb *db = builtin();
    if (!db) { CHECK(0); return; }
    const dlp_device *g = dlp_devdb_find(db, "gh200"), *h = dlp_devdb_find(db, "h100-sxm");
    CHECK(g && h);
    if (g && h) {
        CHECK_NEAR(g->fp8_tensor_tflops, 3958 / 2.0, 0.6);
        CHECK_NEAR(g->fp16_tensor_tflops, 1979 / 2.0, 0.6);
        CHECK_NEAR(g->fp16_tensor_tflops, h->fp16_tensor_tflops, 0);
        CHECK_NEAR(g->memory_gib, 96, 0);
        CHECK_NEAR(g->mem_bandwidth_gbs, 4000, 0);
        CHECK_NEAR(g->tdp_w, 900, 0); /* the GPU's enforced limit (nvidia-smi), not the module's 1,000 W */
        CHECK(g->cc_major == 9 && g->n_mig == 6);
        dlp_llm_config c;
        dlp_error e = {0};
        CHECK(dlp_llm_catalogue_get("meta-llama/Meta-Llama-3-8B", &c, &e) == DLP_OK);
        dlp_llm_workload wl = {.batch = 1, .seq = 128, .gen_tokens = 128, .quant = DLP_QT_FP16, .n_gpus = 1,
                               .concurrency = 1};
        dlp_llm_predict_opts o = {.analytic_only = 1};
        dlp_llm_prediction pg, ph;
        CHECK(dlp_llm_predict(&c, g, db, &wl, &o, &pg, &e) == DLP_OK);
        CHECK(dlp_llm_predict(&c, h, db, &wl, &o, &ph, &e) == DLP_OK);
        double ratio = ph.decode_step_ms / pg.decode_step_ms;
        CHECK(pg.decode_step_ms >= 4.015);
        CHECK(ratio > 1.0 && ratio <= 4000.0 / 3350.0 + 1e-9);
        if (!(ratio > 1.0 && ratio <= 4000.0 / 3350.0 + 1e-9))
            fprintf(stderr, "  decode step h100 %.3f / gh200 %.3f ms = %.3f\n", ph.decode_step_ms, pg.decode_step_ms, ratio);
    }
    dlp_devdb_free(db);
}

/* Intel Data Center GPU Max 1550, from Intel's figures by hand (ARK 232873:
 * 128 Xe cores, 1,600 MHz, 128 GB HBM2e at 3.2768 TB/s, 600 W; Architecture
 * Day 2021: per Xe core and clock 256 FP32 ops on the vector engines and
 * 4,096 FP16/BF16, 2,048 TF32, 8,192 INT8 ops on the XMX engines):
 *   FP32  128 x 256 x 1.6e9  = 52,428.8 GFLOP/s (Hot Chips 34: "52 TF")
 *   FP16  128 x 4096 x 1.6e9 = 838.8608 TFLOP/s (Hot Chips 34: "839")
 *   TF32  128 x 2048 x 1.6e9 = 419.4304;  INT8 128 x 8192 x 1.6e9 = 1,677.7216
 * One stack (a device in FLAT mode) is half of each: 64 Xe cores, 64 GB,
 * 1,638.4 GB/s, 419.4304 FP16, 300 W.  No FP8 on Xe-HPC.  And what the
 * stack's bandwidth does to a decode: Llama-2-7B's 6,738,415,616 weights x
 * 2 B = 13.4768 GB per step take >= 13.4768e9 / 1638.4e9 = 8.2256 ms; the
 * whole card (twice the bandwidth) is faster, by at most 2x. */
static void t_max1550(void) {
    dlp_devdb *db = builtin();
    if (!db) { CHECK(0); return; }
    const dlp_device *c = dlp_devdb_find(db, "max1550"), *s = dlp_devdb_find(db, "max1550-stack");
    CHECK(c && s);
    if (c && s) {
        CHECK_STR(c->vendor, "intel");
        CHECK(c->sm_count == 128 && s->sm_count == 64 && c->fp32_cores_per_sm == 128);
        CHECK_NEAR(c->boost_clock_mhz, 1600, 0);
        CHECK_NEAR(c->peak_fp32_gflops, 52428.8, 1e-6);
        CHECK_NEAR(c->peak_fp64_gflops, 52428.8, 1e-6);
        CHECK_NEAR(c->fp16_tensor_tflops, 838.8608, 1e-9);
        CHECK_NEAR(c->bf16_tensor_tflops, 838.8608, 1e-9);
        CHECK_NEAR(c->tf32_tensor_tflops, 419.4304, 1e-9);
        CHECK_NEAR(c->int8_tensor_tops, 1677.7216, 1e-9);
        CHECK_NEAR(c->memory_gib, 128, 0);
        CHECK_NEAR(c->mem_bandwidth_gbs, 3276.8, 1e-9);
        CHECK_NEAR(c->tdp_w, 600, 0);
        CHECK_NEAR(s->peak_fp32_gflops, 26214.4, 1e-6);
        CHECK_NEAR(s->fp16_tensor_tflops, 419.4304, 1e-9);
        CHECK_NEAR(s->tf32_tensor_tflops, 209.7152, 1e-9);
        CHECK_NEAR(s->memory_gib, 64, 0);
        CHECK_NEAR(s->mem_bandwidth_gbs, 1638.4, 1e-9);
        CHECK_NEAR(s->tdp_w, 300, 0);
        CHECK(dlp_device_supports_dtype(s, DLP_DT_BFLOAT16) && !dlp_device_supports_dtype(s, DLP_DT_FLOAT8E4M3FN));
        CHECK(dlp_devdb_find(db, "Intel Data Center GPU Max 1550") == c && dlp_devdb_find(db, "pvc-stack") == s);
        dlp_llm_config cfg;
        dlp_error e = {0};
        CHECK(dlp_llm_catalogue_get("meta-llama/Llama-2-7b-hf", &cfg, &e) == DLP_OK);
        dlp_llm_workload wl = {.batch = 1, .seq = 128, .gen_tokens = 128, .quant = DLP_QT_FP16, .n_gpus = 1,
                               .concurrency = 1};
        dlp_llm_predict_opts o = {.analytic_only = 1};
        dlp_llm_prediction ps, pc;
        CHECK(dlp_llm_predict(&cfg, s, db, &wl, &o, &ps, &e) == DLP_OK);
        CHECK(dlp_llm_predict(&cfg, c, db, &wl, &o, &pc, &e) == DLP_OK);
        double ratio = ps.decode_step_ms / pc.decode_step_ms;
        CHECK(ps.decode_step_ms >= 8.2256);
        CHECK(ratio > 1.0 && ratio <= 2.0 + 1e-9);
        if (!(ps.decode_step_ms >= 8.2256 && ratio > 1.0 && ratio <= 2.0 + 1e-9))
            fprintf(stderr, "  decode step stack %.3f / card %.3f ms\n", ps.decode_step_ms, pc.decode_step_ms);
    }
    dlp_devdb_free(db);
}

/* FP8/FP4 peaks per dtype and the dtypes a device runs natively. */
static void t_low_precision(void) {
    CHECK_I64(DLP_DT_FLOAT4E2M1, 23);        /* ONNX TensorProto.FLOAT4E2M1 */
    CHECK_I64(DLP_DT_COUNT_, 24);
    CHECK_I64(dlp_dtype_size(DLP_DT_FLOAT4E2M1), 1);
    CHECK_STR(dlp_dtype_name(DLP_DT_FLOAT4E2M1), "float4e2m1");
    CHECK_STR(dlp_dtype_name(DLP_DT_COUNT_), "unknown");
    dlp_devdb *db = builtin();
    if (!db) { CHECK(0); return; }
    const dlp_device *b200 = dlp_devdb_find(db, "b200"), *h = dlp_devdb_find(db, "h100-sxm"),
                     *a = dlp_devdb_find(db, "a100-40gb"), *v = dlp_devdb_find(db, "v100-16gb"),
                     *t4 = dlp_devdb_find(db, "t4"), *mi300 = dlp_devdb_find(db, "mi300x"),
                     *mi355 = dlp_devdb_find(db, "mi355x"), *r5090 = dlp_devdb_find(db, "rtx5090"),
                     *p100 = dlp_devdb_find(db, "p100"), *cpu = dlp_devdb_find(db, "cpu-amd-epyc-2c"),
                     *b300 = dlp_devdb_find(db, "b300");
    CHECK(b200 && h && a && v && t4 && mi300 && mi355 && r5090 && p100 && cpu && b300);
    if (b200 && h && a && v && t4 && mi300 && mi355 && r5090 && p100 && cpu && b300) {
        /* tensor rates by dtype (values: t_spec_sheets) */
        CHECK_NEAR(dlp_device_peak_flops(b200, DLP_DT_FLOAT4E2M1, 1), 9000e12, 1e6);
        CHECK_NEAR(dlp_device_peak_flops(b200, DLP_DT_FLOAT8E4M3FN, 1), 4500e12, 1e6);
        CHECK_NEAR(dlp_device_peak_flops(b200, DLP_DT_FLOAT8E5M2, 1), 4500e12, 1e6);
        CHECK_NEAR(dlp_device_peak_flops(r5090, DLP_DT_FLOAT4E2M1, 1), 1676e12, 1e6);
        CHECK_NEAR(dlp_device_peak_flops(mi355, DLP_DT_FLOAT4E2M1, 1), 10066.3e12, 1e6);
        CHECK_NEAR(dlp_device_peak_flops(mi300, DLP_DT_FLOAT8E4M3FNUZ, 1), 2614.9e12, 1e6);
        CHECK_NEAR(dlp_device_peak_flops(mi300, DLP_DT_FLOAT8E5M2FNUZ, 1), 2614.9e12, 1e6);
        /* no FP4 units: upcast to FP8 (H100, MI300X), or further to FP16 (A100) */
        CHECK_NEAR(dlp_device_peak_flops(h, DLP_DT_FLOAT4E2M1, 1), 1978.9e12, 1e6);
        CHECK_NEAR(dlp_device_peak_flops(mi300, DLP_DT_FLOAT4E2M1, 1), 2614.9e12, 1e6);
        CHECK_NEAR(dlp_device_peak_flops(a, DLP_DT_FLOAT4E2M1, 1), 312e12, 1e6);
        /* tensor_core = 0: the vector FP16 path (B200 publishes no vector
         * FP16, so FP32's 75 TFLOP/s; H100 133.8) */
        CHECK_NEAR(dlp_device_peak_flops(b200, DLP_DT_FLOAT4E2M1, 0), 75e12, 1e6);
        CHECK_NEAR(dlp_device_peak_flops(b200, DLP_DT_FLOAT8E4M3FN, 0), 75e12, 1e6);
        CHECK_NEAR(dlp_device_peak_flops(h, DLP_DT_FLOAT4E2M1, 0), 133.8e12, 1e6);
        CHECK_NEAR(dlp_device_peak_flops(NULL, DLP_DT_FLOAT4E2M1, 1), 0, 0);

        /* native support */
        CHECK(dlp_device_supports_dtype(b200, DLP_DT_FLOAT4E2M1) == 1);
        CHECK(dlp_device_supports_dtype(r5090, DLP_DT_FLOAT4E2M1) == 1);
        CHECK(dlp_device_supports_dtype(mi355, DLP_DT_FLOAT4E2M1) == 1);
        CHECK(dlp_device_supports_dtype(h, DLP_DT_FLOAT4E2M1) == 0);
        CHECK(dlp_device_supports_dtype(mi300, DLP_DT_FLOAT4E2M1) == 0);
        CHECK(dlp_device_supports_dtype(h, DLP_DT_FLOAT8E4M3FN) == 1);
        CHECK(dlp_device_supports_dtype(mi300, DLP_DT_FLOAT8E5M2FNUZ) == 1);
        CHECK(dlp_device_supports_dtype(a, DLP_DT_FLOAT8E4M3FN) == 0);
        CHECK(dlp_device_supports_dtype(t4, DLP_DT_FLOAT8E5M2) == 0);
        CHECK(dlp_device_supports_dtype(a, DLP_DT_BFLOAT16) == 1);
        CHECK(dlp_device_supports_dtype(v, DLP_DT_BFLOAT16) == 0);
        CHECK(dlp_device_supports_dtype(mi300, DLP_DT_BFLOAT16) == 1);
        CHECK(dlp_device_supports_dtype(v, DLP_DT_FLOAT16) == 1);
        CHECK(dlp_device_supports_dtype(p100, DLP_DT_FLOAT16) == 1);     /* native vector FP16 */
        CHECK(dlp_device_supports_dtype(p100, DLP_DT_BFLOAT16) == 0);
        CHECK(dlp_device_supports_dtype(b300, DLP_DT_DOUBLE) == 1);
        CHECK(dlp_device_supports_dtype(cpu, DLP_DT_FLOAT) == 1);
        CHECK(dlp_device_supports_dtype(cpu, DLP_DT_FLOAT16) == 0);
        CHECK(dlp_device_supports_dtype(cpu, DLP_DT_INT64) == 1);
        CHECK(dlp_device_supports_dtype(h, DLP_DT_INT4) == 0);
        CHECK(dlp_device_supports_dtype(h, DLP_DT_STRING) == 0);
        CHECK(dlp_device_supports_dtype(h, DLP_DT_COMPLEX64) == 0);
        CHECK(dlp_device_supports_dtype(h, 99) == 0);
    }
    CHECK(dlp_device_supports_dtype(NULL, DLP_DT_FLOAT) == 0);
    dlp_devdb_free(db);
}

static void t_carbon(void) {
    dlp_devdb *db = builtin();
    if (!db) { CHECK(0); return; }
    CHECK_NEAR(dlp_carbon_intensity(db, "world"), 475, 0);
    CHECK_NEAR(dlp_carbon_intensity(db, NULL), 475, 0);
    CHECK_NEAR(dlp_carbon_intensity(db, ""), 475, 0);
    CHECK_STR(dlp_carbon_default_region(db), "world");
    static const char *const regions[] = {"eu", "us", "fr", "de", "uk", "cn", "in", "lu", "se", "us-west", "us-east"};
    for (size_t i = 0; i < sizeof regions / sizeof regions[0]; i++) {
        double g = dlp_carbon_intensity(db, regions[i]);
        if (!(g > 0 && g < 1000)) fprintf(stderr, "  region %s -> %g\n", regions[i], g);
        CHECK(g > 0 && g < 1000);
    }
    CHECK(dlp_carbon_intensity(db, "FR") == dlp_carbon_intensity(db, "fr"));
    CHECK(dlp_carbon_intensity(db, "fr") < dlp_carbon_intensity(db, "de"));
    CHECK_NEAR(dlp_carbon_intensity(db, "mars"), -1, 0);
    CHECK_NEAR(dlp_carbon_intensity(NULL, "world"), -1, 0);
    CHECK_NEAR(dlp_devdb_pue(db), 1.2, 0);
    int n = dlp_carbon_region_count(db);
    CHECK(n >= 12);
    const dlp_region *r = dlp_carbon_region_at(db, 0);
    CHECK(r && r->id && r->source && r->source[0] && r->g_per_kwh > 0);
    /* the id of each region finds its own intensity */
    CHECK(r && dlp_carbon_intensity(db, r->id) == r->g_per_kwh);
    CHECK(dlp_carbon_region_at(db, n) == NULL);
    CHECK(dlp_carbon_region_at(db, -1) == NULL);
    CHECK(dlp_carbon_region_at(NULL, 0) == NULL);
    dlp_devdb_free(db);
}

int main(void) {
    RUN(t_builtin_loads);
    RUN(t_sane_values);
    RUN(t_alias_lookup);
    RUN(t_cpu_device);
    snprintf(neusight_dir, sizeof neusight_dir, "%s/data/NeuSight/scripts/asplos/data/device_configs",
             tap_shared());
    struct stat sb;
    if (stat(neusight_dir, &sb) == 0 && S_ISDIR(sb.st_mode))
        RUN(t_neusight_agreement);
    else
        printf("# skip t_neusight_agreement: %s not found\n", neusight_dir);
    RUN(t_mig_dippm_rule);
    RUN(t_mig_h100_and_slo);
    RUN(t_mig_none_and_errors);
    RUN(t_malformed_json);
    RUN(t_custom_file);
    RUN(t_peak_flops);
    RUN(t_spec_sheets);
    RUN(t_gh200);
    RUN(t_max1550);
    RUN(t_low_precision);
    RUN(t_carbon);
    return TAP_DONE();
}
