/*
 * test_coll.c — the collective model behind tensor/expert parallel serving
 * and data-parallel training plans (llm_serve.c coll_s): more GPUs in a
 * ring never make one collective of the same per-GPU bytes faster.
 *
 * Why: a ring all-reduce moves 2 (n - 1) / n of the bytes over the slowest
 * link, which rises with n; past one node (8 GPUs, 72 on NVL72 racks) the
 * ring also crosses the NICs, so the slower of the node link and a NIC
 * bounds it.  Before this was checked, 16 PCIe boards were given the NIC's
 * 100 GB/s instead of their own PCIe rate and all-reduced faster than 8
 * (issue 24's note: 276 violations on this grid).  The rule is checked on
 * every GPU of the database from 8 GPUs up, for every collective and a
 * small and a large message.
 */
#include <math.h>
#include <stdio.h>

#include "dlperf.h"
#include "llm/llm_internal.h"
#include "tap.h"

static void t_more_gpus_never_faster(void) {
    dlp_devdb *db = NULL;
    dlp_error e = {0};
    CHECK(dlp_devdb_load(NULL, &db, &e) == DLP_OK);
    if (!db) return;
    /* from one full node up: within a node the times are NCCL's measured
     * tables, where 4 NVSwitch-connected GPUs may beat 2 on a small message
     * (more links, other channel counts) — measured, left as it is */
    static const int ns[] = {8, 16, 32, 64, 128};
    static const double bytes[] = {1 << 20, 256.0 * (1 << 20)};
    int checked = 0, bad = 0;
    for (int k = 0; k < dlp_devdb_count(db); k++) {
        const dlp_device *d = dlp_devdb_at(db, k);
        if (d->kind != DLP_DEVICE_GPU) continue;
        for (int op = DLP__COLL_ALLREDUCE; op <= DLP__COLL_ALLTOALL; op++)
            for (int b = 0; b < 2; b++) {
                double prev = 0;
                for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
                    double t = dlp__llm_coll_s(d, op, ns[i], bytes[b]);
                    checked++;
                    if (!(t >= prev) || !isfinite(t)) {
                        if (bad++ < 5)
                            fprintf(stderr, "  %s op %d %.0f B: %d GPUs %.6g s < %d GPUs %.6g s\n", d->id,
                                    op, bytes[b], ns[i], t, ns[i - 1], prev);
                    }
                    prev = t;
                }
            }
    }
    CHECK(checked > 500);
    CHECK_I64(bad, 0);
    dlp_devdb_free(db);
}

/* A pair of bridged PCIe boards all-reduces over its NVLink bridge (the
 * device's interface text gives the rate); four cross PCIe.  Hand values
 * from nccl_table.inc's A100 (NVLink 3, 600 GB/s) 2-GPU all_reduce row,
 * whose size axis is fp16 elements scaled by 600 / the link:
 *   h100-pcie, bridge 600 GB/s, 2 MiB = 1,048,576 elements x 600 / 600:
 *     the table's entry at 1,048,576, 0.04758 ms;
 *   a40, bridge 112.5 GB/s, 2 MiB: 1,048,576 x 600 / 112.5 = 5,592,405
 *     elements, between 4,194,304 (0.08713 ms) and 8,388,608 (0.1282 ms),
 *     log-log: f = log2(5,592,405 / 4,194,304) = 0.41504,
 *     0.08713 x (0.1282 / 0.08713)^0.41504 = 0.10228 ms.
 * Before the bridge was read, h100-pcie's pair went over PCIe 5 (64 GB/s
 * one way): 1,048,576 x 600 / 64 = 9.83 M elements, 0.146 ms.  Both A100
 * PCIe boards (40 and 80 GB) take the same 600 GB/s bridge (their product
 * brief / datasheet): the same 0.04758 ms as h100-pcie's pair. */
static void t_bridge_pair(void) {
    dlp_devdb *db = NULL;
    dlp_error e = {0};
    CHECK(dlp_devdb_load(NULL, &db, &e) == DLP_OK);
    if (!db) return;
    const dlp_device *h = dlp_devdb_find(db, "h100-pcie"), *a = dlp_devdb_find(db, "a40");
    CHECK(h != NULL && a != NULL);
    if (h && a) {
        double b = 2.0 * 1048576.0;
        CHECK_NEAR(dlp__llm_coll_s(h, DLP__COLL_ALLREDUCE, 2, b) * 1e3, 0.04758, 1e-6);
        CHECK_NEAR(dlp__llm_coll_s(a, DLP__COLL_ALLREDUCE, 2, b) * 1e3, 0.10228, 2e-5);
        /* four boards are two pairs joined over PCIe: slower than one pair */
        CHECK(dlp__llm_coll_s(h, DLP__COLL_ALLREDUCE, 4, b) > 2.0 * dlp__llm_coll_s(h, DLP__COLL_ALLREDUCE, 2, b));
    }
    static const char *const a100p[] = {"a100-pcie-40gb", "a100-pcie-80gb"};
    for (int i = 0; i < 2; i++) {
        const dlp_device *x = dlp_devdb_find(db, a100p[i]);
        CHECK(x != NULL);
        if (x) CHECK_NEAR(dlp__llm_coll_s(x, DLP__COLL_ALLREDUCE, 2, 2.0 * 1048576.0) * 1e3, 0.04758, 1e-6);
    }
    dlp_devdb_free(db);
}

int main(void) {
    RUN(t_more_gpus_never_faster);
    RUN(t_bridge_pair);
    return TAP_DONE();
}
