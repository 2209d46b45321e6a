"""GraphModel: a trained graph predictor (.dlpm from `dlperf train`) loaded
once and asked about many models in one call (NAS loops): each ONNX is
parsed in memory, features are built in the model's layout, and all graphs
are predicted in one library call (dlp_gnn_predict_onnx, worker threads
in C)."""
import ctypes
import os

from . import _check, _lib
from ._lib import Error, FileNotFound, InvalidType


class GraphModel:
    def __init__(self, handle, path):
        self._h = handle
        self.path = path
        n = _lib.lib.dlp_gnn_target_count(handle)
        self.targets = [_lib.lib.dlp_gnn_target_at(handle, k).decode() for k in range(n)]
        # a gnnlm model's default device ("" for the other architectures)
        self.device = (_lib.lib.dlp_gnn_device(handle) or b"").decode()

    @classmethod
    def load(cls, path):
        """Load a .dlpm GNN model file."""
        if not isinstance(path, (str, os.PathLike)):
            raise InvalidType("path must be a str or os.PathLike (a .dlpm file), got %s" % type(path).__name__)
        path = os.fspath(path)
        if not os.path.exists(path):
            raise FileNotFound("%s: no such file (model)" % path, filename=path)
        h = ctypes.c_void_p()
        err = _lib._Err()
        if _lib.lib.dlp_gnn_load(os.fsencode(path), ctypes.byref(h), ctypes.byref(err)) != 0:
            _lib.raise_error(err.text(), err.code)
        return cls(h, path)

    def close(self):
        if self._h:
            _lib.lib.dlp_gnn_free(self._h)
            self._h = None

    __del__ = close

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def predict(self, models, batch=None, seq=None, threads=0, device=None):
        """Predict one model or many.

        models: one ONNX model (a path or bytes) -> one dict {target: value};
            a list or tuple of them -> a list of dicts, in order.
        batch, seq: positive ints binding the symbolic batch / sequence dims.
        threads: worker threads, a non-negative int (0: one per CPU).
        device (gnnlm models only): a device setting by name
            ("titan_rtx_32", "h100-sxm") or described in words; None: the
            device the model was trained on (`self.device`).

        All models go to the library in one call (dlp_gnn_predict_onnx_on):
        parsed, featurised and predicted there by `threads` worker threads,
        without the GIL.  Raises dlperf.InvalidType / InvalidValue /
        FileNotFound as dlperf.predict does."""
        from . import _onnx_of  # the package's model reader
        if self._h is None:
            raise Error("%s: model closed" % self.path)
        single = isinstance(models, (str, os.PathLike, bytes, bytearray, memoryview))
        if single:
            models = [models]
        elif not isinstance(models, (list, tuple)):
            raise InvalidType("models must be an ONNX path or bytes, or a list of them, got %s"
                              % type(models).__name__)
        batch, seq = _check.integer("batch", batch), _check.integer("seq", seq)
        threads = _check.integer("threads", threads, lo=0, hi=1024)
        _check.string("device", device, "a str (a device name or description) or None")
        opts = _lib._LoadOpts()
        opts.batch = batch or 0
        opts.seq = seq or 0
        datas, names = [], []
        for m in models:
            if isinstance(m, (bytes, bytearray, memoryview)):
                datas.append(bytes(m))
                names.append(b"model.onnx")
            elif isinstance(m, (str, os.PathLike)):
                data, name, _ = _onnx_of(m, None)
                datas.append(data)
                names.append(name.encode())
            else:
                raise InvalidType("models must hold ONNX paths or bytes, got %s" % type(m).__name__)
        n, t = len(datas), len(self.targets)
        if not n:
            return []
        out = (ctypes.c_float * (n * t))()
        bufs = (ctypes.c_char_p * n)(*datas)   # point into the bytes, no copy
        lens = (ctypes.c_size_t * n)(*map(len, datas))
        nms = (ctypes.c_char_p * n)(*names)
        err = _lib._Err()
        dev = device.encode() if isinstance(device, str) else device
        if _lib.lib.dlp_gnn_predict_onnx_on(self._h, bufs, lens, nms, n, ctypes.byref(opts), int(threads),
                                            dev, out, ctypes.byref(err)) != 0:
            _lib.raise_error(err.text(), err.code)
        vals, keys = out[:], self.targets
        res = [dict(zip(keys, vals[i * t:(i + 1) * t])) for i in range(n)]
        return res[0] if single else res
