"""ctypes bindings to libdlperf.so: the few C calls the package makes.

The library is found, in order: $DLPERF_LIB (a file); the directory
`make install` recorded in _config.py; the build tree beside this source
(../../build); the dynamic loader's own search (libdlperf.so.0).
"""
import ctypes
import errno
import os
import re

SONAME = "libdlperf.so.0"


class Error(Exception):
    """A dlperf failure, carrying the library's one-line message.

    The subclasses are also the built-in exception a Python caller expects,
    so `except FileNotFoundError` / `ValueError` / `TypeError` catch them:
    FileNotFound (a model or config file that is not there), InvalidValue
    (a value out of range, an unknown device or dtype, a malformed model),
    InvalidType (an argument of the wrong type, a missing argument)."""

    def __init__(self, message, status=None):
        Exception.__init__(self, message)
        self.args = (message,)
        self.message = message
        self.status = status  # the HTTP-style status or dlp_status code, when known

    def __str__(self):
        return self.message


class FileNotFound(Error, FileNotFoundError):
    """A file that is not there (also a FileNotFoundError; .filename names it)."""

    def __init__(self, message, filename=None, status=None):
        Error.__init__(self, message, status)
        self.errno = errno.ENOENT
        self.strerror = os.strerror(errno.ENOENT)
        self.filename = filename


class InvalidValue(Error, ValueError):
    """A value dlperf cannot use (also a ValueError)."""


class InvalidType(Error, TypeError):
    """An argument of the wrong type, or a missing one (also a TypeError)."""


# dlp_status codes that mean "the input is wrong" (include/dlperf.h): EINVAL,
# EFORMAT, EGRAPH, ESHAPE, EUNBOUND, ENOTFOUND, EVERSION, ECHECKSUM, EUNSUPPORTED
_BAD_INPUT = {-1, -3, -4, -5, -7, -8, -9, -10, -11}


def _pythonic(msg):
    """A library or API message in Python terms: "--batch" -> "batch=",
    "/api/predict: field 'device' ..." -> "device ..."."""
    msg = re.sub(r"^/api/[a-z_.]+: ", "", msg)
    msg = re.sub(r"GET /api/devices lists (the ids|all)", "dlperf.devices() lists them", msg)
    # no Python call lists the LLM catalogue: the CLI's command, verbatim
    msg = msg.replace("GET /api/models lists all", "the command 'dlperf llm \x00list' lists all")
    msg = msg.replace("'dlperf llm --list'", "'dlperf llm \x00list'")   # the library's wording of it
    # an unbound symbol, as the API or the library words it
    msg = re.sub(r"give the field 'batch' or 'seq', or 'dims' as (\S+)=N", r"give batch=, seq= or dims={'\1': N}", msg)
    msg = re.sub(r"give --batch, --seq or --dim (\S+)=N", r"give batch=, seq= or dims={'\1': N}", msg)
    msg = msg.replace("give the field 'batch' or 'dims'", "give batch= or dims=")
    msg = msg.replace("give --batch or --dim", "give batch= or dims=")
    msg = re.sub(r"\bfields? '([a-z_]+)'", r"\1", msg)
    msg = msg.replace("--dim ", "dims ")
    msg = re.sub(r"(?<![\w-])--([a-z][a-z0-9-]*)", lambda m: m.group(1).replace("-", "_") + "=", msg)
    return msg.replace("\x00", "--")


def raise_error(msg, status=None, http=False):
    """Raise the Error subclass a status stands for (an HTTP status when
    http, else a dlp_status code)."""
    msg = _pythonic(msg)
    if http:
        cls = InvalidValue if status in (400, 404, 413, 415) else Error
    else:
        cls = InvalidValue if status in _BAD_INPUT else Error
    raise cls(msg, status=status)


class _Err(ctypes.Structure):  # dlp_error
    _fields_ = [("code", ctypes.c_int), ("msg", ctypes.c_char * 512)]

    def text(self):
        return self.msg.decode("utf-8", "replace")


class _LoadOpts(ctypes.Structure):  # dlp_load_opts
    _fields_ = [("batch", ctypes.c_int64), ("seq", ctypes.c_int64), ("n_dims", ctypes.c_int),
                ("dim_names", ctypes.POINTER(ctypes.c_char_p)),
                ("dim_values", ctypes.POINTER(ctypes.c_int64)), ("allow_unbound", ctypes.c_int)]


class _ServerOpts(ctypes.Structure):  # dlp_server_opts
    _fields_ = [("bind", ctypes.c_char_p), ("port", ctypes.c_int), ("threads", ctypes.c_int),
                ("max_upload_bytes", ctypes.c_size_t), ("timeout_s", ctypes.c_int),
                ("max_parses", ctypes.c_int), ("quiet", ctypes.c_int), ("log", ctypes.c_void_p),
                ("log_user", ctypes.c_void_p), ("no_listen", ctypes.c_int),
                ("header_timeout_s", ctypes.c_int), ("max_connections", ctypes.c_int),
                ("max_per_ip", ctypes.c_int)]


class _Response(ctypes.Structure):  # dlp_server_response
    _fields_ = [("status", ctypes.c_int), ("content_type", ctypes.c_char_p),
                ("body", ctypes.c_void_p), ("len", ctypes.c_size_t),
                ("retry_after_s", ctypes.c_int), ("allow", ctypes.c_char_p)]


def _candidates():
    env = os.environ.get("DLPERF_LIB")
    if env:
        yield env
    here = os.path.dirname(os.path.abspath(__file__))
    try:
        from . import _config  # written by `make install`
        yield os.path.join(_config.LIBDIR, SONAME)
    except ImportError:
        pass
    yield os.path.join(here, "..", "..", "build", SONAME)
    yield SONAME


