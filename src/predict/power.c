/* power.c — DRAM energy per bit (power.h). */
#include "predict/power.h"

#include <string.h>
#include <strings.h>

/* Device energy per bit at the DRAM, pJ/bit:
 *   HBM2 3.9: O'Connor et al., "Fine-Grained DRAM: Energy-Efficient DRAM for
 *     Extreme Bandwidth Systems", MICRO-50 2017 (NVIDIA; HBM2 baseline).
 *   HBM2E 6.0, GDDR6 7.5, GDDR6X 7.25: Micron, "Ultra-Bandwidth Solutions"
 *     memory comparison, average device power per bit
 *     (micron.com/products/ultra-bandwidth-solutions).
 *   HBM3 / HBM3E: no vendor figure found; HBM2E's 6.0 is used (same
 *     interposer I/O class; an assumption, said in docs/predict.md).
 *   GDDR7: no vendor figure found; GDDR6X's 7.25 (PAM signalling as 6X).
 *   GDDR5 / GDDR5X: GDDR6's 7.5 as a lower bound (older, slower I/O; O'Connor
 *     et al. put GDDR5 well above HBM2).
 * These are the DRAM's own energy; the GPU's side of the link (PHY, memory
 * controller, L2) is not included, so memory power here is a floor. */
double dlp__mem_pj_per_bit(const dlp_device *d) {
    const char *t = d ? d->memory_type : NULL;
    if (!t || !*t) return 0;
    if (!strncasecmp(t, "HBM2e", 5) || !strncasecmp(t, "HBM3", 4)) return 6.0;
    if (!strncasecmp(t, "HBM2", 4)) return 3.9;
    if (!strncasecmp(t, "GDDR6X", 6) || !strncasecmp(t, "GDDR7", 5)) return 7.25;
    if (!strncasecmp(t, "GDDR", 4)) return 7.5;
    return 0;
}

double dlp__mem_power_w(const dlp_device *d, double bytes_per_s) {
    if (!(bytes_per_s > 0)) return 0;
    return dlp__mem_pj_per_bit(d) * 1e-12 * 8.0 * bytes_per_s;
}
