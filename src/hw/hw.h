/*
 * hw.h — internals of the hardware-database module (src/hw): the embedded
 * copy of data/devices.json and the database layout shared by hw.c (loading,
 * lookup, carbon) and mig.c (MIG recommendation).  Not public API.
 */
#ifndef DLP_HW_H
#define DLP_HW_H

#include "dlperf.h"
#include "util/util.h"

/* data/devices.json as compiled into the library (devices_embed.c),
 * NUL-terminated so cJSON can parse it in place. */
extern const char dlp__devices_json[];

/* Name used in messages about the built-in copy. */
#define DLP__BUILTIN_DEVICES_NAME "builtin data/devices.json"

/* dlp_carbon_region_at hands these out as they are */
typedef dlp_region dlp__carbon_region;

struct dlp_devdb {
    dlp__arena arena;          /* every string and array below lives here      */
    int n;
    dlp_device *devs;
    dlp__strmap index;         /* normalised id/name/alias -> device index      */
    int n_regions;
    dlp__carbon_region *regions;
    const char *default_region;
    double pue;
};

/* Normalise a device name for lookup: lowercase letters and digits only,
 * leading vendor/brand words dropped.  Writes at most cap bytes; returns the
 * length, or -1 when it does not fit. */
int dlp__hw_norm(const char *s, char *out, size_t cap);

#endif
