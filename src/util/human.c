/*
 * human.c — numbers for people; the rules are in human.h.
 */
#include "util/human.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define HU_LEN 96

static char *ring_next(void) {
    static _Thread_local char ring[DLP__HU_RING][HU_LEN];
    static _Thread_local unsigned at;
    return ring[at++ % DLP__HU_RING];
}

/* Digits of a non-negative whole number with thousands separators. */
static void grouped(char *out, size_t n, double whole, int neg) {
    char d[HU_LEN];
    snprintf(d, sizeof d, "%.0f", whole);
    size_t L = strlen(d), o = 0;
    if (neg && o + 1 < n) out[o++] = '-';
    for (size_t i = 0; i < L && o + 2 < n; i++) {
        if (i && (L - i) % 3 == 0) out[o++] = ',';
        out[o++] = d[i];
    }
    out[o] = 0;
}

/* v with `sig` significant digits, fixed notation, trailing zeros dropped. */
static void fixed_sig(char *out, size_t n, double v, int sig) {
    if (!isfinite(v)) {
        snprintf(out, n, "n/a");
        return;
    }
    double a = fabs(v);
    if (a < 5e-10) {
        snprintf(out, n, "0");
        return;
    }
    int e = (int)floor(log10(a));
    if (e >= 3) {
        /* round to `sig` digits, then print the whole number grouped */
        double scale = pow(10, e + 1 - sig);
        double r = e + 1 > sig ? round(a / scale) * scale : round(a);
        grouped(out, n, r, v < 0);
        return;
    }
    int dec = sig - 1 - e;
    if (dec < 0) dec = 0;
    if (dec > 9) dec = 9;
    snprintf(out, n, "%.*f", dec, v);
    if (strchr(out, '.')) {
        size_t L = strlen(out);
        while (L && out[L - 1] == '0') out[--L] = 0;
        if (L && out[L - 1] == '.') out[--L] = 0;
    }
    if (!strcmp(out, "1000") || !strcmp(out, "-1000")) grouped(out, n, 1000, v < 0); /* 999.96 */
}

const char *dlp__hu_sig(double v, int sig) {
    char *b = ring_next();
    fixed_sig(b, HU_LEN, v, sig < 1 ? 1 : sig > 9 ? 9 : sig);
    return b;
}

const char *dlp__hu_num(double v) { return dlp__hu_sig(v, 4); }

const char *dlp__hu_count(double v) {
    if (isfinite(v) && v == floor(v) && fabs(v) < 1e18) {
        char *b = ring_next();
        grouped(b, HU_LEN, fabs(v), v < 0);
        return b;
    }
    return dlp__hu_num(v);
}

/* v in the first unit of a ladder: step up while the value reaches the
 * next unit's threshold. */
static const char *ladder(double v, int sig, const char *const *units, const double *factor, int n) {
    char *b = ring_next();
    if (!isfinite(v)) {
        snprintf(b, HU_LEN, "n/a");
        return b;
    }
    int k = 0;
    while (k + 1 < n && fabs(v) >= factor[k + 1] * (1 - 0.5 * pow(10, -sig))) k++;
    char num[HU_LEN - 16];
    fixed_sig(num, sizeof num, v / factor[k], sig);
    snprintf(b, HU_LEN, "%s %s", num, units[k]);
    return b;
}

const char *dlp__hu_ms(double ms) {
    static const char *const u[] = {"ns", "µs", "ms", "s", "min", "h", "days"};
    static const double f[] = {1e-6, 1e-3, 1, 1e3, 60e3, 3600e3, 86400e3};
    if (ms == 0) return "0 ms";
    /* hours up to two days (36 h reads better than 1.5 days) */
    if (fabs(ms) >= 3600e3 && fabs(ms) < 48 * 3600e3) return ladder(ms, 4, u + 5, f + 5, 1);
    return ladder(ms, 4, u, f, 7);
}

const char *dlp__hu_usd(double usd) {
    char *b = ring_next();
    double a = fabs(usd);
    if (!isfinite(usd)) snprintf(b, HU_LEN, "n/a");
    else if (usd == 0) snprintf(b, HU_LEN, "$0");
    else if (a < 0.005) snprintf(b, HU_LEN, "< $0.01");
    else if (a < 999.995) snprintf(b, HU_LEN, "%s$%.2f", usd < 0 ? "-" : "", a);
    else {
        char num[HU_LEN - 16];
        grouped(num, sizeof num, round(a), 0);
        snprintf(b, HU_LEN, "%s$%s", usd < 0 ? "-" : "", num);
    }
    return b;
}

const char *dlp__hu_w(double w) {
    static const char *const u[] = {"W", "kW", "MW", "GW"};
    static const double f[] = {1, 1e3, 1e6, 1e9};
    return ladder(w, 3, u, f, 4);
}

const char *dlp__hu_j(double j) {
    static const char *const u[] = {"µJ", "mJ", "J", "kJ", "MJ"};
    static const double f[] = {1e-6, 1e-3, 1, 1e3, 1e6};
    if (j == 0) return "0 J";
    if (fabs(j) >= 3.6e7) {
        char *b = ring_next();
        char num[HU_LEN - 16];
        fixed_sig(num, sizeof num, j / 3.6e6, 4);
        snprintf(b, HU_LEN, "%s kWh", num);
        return b;
    }
    return ladder(j, 4, u, f, 5);
}

const char *dlp__hu_g(double g) {
    static const char *const u[] = {"µg", "mg", "g", "kg", "t"};
    static const double f[] = {1e-6, 1e-3, 1, 1e3, 1e6};
    if (g == 0) return "0 g";
    return ladder(g, 4, u, f, 5);
}

const char *dlp__hu_si(double v, const char *unit) {
    static const char *const p[] = {"", "k", "M", "G", "T", "P", "E"};
    char *b = ring_next();
    if (!isfinite(v)) {
        snprintf(b, HU_LEN, "n/a");
        return b;
    }
    int k = 0;
    while (k < 6 && fabs(v) >= 999.5 * pow(1000, k)) k++;
    char num[HU_LEN - 16];
    fixed_sig(num, sizeof num, v / pow(1000, k), 3);
    if (*unit) snprintf(b, HU_LEN, "%s %s%.8s", num, p[k], unit);
    else snprintf(b, HU_LEN, "%s%s", num, p[k]);
    return b;
}

int dlp__hu_extra(const char *s) {
    int n = 0;
    for (; *s; s++) n += ((unsigned char)*s & 0xC0) == 0x80;
    return n;
}

const char *dlp__hu_params(double v) {
    static const char *const p[] = {"", "K", "M", "B", "T"};
    char *b = ring_next();
    int k = 0;
    while (k < 4 && isfinite(v) && fabs(v) >= 999.5 * pow(1000, k)) k++;
    char num[HU_LEN - 16];
    fixed_sig(num, sizeof num, v / pow(1000, k), 3);
    snprintf(b, HU_LEN, "%s%s", num, p[k]);
    return b;
}
