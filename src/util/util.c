/*
 * util.c — arenas, the string map, errors, checked file I/O, CRC-32.
 * Everything the other modules need and nothing model-specific.
 */
#include "util/util.h"

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

dlp_status dlp__err(dlp_error *err, dlp_status code, const char *fmt, ...) {
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
        /* one line: fold any newline an argument smuggled in */
        for (char *p = err->msg; *p; p++)
            if (*p == '\n' || *p == '\r') *p = ' ';
        err->code = code;
    }
    return code;
}

const char *dlp_status_str(dlp_status s) {
    switch (s) {
    case DLP_OK: return "ok";
    case DLP_EINVAL: return "invalid argument";
    case DLP_EIO: return "i/o error";
    case DLP_EFORMAT: return "malformed file";
    case DLP_EGRAPH: return "invalid graph";
    case DLP_ESHAPE: return "shape error";
    case DLP_ENOMEM: return "out of memory";
    case DLP_EUNBOUND: return "unbound symbolic dimension";
    case DLP_ENOTFOUND: return "not found";
    case DLP_EVERSION: return "unsupported file version";
    case DLP_ECHECKSUM: return "checksum mismatch";
    case DLP_EUNSUPPORTED: return "unsupported";
    case DLP_EINTERNAL: return "internal error";
    }
    return "unknown status";
}

const char *dlp_version(void) { return DLP_VERSION_STRING; }

/* Every buffer the library hands out comes from malloc; callers in other
 * languages (ctypes) cannot reach this libc's free reliably, hence this. */
void dlp_free(void *p) { free(p); }

/* ---- arena ----------------------------------------------------------- */

struct dlp__arena_block {
    dlp__arena_block *next;
    size_t used, cap;
    size_t zeroed;   /* data[used, zeroed) is known to be zero */
    size_t mapped;   /* bytes mmapped for the block (0: from malloc) */
    _Alignas(16) unsigned char data[];
};

/* Blocks come from malloc and are zeroed as they are handed out, a chunk
 * at a time: a graph's arena fills ~half of its last block, and calloc
 * cleared all of it (plus page faults on fresh memory). */
#define ARENA_ZERO_CHUNK ((size_t)16384)

/* Blocks from ARENA_MAP_MIN on are mmapped: fresh pages are zero already
 * (no memset), and from 2 MiB on the kernel is asked for huge pages (where
 * transparent huge pages are "madvise"): a 5,000-node export fills several
 * MiB, and one fault per 4 KiB page was a fifth of `inspect`'s time. */
#define ARENA_MAP_MIN ((size_t)1 << 20)
#define HUGE_PAGE ((size_t)2 << 20)

