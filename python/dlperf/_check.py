"""Argument checks in Python terms (issue 25): a wrong type is InvalidType
(a TypeError), a wrong value InvalidValue (a ValueError), each message
naming the argument as the caller wrote it ("batch must be a positive int,
got '8'").  The allowed names come from the library where it can list them
(runtimes, LLM precisions, serving phases, devices, regions), so the checks
and the docstrings cannot drift from what the library accepts."""
import ctypes
import json
import math
import numbers

from . import _lib
from ._lib import InvalidType, InvalidValue


def _names(fn, limit=64):
    out = []
    for k in range(limit):
        v = fn(k)
        if v is None or v == b"?":
            break
        out.append(v.decode())
    return out


def _db_names():
    """(device ids, carbon regions) of the built-in database; empty when it
    cannot be read (the calls then say so themselves)."""
    db = ctypes.c_void_p()
    err = _lib._Err()
    if _lib.lib.dlp_devdb_load(None, ctypes.byref(db), ctypes.byref(err)) != 0:
        return [], []
    try:
        buf, n = ctypes.c_void_p(), ctypes.c_size_t()
        if _lib.lib.dlp_devices_json(db, ctypes.byref(buf), ctypes.byref(n), ctypes.byref(err)) != 0:
            return [], []
        d = json.loads(_lib.take_text(0, buf, n, err))
    finally:
        _lib.lib.dlp_devdb_free(db)
    carbon = d.get("carbon", {})
    regions = carbon.get("regions", carbon) if isinstance(carbon, dict) else carbon
    if isinstance(regions, dict):
        regions = list(regions)
    elif isinstance(regions, list):
        regions = [r.get("id") or r.get("region") if isinstance(r, dict) else str(r) for r in regions]
    return [x["id"] for x in d.get("devices", [])], [r for r in regions if r]


DEVICES, REGIONS = _db_names()
RUNTIMES = _names(_lib.lib.dlp_runtime_name)
LLM_DTYPES = _names(_lib.lib.dlp_quant_name)
PHASES = _names(_lib.lib.dlp_llm_phase_name)
ENGINES = _names(_lib.lib.dlp_llm_engine_name)
# predict's compute types: the short names dlp_dtype_parse reads (the CLI's --dtype)
DTYPES = [t for t in ("fp32", "fp16", "bf16", "fp8", "fp4", "int8") if _lib.lib.dlp_dtype_parse(t.encode()) >= 0]
MODES = ["infer", "train"]
OPTIMIZERS = ["adam", "sgd", "sgd-momentum"]
LAYOUTS = ["nchw", "nhwc"]
TF32 = ["default", "on", "off"]


def listed(values, limit=None):
    """'a, b or c' (the first `limit` of many, then 'and N more')."""
    v = list(values)
    if limit and len(v) > limit:
        return ", ".join(v[:limit]) + " and %d more" % (len(v) - limit)
    return ", ".join(v[:-1]) + " or " + v[-1] if len(v) > 1 else "".join(v)


def integer(name, v, lo=1, hi=None):
    """An int (not a bool, float or str) in [lo, hi]; None passes."""
    if v is None:
        return None
    kind = "a positive int" if lo == 1 else "a non-negative int" if lo == 0 else "an int >= %d" % lo
    if hi is not None:
        kind += " up to %d" % hi
    if isinstance(v, bool) or not isinstance(v, numbers.Integral):
        raise InvalidType("%s must be %s, got %r" % (name, kind, v))
    if v < lo or (hi is not None and v > hi):
        raise InvalidValue("%s must be %s, got %r" % (name, kind, v))
    return int(v)


def real(name, v, lo=None, hi=None, lo_open=False):
    """A finite int or float (not a bool or str) in range; None passes."""
    if v is None:
        return None
    rng = ""
    if lo is not None and hi is not None:
        rng = " in %s%g, %g]" % ("(" if lo_open else "[", lo, hi)
    elif lo is not None:
        rng = " %s %g" % (">" if lo_open else ">=", lo)
    if isinstance(v, bool) or not isinstance(v, numbers.Real):
        raise InvalidType("%s must be a number%s, got %r" % (name, rng, v))
    x = float(v)
    if not math.isfinite(x) or (lo is not None and (x <= lo if lo_open else x < lo)) or (hi is not None and x > hi):
        raise InvalidValue("%s must be a finite number%s, got %r" % (name, rng, v))
    return v


def boolean(name, v):
    if v is None:
        return None
    if not isinstance(v, bool):
        raise InvalidType("%s must be True or False, got %r" % (name, v))
    return v


def string(name, v, what="a str"):
    if v is None:
        return None
    if not isinstance(v, str):
        raise InvalidType("%s must be %s, got %r" % (name, what, v))
    if "\0" in v:
        raise InvalidValue("%s must not contain a NUL character, got %r" % (name, v))
    return v


def choice(name, v, values, parse=None):
    """One of values (str); parse (a library parser, -1 for unknown) also
    lets its aliases through ("channels_last", "adamw")."""
    if v is None:
        return None
    string(name, v, "a str, one of " + listed(values))
    ok = parse(v.encode()) >= 0 if parse else v.lower() in values
    if not ok:
        raise InvalidValue("%s must be one of %s; got %r" % (name, listed(values), v))
    return v


def device(name, v, required=True):
    if v is None:
        if required:
            raise InvalidType("%s is required: a device id, name or alias (dlperf.devices() lists them; e.g. %s)"
                              % (name, listed(DEVICES, 6) if DEVICES else "h100-sxm"))
        return None
    return string(name, v, "a str (a device id; dlperf.devices() lists them)")


def dims(name, v):
    """{symbol: positive int}; None passes."""
    if v is None:
        return None
    if not isinstance(v, dict):
        raise InvalidType("%s must be a dict {symbol name: positive int}, got %r" % (name, v))
    for k, x in v.items():
        string("%s key" % name, k)
        integer("%s[%r]" % (name, k), x)
    return {k: int(x) for k, x in v.items()}
