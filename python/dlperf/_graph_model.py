"""GraphModel: a trained graph predictor (.dlpm from `dlperf train`) loaded
once and asked about many models in one call (NAS loops): each ONNX is
parsed in memory, features are built in the model's layout, and all graphs
are predicted in one library call (dlp_gnn_predict_graphs)."""
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

    def predict(self, models, batch=None, seq=None):
        """One dict {target: value} per model (ONNX paths or bytes), in order."""
        from . import _onnx_of  # the package's model reader
        if self._h is None:
            raise Error("%s: model closed" % self.path)
        opts = _lib._LoadOpts()
        opts.batch = batch or 0
        opts.seq = seq or 0
        datas, graphs = [], []
        err = _lib._Err()
        try:
            for m in models:
                data, name, _ = _onnx_of(m, None)
                g = ctypes.c_void_p()
                if _lib.lib.dlp_graph_load_mem(data, len(data), name.encode(), ctypes.byref(opts),
                                               ctypes.byref(g), ctypes.byref(err)) != 0:
                    raise Error(err.text(), err.code)
                datas.append(data)  # the graph points into its bytes
                graphs.append(g.value)
            n, t = len(graphs), len(self.targets)
            out = (ctypes.c_float * max(1, n * t))()
            arr = (ctypes.c_void_p * max(1, n))(*graphs)
            if n and _lib.lib.dlp_gnn_predict_graphs(self._h, arr, n, out, ctypes.byref(err)) != 0:
                raise Error(err.text(), err.code)
            return [{self.targets[k]: out[i * t + k] for k in range(t)} for i in range(n)]
        finally:
            for g in graphs:
                _lib.lib.dlp_graph_free(g)
