/*
 * ops.c — the op registry: the table fragments of ops_*.c joined into one
 * index keyed by "domain:op_type".  Built once (pthread_once) so lookups are
 * thread-safe for the server.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "graph/ops.h"

static const dlp__op_def *const fragments[] = {dlp__ops_ew, dlp__ops_nn, dlp__ops_tensor};

#define MAX_OPS 1024
static const dlp__op_def *table[MAX_OPS];
static char keys[MAX_OPS][96];
static int n_table;
static dlp__strmap index_map;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static const char *norm_domain(const char *d) {
    /* "ai.onnx" is the default domain spelled out */
    if (!d || (d[0] == 'a' && !strcmp(d, "ai.onnx"))) return "";
    return d;
}

static void build_index(void) {
    dlp__strmap_init(&index_map, MAX_OPS);
    for (size_t f = 0; f < sizeof fragments / sizeof fragments[0]; f++)
        for (const dlp__op_def *d = fragments[f]; d->name && n_table < MAX_OPS; d++) {
            snprintf(keys[n_table], sizeof keys[n_table], "%s:%s", norm_domain(d->domain), d->name);
            if (dlp__strmap_get(&index_map, keys[n_table]) >= 0) continue; /* first wins */
            table[n_table] = d;
            dlp__strmap_put(&index_map, keys[n_table], n_table);
            n_table++;
        }
}

int dlp__op_find(const char *domain, const char *op_type) {
    char key[256];
    pthread_once(&once, build_index);
    size_t dl = strlen(norm_domain(domain)), ol = strlen(op_type);
    if (dl + ol + 2 > sizeof key) return -1;
    memcpy(key, norm_domain(domain), dl);
    key[dl] = ':';
    memcpy(key + dl + 1, op_type, ol + 1);
    int r = dlp__strmap_get(&index_map, key);
    if (r < 0 && !strcmp(norm_domain(domain), "com.microsoft")) {
        /* contrib ops that mirror a standard op (e.g. com.microsoft:Gelu) */
        snprintf(key, sizeof key, ":%s", op_type);
        r = dlp__strmap_get(&index_map, key);
    }
    return r;
}

const dlp__op_def *dlp__node_def(const dlp__node *n) {
    return n->op >= 0 && n->op < n_table ? table[n->op] : NULL;
}

/* Number of registered ops (for docs/tests). */
int dlp__op_count(void);
int dlp__op_count(void) {
    pthread_once(&once, build_index);
    return n_table;
}
const dlp__op_def *dlp__op_at(int i);
const dlp__op_def *dlp__op_at(int i) {
    pthread_once(&once, build_index);
    return i >= 0 && i < n_table ? table[i] : NULL;
}
