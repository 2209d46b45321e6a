"""GraphModel: a trained graph predictor (.dlpm from `dlperf train`) loaded
once and asked about many models in one call (NAS loops): each ONNX is
parsed in memory, features are built in the model's layout, and all graphs
are predicted in one library call (dlp_gnn_predict_onnx, worker threads
in C)."""
import ctypes
import os

from . import _lib
from ._lib import Error


class GraphModel:
    def __init__(self, handle, path):
        self._h = handle
        self.path = path
        n = _lib.lib.dlp_gnn_target_count(handle)
        self.targets = [_lib.lib.dlp_gnn_target_name(handle, k).decode() for k in range(n)]
        # a gnnlm model's default device ("" for the other architectures)
        self.device = (_lib.lib.dlp_gnn_device(handle) or b"").decode()

    @classmethod
    def load(cls, path):
        """Load a .dlpm GNN model file."""
        h = ctypes.c_void_p()
        err = _lib._Err()
        if _lib.lib.dlp_gnn_load(os.fspath(path).encode(), ctypes.byref(h), ctypes.byref(err)) != 0:
            raise Error(err.text(), err.code)
        return cls(h, os.fspath(path))

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
        """One dict {target: value} per model (ONNX paths or bytes), in order.

        All models go to the library in one call (dlp_gnn_predict_onnx_on):
        parsed, featurised and predicted there by `threads` worker threads
        (0: one per CPU), without the GIL.  `device` (gnnlm models only): a
        device setting by name ("titan_rtx_32", "h100-sxm") or described in
        words; None: the device the model was trained on (`self.device`)."""
        from . import _onnx_of  # the package's model reader
        if self._h is None:
            raise Error("%s: model closed" % self.path)
        opts = _lib._LoadOpts()
        opts.batch = batch or 0
        opts.seq = seq or 0
        datas, names = [], []
        for m in models:
            if isinstance(m, bytes):
                datas.append(m)
                names.append(b"model.onnx")
            else:
                data, name, _ = _onnx_of(m, None)
                datas.append(data)
                names.append(name.encode())
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
            raise Error(err.text(), err.code)
        vals, keys = out[:], self.targets
        if t == 1:
            k = keys[0]
            return [{k: v} for v in vals]
        return [dict(zip(keys, vals[i * t:(i + 1) * t])) for i in range(n)]
