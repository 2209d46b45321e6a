/*
 * mhd_shim.c — the libmicrohttpd functions the server uses, forwarded to the
 * library loaded on first use (util/lazylib.h says why).  If it cannot be
 * loaded, MHD_start_daemon returns NULL and the server reports the failure.
 */
#include <dlfcn.h>
#include <link.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <microhttpd.h>

#include "util/lazylib.h"

static const char *const sonames[] = {"libmicrohttpd.so.12", "libmicrohttpd.so", NULL};
static dlp__lazylib lib = DLP__LAZYLIB_INIT(sonames);

#define LOAD(fn, name) do { if (!(fn)) *(void **)&(fn) = dlp__lazy_sym(&lib, name); } while (0)
#define FWD(ret, name, params, args, fail) \
    ret name params {                      \
        static ret(*fn) params;            \
        LOAD(fn, #name);                   \
        if (!fn) return fail;              \
        return fn args;                    \
    }
#define FWDV(name, params, args) \
    void name params {           \
        static void(*fn) params; \
        LOAD(fn, #name);         \
        if (fn) fn args;         \
    }

/* Called for each error answer libmicrohttpd makes itself (html is its
 * page); returns 1 when it answered the client itself (see below). */
typedef int (*dlp__mhd_error_hook)(struct MHD_Connection *c, unsigned int status, const char *html, size_t len);
void dlp__mhd_set_error_hook(dlp__mhd_error_hook fn);

/* Why the library could not be loaded ("" if it was). */
const char *dlp__mhd_load_error(void);
const char *dlp__mhd_load_error(void) { return lib.err; }

/* ---- libmicrohttpd's own error answers ----------------------------------------------
 *
 * libmicrohttpd answers some malformed requests itself, before any callback
 * of ours runs: a bad or overflowing Content-Length (400, 413), an HTTP
 * version it does not speak (505), headers over the connection's memory
 * (431), bad chunked encoding (400).  0.9.75 has no option to replace those
 * bodies (compile-time HTML strings), and for the Content-Length ones it even
 * sends the header block twice (its state machine goes on after queueing the
 * error), so the body a client reads is not the page at all.
 *
 * It builds each answer with its own exported functions,
 *   MHD_create_response_from_buffer(len, html, MHD_RESPMEM_PERSISTENT);
 *   MHD_queue_response(connection, status, response);
 * called through its PLT.  The library's GOT slots for those two are pointed
 * at got_create and got_queue below: a response created there and queued on
 * the same thread is one of those error answers, and the hook that
 * dlp__mhd_set_error_hook installed (serve.c) writes its own JSON answer to
 * the connection instead; queueing then "fails", so libmicrohttpd closes the
 * connection without writing anything.  Only libmicrohttpd's internal calls
 * go through those slots (ours reach the real functions through dlsym), and
 * in 0.9.75 its only internal caller of the first is that error path.  If
 * the slots cannot be found (another build of the library), nothing changes. */

static struct MHD_Response *(*real_create)(size_t, void *, enum MHD_ResponseMemoryMode);
static enum MHD_Result (*real_queue)(struct MHD_Connection *, unsigned int, struct MHD_Response *);
static dlp__mhd_error_hook error_hook;
static _Thread_local const struct MHD_Response *err_resp;
static _Thread_local const char *err_text;
static _Thread_local size_t err_len;

static struct MHD_Response *got_create(size_t size, void *buffer, enum MHD_ResponseMemoryMode mode) {
    struct MHD_Response *r = real_create(size, buffer, mode);
    err_resp = r;
    err_text = buffer;      /* a static string of the library (PERSISTENT) */
    err_len = size;
    return r;
}

static enum MHD_Result got_queue(struct MHD_Connection *c, unsigned int status, struct MHD_Response *r) {
    if (r && r == err_resp && error_hook) {
        err_resp = NULL;
        if (error_hook(c, status, err_text ? err_text : "", err_len)) return MHD_NO;
    }
    return real_queue(c, status, r);
}

void dlp__mhd_set_error_hook(dlp__mhd_error_hook fn) { error_hook = fn; }

/* Point the library's GOT entry for `name` at `fn`; 0 when done. */
static int hook_got(void *handle, const char *name, void *fn) {
    struct link_map *lm = NULL;
    if (dlinfo(handle, RTLD_DI_LINKMAP, &lm) || !lm) return -1;
    ElfW(Addr) base = lm->l_addr;
    const ElfW(Sym) *symtab = NULL;
    const char *strtab = NULL;
    ElfW(Addr) jmprel = 0, rela = 0, rel = 0;
    size_t jmprel_sz = 0, rela_sz = 0, rel_sz = 0;
    long pltrel = DT_RELA;
    /* glibc has already relocated most d_ptr values; some ports have not */
#define PTR(v) ((v) < base ? (v) + base : (v))
    for (const ElfW(Dyn) *d = lm->l_ld; d->d_tag != DT_NULL; d++) {
        switch (d->d_tag) {
        case DT_SYMTAB: symtab = (const ElfW(Sym) *)PTR(d->d_un.d_ptr); break;
        case DT_STRTAB: strtab = (const char *)PTR(d->d_un.d_ptr); break;
        case DT_JMPREL: jmprel = PTR(d->d_un.d_ptr); break;
        case DT_PLTRELSZ: jmprel_sz = d->d_un.d_val; break;
        case DT_PLTREL: pltrel = (long)d->d_un.d_val; break;
        case DT_RELA: rela = PTR(d->d_un.d_ptr); break;
        case DT_RELASZ: rela_sz = d->d_un.d_val; break;
        case DT_REL: rel = PTR(d->d_un.d_ptr); break;
        case DT_RELSZ: rel_sz = d->d_un.d_val; break;
        }
    }
#undef PTR
    if (!symtab || !strtab) return -1;
    const struct {
        ElfW(Addr) at;
        size_t sz;
        int is_rela;
    } tabs[] = {{jmprel, jmprel_sz, pltrel == DT_RELA}, {rela, rela_sz, 1}, {rel, rel_sz, 0}};
    int done = -1;
    long page = sysconf(_SC_PAGESIZE);
    for (size_t t = 0; t < sizeof tabs / sizeof tabs[0]; t++) {
        size_t ent = tabs[t].is_rela ? sizeof(ElfW(Rela)) : sizeof(ElfW(Rel));
        for (size_t off = 0; tabs[t].at && off + ent <= tabs[t].sz; off += ent) {
            const ElfW(Rel) *r = (const ElfW(Rel) *)(tabs[t].at + off);   /* Rela starts as Rel */
#if __ELF_NATIVE_CLASS == 64
            size_t si = ELF64_R_SYM(r->r_info);
#else
            size_t si = ELF32_R_SYM(r->r_info);
#endif
            if (!si || strcmp(strtab + symtab[si].st_name, name)) continue;
            void **slot = (void **)(base + r->r_offset);
            uintptr_t pg = (uintptr_t)slot & ~(uintptr_t)(page - 1);
            /* RELRO: the GOT is read-only once relocated */
            if (mprotect((void *)pg, (size_t)page, PROT_READ | PROT_WRITE)) return -1;
            *slot = fn;
            mprotect((void *)pg, (size_t)page, PROT_READ);
            done = 0;
        }
    }
    return done;
}

/* Once, before the first daemon starts (no libmicrohttpd thread runs yet). */
static void hook_error_answers(void) {
    LOAD(real_create, "MHD_create_response_from_buffer");
    LOAD(real_queue, "MHD_queue_response");
    if (!real_create || !real_queue || !lib.handle) return;
    /* both or neither: a create hook alone would change nothing, a queue
     * hook alone would never see an error response */
    if (!hook_got(lib.handle, "MHD_queue_response", (void *)got_queue))
        hook_got(lib.handle, "MHD_create_response_from_buffer", (void *)got_create);
}

struct MHD_Daemon *MHD_start_daemon(unsigned int flags, uint16_t port, MHD_AcceptPolicyCallback apc, void *apc_cls,
                                    MHD_AccessHandlerCallback dh, void *dh_cls, ...) {
    static struct MHD_Daemon *(*fn)(unsigned int, uint16_t, MHD_AcceptPolicyCallback, void *,
                                    MHD_AccessHandlerCallback, void *, va_list);
    LOAD(fn, "MHD_start_daemon_va");
    if (!fn) return NULL;
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, hook_error_answers);
    va_list ap;
    va_start(ap, dh_cls);
    struct MHD_Daemon *d = fn(flags, port, apc, apc_cls, dh, dh_cls, ap);
    va_end(ap);
    return d;
}

const union MHD_ConnectionInfo *MHD_get_connection_info(struct MHD_Connection *c, enum MHD_ConnectionInfoType t,
                                                         ...) {
    /* the info types dlperf asks for take no extra arguments */
    static const union MHD_ConnectionInfo *(*fn)(struct MHD_Connection *, enum MHD_ConnectionInfoType, ...);
    LOAD(fn, "MHD_get_connection_info");
    return fn ? fn(c, t) : NULL;
}

FWD(enum MHD_Result, MHD_add_response_header, (struct MHD_Response *r, const char *h, const char *v), (r, h, v), MHD_NO)
FWD(struct MHD_PostProcessor *, MHD_create_post_processor,
    (struct MHD_Connection *c, size_t n, MHD_PostDataIterator it, void *cls), (c, n, it, cls), NULL)
FWD(struct MHD_Response *, MHD_create_response_from_buffer, (size_t n, void *b, enum MHD_ResponseMemoryMode m),
    (n, b, m), NULL)
FWD(enum MHD_Result, MHD_destroy_post_processor, (struct MHD_PostProcessor *pp), (pp), MHD_NO)
FWDV(MHD_destroy_response, (struct MHD_Response *r), (r))
FWD(int, MHD_get_connection_values, (struct MHD_Connection *c, enum MHD_ValueKind k, MHD_KeyValueIterator it, void *cls),
    (c, k, it, cls), -1)
FWD(const char *, MHD_lookup_connection_value, (struct MHD_Connection *c, enum MHD_ValueKind k, const char *key),
    (c, k, key), NULL)
FWD(enum MHD_Result, MHD_post_process, (struct MHD_PostProcessor *pp, const char *d, size_t n), (pp, d, n), MHD_NO)
FWD(enum MHD_Result, MHD_queue_response, (struct MHD_Connection *c, unsigned int code, struct MHD_Response *r),
    (c, code, r), MHD_NO)
FWD(enum MHD_Result, MHD_add_connection, (struct MHD_Daemon *d, MHD_socket s, const struct sockaddr *a, socklen_t n),
    (d, s, a, n), MHD_NO)
FWDV(MHD_stop_daemon, (struct MHD_Daemon *d), (d))