def _load():
    errors = []
    for path in _candidates():
        if path != SONAME and not os.path.exists(path):
            continue
        try:
            return ctypes.CDLL(path)
        except OSError as e:
            errors.append(str(e))
    raise ImportError("dlperf: cannot load %s (%s); build it with 'make' or set DLPERF_LIB"
                      % (SONAME, "; ".join(errors) or "not found"))


lib = _load()

_P = ctypes.c_void_p
_PP = ctypes.POINTER(ctypes.c_void_p)
_ERR = ctypes.POINTER(_Err)
_LEN = ctypes.POINTER(ctypes.c_size_t)
for name, res, args in [
    ("dlp_version", ctypes.c_char_p, []),
    ("dlp_free", None, [_P]),
    ("dlp_server_new", ctypes.c_int, [ctypes.POINTER(_ServerOpts), _PP, _ERR]),
    ("dlp_server_free", None, [_P]),
    ("dlp_server_handle", ctypes.c_int, [_P, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p,
                                         ctypes.c_char_p, ctypes.c_size_t, ctypes.POINTER(_Response)]),
    ("dlp_server_handle_upload", ctypes.c_int, [_P, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p,
                                                ctypes.c_size_t, ctypes.c_char_p, ctypes.POINTER(_Response)]),
    ("dlp_server_response_clear", None, [ctypes.POINTER(_Response)]),
    ("dlp_devdb_load", ctypes.c_int, [ctypes.c_char_p, _PP, _ERR]),
    ("dlp_devdb_free", None, [_P]),
    ("dlp_devdb_find", _P, [_P, ctypes.c_char_p]),
    ("dlp_device_json", ctypes.c_int, [_P, _PP, _LEN, _ERR]),
    ("dlp_devices_json", ctypes.c_int, [_P, _PP, _LEN, _ERR]),
    ("dlp_graph_load_mem", ctypes.c_int, [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p,
                                          ctypes.POINTER(_LoadOpts), _PP, _ERR]),
    ("dlp_graph_free", None, [_P]),
    ("dlp_inspect_json", ctypes.c_int, [_P, _PP, _LEN, _ERR]),
    ("dlp_gnn_load", ctypes.c_int, [ctypes.c_char_p, _PP, _ERR]),
    ("dlp_gnn_free", None, [_P]),
    ("dlp_gnn_target_count", ctypes.c_int, [_P]),
    ("dlp_gnn_target_at", ctypes.c_char_p, [_P, ctypes.c_int]),
    ("dlp_gnn_predict_graphs", ctypes.c_int, [_P, ctypes.POINTER(_P), ctypes.c_int,
                                              ctypes.POINTER(ctypes.c_float), _ERR]),
    ("dlp_gnn_predict_onnx", ctypes.c_int, [_P, ctypes.POINTER(ctypes.c_char_p), _LEN,
                                            ctypes.POINTER(ctypes.c_char_p), ctypes.c_int,
                                            ctypes.POINTER(_LoadOpts), ctypes.c_int,
                                            ctypes.POINTER(ctypes.c_float), _ERR]),
    ("dlp_gnn_predict_onnx_on", ctypes.c_int, [_P, ctypes.POINTER(ctypes.c_char_p), _LEN,
                                               ctypes.POINTER(ctypes.c_char_p), ctypes.c_int,
                                               ctypes.POINTER(_LoadOpts), ctypes.c_int, ctypes.c_char_p,
                                               ctypes.POINTER(ctypes.c_float), _ERR]),
    ("dlp_gnn_device", ctypes.c_char_p, [_P]),
    # the names of the allowed values, for checks and docstrings
    ("dlp_runtime_name", ctypes.c_char_p, [ctypes.c_int]),
    ("dlp_runtime_parse", ctypes.c_int, [ctypes.c_char_p]),
    ("dlp_memfmt_parse", ctypes.c_int, [ctypes.c_char_p]),
    ("dlp_dtype_parse", ctypes.c_int, [ctypes.c_char_p]),
    ("dlp_quant_name", ctypes.c_char_p, [ctypes.c_int]),
    ("dlp_quant_parse", ctypes.c_int, [ctypes.c_char_p]),
    ("dlp_predict_mode_parse", ctypes.c_int, [ctypes.c_char_p]),
    ("dlp_optimizer_parse", ctypes.c_int, [ctypes.c_char_p]),
    ("dlp_llm_phase_name", ctypes.c_char_p, [ctypes.c_int]),
    ("dlp_llm_phase_parse", ctypes.c_int, [ctypes.c_char_p]),
    ("dlp_llm_engine_name", ctypes.c_char_p, [ctypes.c_int]),
    ("dlp_llm_engine_parse", ctypes.c_int, [ctypes.c_char_p]),
    # llm(model=...) finds a folder or hub-cache config as the CLI does (__init__._llm_model)
    ("dlp_llm_catalogue_get", ctypes.c_int, [ctypes.c_char_p, _P, _ERR]),
    ("dlp_llm_config_load", ctypes.c_int, [ctypes.c_char_p, _P, _ERR]),
]:
    fn = getattr(lib, name, None)
    if fn is None:
        continue  # an older library: the call that needs it says so
    fn.restype = res
    fn.argtypes = args


def take_text(status, buf, n, err):
    """The text a dlp_*_json call handed out (freed here), or Error."""
    if status != 0:
        raise_error(err.text(), status)
    try:
        return ctypes.string_at(buf.value, n.value).decode("utf-8")
    finally:
        lib.dlp_free(buf)
