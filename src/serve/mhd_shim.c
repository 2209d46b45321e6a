/*
 * mhd_shim.c — the libmicrohttpd functions the server uses, forwarded to the
 * library loaded on first use (util/lazylib.h says why).  If it cannot be
 * loaded, MHD_start_daemon returns NULL and the server reports the failure.
 */
#include <stdarg.h>
#include <stdio.h>
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

/* Why the library could not be loaded ("" if it was). */
const char *dlp__mhd_load_error(void);
const char *dlp__mhd_load_error(void) { return lib.err; }

struct MHD_Daemon *MHD_start_daemon(unsigned int flags, uint16_t port, MHD_AcceptPolicyCallback apc, void *apc_cls,
                                    MHD_AccessHandlerCallback dh, void *dh_cls, ...) {
    static struct MHD_Daemon *(*fn)(unsigned int, uint16_t, MHD_AcceptPolicyCallback, void *,
                                    MHD_AccessHandlerCallback, void *, va_list);
    LOAD(fn, "MHD_start_daemon_va");
    if (!fn) return NULL;
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
FWD(MHD_socket, MHD_quiesce_daemon, (struct MHD_Daemon *d), (d), MHD_INVALID_SOCKET)
FWDV(MHD_stop_daemon, (struct MHD_Daemon *d), (d))
