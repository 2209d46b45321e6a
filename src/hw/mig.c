/*
 * mig.c — which MIG (Multi-Instance GPU) profile should serve a model?
 *
 * The rule (docs/devices.md, "MIG rule") generalises DIPPM's (thesis eq. 4.2:
 * on an A100-40GB, 0-5 GB -> 1g.5gb, 5-10 -> 2g.10gb, 10-20 -> 3g.20gb,
 * 20-40 -> 7g.40gb): take the profiles in order of nominal memory, then
 * compute slices, and pick the first whose memory holds the model's memory
 * plus a safety margin and, when a latency SLO is given, whose estimated
 * latency meets it.  Ordering by slices second is why 3g.20gb beats 4g.20gb:
 * the same memory with less compute leaves more of the GPU to others.
 *
 * Latency on a slice is estimated as full-GPU latency x S / g, where S is
 * the device's largest slice count (7 on A100/H100/B200, 4 on RTX PRO 6000)
 * and g the profile's slices: a deliberately simple linear-in-compute model
 * (it ignores that small kernels may not fill a full GPU, so it is
 * pessimistic for them).
 *
 * Memory is compared with the nominal profile size (the number in its name,
 * the guide's memory fraction x device memory), as DIPPM did; the usable
 * memory nvidia-smi reports is a little lower (1g.5gb: 4.75 GiB), which the
 * per-profile fits_usable flag shows and the safety margin is meant to cover.
 */
#include "util/human.h" /* the reason is read by people: no exponent (%g would print 1e-06) */
#include "hw/hw.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Relative slack for "fits": need == capacity must fit even after the
 * rounding in memory_mb * (1 + margin). */
#define FIT_EPS 1e-9

dlp_status dlp_mig_recommend(const dlp_device *dev, double memory_mb, double safety_margin,
                             double latency_ms_full_gpu, double latency_slo_ms,
                             dlp_mig_choice *out) {
    if (!out) return DLP_EINVAL;
    memset(out, 0, sizeof *out);
    out->index = -1;
    out->latency_ms = -1;
    if (!dev) {
        snprintf(out->reason, sizeof out->reason, "no device given");
        return DLP_EINVAL;
    }
    if (!isfinite(memory_mb) || memory_mb < 0) {
        snprintf(out->reason, sizeof out->reason, "memory must be a finite number >= 0 MiB");
        return DLP_EINVAL;
    }
    if (!isfinite(safety_margin) || safety_margin < 0 || safety_margin > 10) {
        snprintf(out->reason, sizeof out->reason, "safety margin must be in [0, 10]");
        return DLP_EINVAL;
    }
    if (!isfinite(latency_ms_full_gpu) || !isfinite(latency_slo_ms)) {
        snprintf(out->reason, sizeof out->reason, "latency and SLO must be finite");
        return DLP_EINVAL;
    }
    int have_lat = latency_ms_full_gpu > 0, have_slo = latency_slo_ms > 0;
    if (have_slo && !have_lat) {
        snprintf(out->reason, sizeof out->reason,
                 "a latency SLO needs the full-GPU latency to scale from");
        return DLP_EINVAL;
    }
    double need = memory_mb * (1.0 + safety_margin);
    out->need_mb = need;
    if (dev->n_mig <= 0 || !dev->mig) {
        snprintf(out->reason, sizeof out->reason, "device '%s' has no MIG profiles", dev->id);
        return DLP_OK;
    }
    int n = dev->n_mig < DLP_MIG_MAX_PROFILES ? dev->n_mig : DLP_MIG_MAX_PROFILES;
    int smax = 1, largest = 0;
    for (int i = 0; i < n; i++) {
        if (dev->mig[i].compute_slices > smax) smax = dev->mig[i].compute_slices;
        if (dev->mig[i].memory_gib > dev->mig[largest].memory_gib) largest = i;
    }
    out->n_fit = n;
    int best = -1, any_mem = 0, fastest = -1;
    for (int i = 0; i < n; i++) {
        const dlp_mig_profile *p = &dev->mig[i];
        dlp_mig_fit *f = &out->fit[i];
        double cap = p->memory_gib * 1024.0;
        f->used_share = cap > 0 ? memory_mb / cap : INFINITY;
        f->fits_memory = need <= cap * (1 + FIT_EPS);
        f->fits_usable = p->usable_gib > 0 ? need <= p->usable_gib * 1024.0 * (1 + FIT_EPS) : -1;
        f->latency_ms = have_lat && p->compute_slices > 0
                            ? latency_ms_full_gpu * smax / p->compute_slices : -1;
        f->meets_slo = have_slo ? f->latency_ms <= latency_slo_ms * (1 + FIT_EPS) : -1;
        if (!f->fits_memory) continue;
        any_mem = 1;
        if (fastest < 0 || f->latency_ms < out->fit[fastest].latency_ms) fastest = i;
        if (f->meets_slo == 0) continue;
        if (best < 0 || p->memory_gib < dev->mig[best].memory_gib ||
            (p->memory_gib == dev->mig[best].memory_gib &&
             p->compute_slices < dev->mig[best].compute_slices))
            best = i;
    }
    char need_txt[96];
    snprintf(need_txt, sizeof need_txt, "%.0f MiB (%.0f MiB + %g%% margin)", need, memory_mb,
             safety_margin * 100);
    if (best < 0) {
        if (!any_mem)
            snprintf(out->reason, sizeof out->reason,
                     "needs %s but the largest profile %s has %g GiB (%.0f MiB)", need_txt,
                     dev->mig[largest].name, dev->mig[largest].memory_gib,
                     dev->mig[largest].memory_gib * 1024.0);
        else
            snprintf(out->reason, sizeof out->reason,
                     "no profile holding %s meets the %s ms SLO (fastest: %s at %s ms)", need_txt,
                     dlp__hu_sig(latency_slo_ms, 6), dev->mig[fastest].name,
                     dlp__hu_sig(out->fit[fastest].latency_ms, 3));
        return DLP_OK;
    }
    out->index = best;
    out->profile = &dev->mig[best];
    out->latency_ms = out->fit[best].latency_ms;
    int len = snprintf(out->reason, sizeof out->reason,
                       "smallest profile whose %g GiB hold %s", dev->mig[best].memory_gib, need_txt);
    if (have_slo && len > 0 && (size_t)len < sizeof out->reason)
        snprintf(out->reason + len, sizeof out->reason - (size_t)len,
                 " and whose estimated %s ms meets the %s ms SLO", dlp__hu_sig(out->latency_ms, 3),
                 dlp__hu_sig(latency_slo_ms, 6));
    return DLP_OK;
}