static dlp__arena_block *arena_map(size_t cap) {
    size_t len = (sizeof(dlp__arena_block) + cap + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
    /* over-allocate by a huge page to align the start, then trim */
    size_t span = len + HUGE_PAGE;
    unsigned char *p = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
    uintptr_t start = ((uintptr_t)p + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
    size_t head = start - (uintptr_t)p, tail = span - head - len;
    if (head) munmap(p, head);
    if (tail) munmap((unsigned char *)start + len, tail);
#ifdef MADV_HUGEPAGE
    madvise((void *)start, len, MADV_HUGEPAGE);
#endif
    dlp__arena_block *nb = (dlp__arena_block *)start;
    nb->mapped = len;
    nb->cap = len - sizeof *nb;
    nb->zeroed = nb->cap;
    return nb;
}

static dlp__arena_block *arena_grow(dlp__arena *a, size_t size) {
    dlp__arena_block *b = a->head;
    size_t cap = b ? b->cap * 2 : 64 * 1024;
    if (cap > 64u << 20) cap = 64u << 20;
    if (cap < size) cap = size;
    dlp__arena_block *nb = cap >= ARENA_MAP_MIN ? arena_map(cap) : NULL;
    if (!nb) {
        if (!(nb = malloc(sizeof *nb + cap))) return NULL;
        nb->mapped = 0;
        nb->cap = cap;
        nb->zeroed = 0;
    }
    nb->used = 0;
    nb->next = b;
    a->head = nb;
    return nb;
}

/* The current block when it has size bytes free, else a new one. */
static inline dlp__arena_block *arena_reserve(dlp__arena *a, size_t size) {
    dlp__arena_block *b = a->head;
    return b && b->cap - b->used >= size ? b : arena_grow(a, size);
}

void *dlp__arena_alloc(dlp__arena *a, size_t size) {
    size = (size + 15) & ~(size_t)15;
    if (size == 0) size = 16;
    dlp__arena_block *b = arena_reserve(a, size);
    if (!b) return NULL;
    size_t end = b->used + size;
    if (end > b->zeroed) {
        size_t z = end - b->zeroed < ARENA_ZERO_CHUNK ? b->zeroed + ARENA_ZERO_CHUNK : end;
        if (z > b->cap) z = b->cap;
        memset(b->data + b->zeroed, 0, z - b->zeroed);
        b->zeroed = z;
    }
    void *p = b->data + b->used;
    b->used = end;
    a->total += size;
    return p;
}

/* Not zeroed: for bytes the caller writes at once. */
void *dlp__arena_alloc_raw(dlp__arena *a, size_t size) {
    size = (size + 15) & ~(size_t)15;
    if (size == 0) size = 16;
    dlp__arena_block *b = arena_reserve(a, size);
    if (!b) return NULL;
    void *p = b->data + b->used;
    b->used += size;
    if (b->zeroed < b->used) b->zeroed = b->used;
    a->total += size;
    return p;
}

void dlp__arena_hint(dlp__arena *a, size_t bytes) {
    if (bytes < ARENA_MAP_MIN || (a->head && a->head->cap - a->head->used >= bytes)) return;
    dlp__arena_block *nb = arena_map(bytes);
    if (!nb) return; /* no harm: the arena grows as before */
    nb->used = 0;
    nb->next = a->head;
    a->head = nb;
}

void *dlp__alloc_big(size_t size) {
    if (size < ARENA_MAP_MIN) return malloc(size ? size : 1);
    size_t len = (size + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
    void *p = aligned_alloc(HUGE_PAGE, len);
#ifdef MADV_HUGEPAGE
    if (p) madvise(p, len, MADV_HUGEPAGE);
#endif
    return p;
}

char *dlp__arena_strndup(dlp__arena *a, const char *s, size_t n) {
    char *p = dlp__arena_alloc_raw(a, n + 1);
    if (!p) return NULL;
    if (n) memcpy(p, s, n);
    p[n] = 0;
    return p;
}

char *dlp__arena_strdup(dlp__arena *a, const char *s) {
    return dlp__arena_strndup(a, s ? s : "", s ? strlen(s) : 0);
}

void *dlp__arena_memdup(dlp__arena *a, const void *p, size_t n) {
    void *q = n ? dlp__arena_alloc_raw(a, n) : dlp__arena_alloc(a, n);
    if (q && n) memcpy(q, p, n);
    return q;
}

void dlp__arena_free(dlp__arena *a) {
    if (!a) return;
    dlp__arena_block *b = a->head;
    while (b) {
        dlp__arena_block *n = b->next;
        if (b->mapped) munmap(b, b->mapped);
        else free(b);
        b = n;
    }
    a->head = NULL;
    a->total = 0;
}

int dlp__grow(void **p, int n, int *cap, size_t elem) {
    if (n < *cap) return 0;
    int nc = *cap ? *cap * 2 : 8;
    if (nc <= n) nc = n + 1;
    void *q = realloc(*p, (size_t)nc * elem);
    if (!q) return -1;
    *p = q;
    *cap = nc;
    return 0;
}

/* ---- hashing and the map --------------------------------------------- */

uint64_t dlp__hash_bytes(const void *p, size_t n, uint64_t seed) {
    /* FNV-1a 64 then a final avalanche (splitmix) */
    const unsigned char *s = p;
    uint64_t h = 1469598103934665603ULL ^ seed;
    for (size_t i = 0; i < n; i++) {
        h ^= s[i];
        h *= 1099511628211ULL;
    }
    h ^= h >> 30; h *= 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 27; h *= 0x94d049bb133111ebULL;
    h ^= h >> 31;
    return h;
}

uint64_t dlp__hash_n(const void *p, size_t n) {
    /* word-at-a-time multiply-xorshift: names in big exports are long
     * ("/features/features.1/attn/Reshape_output_0") and hashed often */
    const unsigned char *s = p;
    size_t len = n;
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ n;
    while (n >= 8) {
        uint64_t w;
        memcpy(&w, s, 8);
        h = (h ^ w) * 0xbf58476d1ce4e5b9ULL;
        h ^= h >> 29;
        s += 8;
        n -= 8;
    }
    /* the last n < 8 bytes: one load ending at the last byte (shifted down)
     * when the key is 8 bytes or longer, not a call to memcpy of n bytes */
    uint64_t w = 0;
    if (n && len >= 8) {
        memcpy(&w, s + n - 8, 8);
        w >>= 8 * (8 - n);
    } else {
        for (size_t i = 0; i < n; i++) w |= (uint64_t)s[i] << (8 * i);
    }
    h = (h ^ w) * 0x94d049bb133111ebULL;
    h ^= h >> 31;
    h *= 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 27;
    return h;
}

uint64_t dlp__hash_str(const char *s) { return dlp__hash_n(s, strlen(s)); }

/* The slots come from dlp__alloc_big: a big export's name map is ~1 MiB. */
int dlp__strmap_init(dlp__strmap *m, uint32_t expect) {
    uint32_t cap = 16;
    while (cap < expect * 2 + 2) cap <<= 1;
    size_t bytes = (size_t)cap * sizeof *m->slots;
    m->slots = dlp__alloc_big(bytes);
    m->cap = cap;
    m->count = 0;
    if (!m->slots) return -1;
    memset(m->slots, 0, bytes);
    return 0;
}

void dlp__strmap_free(dlp__strmap *m) {
    if (!m) return;
    free(m->slots);
    m->slots = NULL;
    m->cap = m->count = 0;
}

/* The slot of the n-byte key (1) or the empty slot where it would go (0).
 * key has no NUL in its n bytes; keys in the map are NUL-terminated, so
 * strncmp stops at a shorter one and key[n] ends a match. */
static int strmap_find(const dlp__strmap *m, const char *key, size_t n, uint32_t h, uint32_t *slot) {
    uint32_t mask = m->cap - 1, i = h & mask;
    const dlp__strmap_slot *s;
    while ((s = &m->slots[i])->key) {
        if (s->hash == h && strncmp(s->key, key, n) == 0 && s->key[n] == 0) {
            *slot = i;
            return 1;
        }
        i = (i + 1) & mask;
    }
    *slot = i;
    return 0;
}

static int strmap_rehash(dlp__strmap *m) {
    dlp__strmap n;
    if (dlp__strmap_init(&n, m->cap) != 0) return -1;
    for (uint32_t i = 0; i < m->cap; i++) {
        const dlp__strmap_slot *s = &m->slots[i];
        if (!s->key) continue;
        uint32_t j = s->hash & (n.cap - 1); /* keys are distinct: the first free slot */
        while (n.slots[j].key) j = (j + 1) & (n.cap - 1);
        n.slots[j] = *s;
        n.count++;
    }
    dlp__strmap_free(m);
    *m = n;
    return 0;
}

/* put (overwrite 1) or put_new (overwrite 0) of the n-byte key: 1 when it
 * was there, 0 inserted, -1 on OOM. */
static int strmap_put(dlp__strmap *m, const char *key, size_t n, int val, int overwrite) {
    if ((m->count + 1) * 2 > m->cap && strmap_rehash(m) != 0) return -1;
    uint32_t i, h = (uint32_t)dlp__hash_n(key, n);
    if (strmap_find(m, key, n, h, &i)) {
        if (overwrite) m->slots[i].val = val;
        return 1;
    }
    m->slots[i].key = key;
    m->slots[i].hash = h;
    m->slots[i].val = val;
    m->count++;
    return 0;
}

int dlp__strmap_put(dlp__strmap *m, const char *key, int val) {
    return strmap_put(m, key, strlen(key), val, 1) < 0 ? -1 : 0;
}

int dlp__strmap_put_new(dlp__strmap *m, const char *key, int val) { return strmap_put(m, key, strlen(key), val, 0); }

int dlp__strmap_get_n(const dlp__strmap *m, const char *key, size_t n) {
    uint32_t i;
    return m->cap && strmap_find(m, key, n, (uint32_t)dlp__hash_n(key, n), &i) ? m->slots[i].val : -1;
}

int dlp__strmap_get(const dlp__strmap *m, const char *key) { return dlp__strmap_get_n(m, key, strlen(key)); }

/* ---- files ----------------------------------------------------------- */

static const uint8_t empty_file_dummy[1];

int dlp__open_regular(const char *path, struct stat *st, dlp_error *err) {
    /* O_NONBLOCK: opening a FIFO for reading would otherwise wait for a
     * writer forever; it is refused below before anything is read. */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) {
        dlp__err(err, DLP_EIO, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    if (fstat(fd, st) != 0) {
        int e = errno;
        close(fd);
        dlp__err(err, DLP_EIO, "%s: cannot stat: %s", path, strerror(e));
        return -1;
    }
    if (!S_ISREG(st->st_mode)) {
        close(fd);
        dlp__err(err, DLP_EIO, "%s: not a regular file (%s)", path,
                 S_ISDIR(st->st_mode)    ? "a directory"
                 : S_ISFIFO(st->st_mode) ? "a named pipe"
                 : S_ISCHR(st->st_mode)  ? "a character device"
                 : S_ISBLK(st->st_mode)  ? "a block device"
                 : S_ISSOCK(st->st_mode) ? "a socket"
                                         : "not a plain file");
        errno = S_ISDIR(st->st_mode) ? EISDIR : EINVAL; /* for callers without err */
        return -1;
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0) fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    return fd;
}

FILE *dlp__fopen_regular(const char *path, dlp_error *err) {
    struct stat st;
    int fd = dlp__open_regular(path, &st, err);
    if (fd < 0) return NULL;
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        dlp__err(err, DLP_EIO, "%s: cannot open: %s", path, strerror(errno));
        close(fd);
    }
    return f;
}

dlp_status dlp__map_file(const char *path, dlp__mapped *m, dlp_error *err) {
    memset(m, 0, sizeof *m);
    struct stat st;
    int fd = dlp__open_regular(path, &st, err);
    if (fd < 0) return DLP_EIO;
    if (st.st_size == 0) {
        close(fd);
        m->data = empty_file_dummy;
        m->len = 0;
        return DLP_OK;
    }
    void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    int e = errno;
    close(fd);
    if (p == MAP_FAILED) return dlp__err(err, DLP_EIO, "%s: cannot map: %s", path, strerror(e));
    m->data = p;
    m->len = (size_t)st.st_size;
    m->mapped = 1;
    return DLP_OK;
}

void dlp__unmap_file(dlp__mapped *m) {
    if (m && m->mapped) munmap((void *)m->data, m->len);
    if (m) memset(m, 0, sizeof *m);
}

dlp_status dlp__write_file_atomic(const char *path, const void *buf, size_t len,
                                  dlp_error *err) {
    size_t pl = strlen(path);
    char *tmp = malloc(pl + 32);
    if (!tmp) return dlp__err(err, DLP_ENOMEM, "%s: out of memory", path);
    snprintf(tmp, pl + 32, "%s.tmp.%ld", path, (long)getpid());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        dlp_status s = dlp__err(err, DLP_EIO, "%s: cannot create: %s", path, strerror(errno));
        free(tmp);
        return s;
    }
    const uint8_t *p = buf;
    size_t left = len;
    while (left) {
        ssize_t w = write(fd, p, left);
        if (w < 0) {
            if (errno == EINTR) continue;
            int e = errno;
            close(fd);
            unlink(tmp);
            free(tmp);
            return dlp__err(err, DLP_EIO, "%s: write failed: %s", path, strerror(e));
        }
        p += w;
        left -= (size_t)w;
    }
    if (fsync(fd) != 0 || close(fd) != 0) {
        int e = errno;
        unlink(tmp);
        free(tmp);
        return dlp__err(err, DLP_EIO, "%s: write failed: %s", path, strerror(e));
    }
    if (rename(tmp, path) != 0) {
        int e = errno;
        unlink(tmp);
        free(tmp);
        return dlp__err(err, DLP_EIO, "%s: cannot replace: %s", path, strerror(e));
    }
    free(tmp);
    return DLP_OK;
}

const char *dlp__basename(const char *path) {
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* CRC-32 (IEEE, reflected), slicing-by-8: datasets of gigabytes are
 * checksummed on every load, so the byte-at-a-time loop was the bottleneck. */
static uint32_t crc_tab[8][256];
static pthread_once_t crc_once = PTHREAD_ONCE_INIT;

static void crc_init(void) {
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        crc_tab[0][i] = c;
    }
    for (uint32_t i = 0; i < 256; i++)
        for (int t = 1; t < 8; t++) crc_tab[t][i] = (crc_tab[t - 1][i] >> 8) ^ crc_tab[0][crc_tab[t - 1][i] & 0xff];
}

uint32_t dlp__crc32(uint32_t crc, const void *p, size_t n) {
    pthread_once(&crc_once, crc_init);
    const uint8_t *s = p;
    crc = ~crc;
    while (n >= 8) {
        uint32_t lo, hi;
        memcpy(&lo, s, 4);
        memcpy(&hi, s + 4, 4);
        lo ^= crc; /* little-endian x86-64; the file formats are little-endian too */
        crc = crc_tab[7][lo & 0xff] ^ crc_tab[6][(lo >> 8) & 0xff] ^ crc_tab[5][(lo >> 16) & 0xff] ^
              crc_tab[4][lo >> 24] ^ crc_tab[3][hi & 0xff] ^ crc_tab[2][(hi >> 8) & 0xff] ^
              crc_tab[1][(hi >> 16) & 0xff] ^ crc_tab[0][hi >> 24];
        s += 8;
        n -= 8;
    }
    while (n--) crc = crc_tab[0][(crc ^ *s++) & 0xff] ^ (crc >> 8);
    return ~crc;
}

/* ---- clock ----------------------------------------------------------------- */

double dlp__now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- growable string -------------------------------------------------------- */

void dlp__sb_printf(dlp__sb *b, const char *fmt, ...) {
    if (b->oom) return;
    for (;;) {
        size_t room = b->cap - b->len;
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(b->s ? b->s + b->len : NULL, b->s ? room : 0, fmt, ap);
        va_end(ap);
        if (k < 0) {
            b->oom = 1;
            return;
        }
        if ((size_t)k < room && b->s) {
            b->len += (size_t)k;
            return;
        }
        size_t nc = b->cap ? b->cap : 256;
        while (nc - b->len <= (size_t)k) nc *= 2;
        char *ns = realloc(b->s, nc);
        if (!ns) {
            b->oom = 1;
            return;
        }
        if (!b->s) ns[0] = 0;
        b->s = ns;
        b->cap = nc;
    }
}

void dlp__sb_free(dlp__sb *b) {
    free(b->s);
    memset(b, 0, sizeof *b);
}
