"""amp: run models compiled by `amp-compile --shared` from Python.

    import amp
    m = amp.load("out/")          # a folder built by amp-compile --shared
    y = m(x)                      # NumPy arrays in, NumPy arrays out
    y = m(torch_tensor)           # torch tensors in (CPU or CUDA, through
                                  # DLPack, no copy on the GPU), torch out

ctypes over the C API (amp_model.h, libamp_model.so): no compiled
extension. On a machine without a GPU, a GPU build runs on amp's emulator
(slow: for tests), which amp says once. docs/runtime.md has the details.
"""

import ctypes
import os
import threading
import warnings

import numpy as np

__all__ = ["load", "Model", "AmpError", "TensorInfo"]

_MAX_RANK = 8
_DTYPES = ["f32", "f64", "f16", "bf16", "i64", "i32", "i16", "i8", "i1"]
_NUMPY = {"f32": np.float32, "f64": np.float64, "f16": np.float16,
          "bf16": np.uint16, "i64": np.int64, "i32": np.int32,
          "i16": np.int16, "i8": np.int8, "i1": np.bool_}
_STATUS = ["ok", "invalid argument", "not an amp model", "no device",
           "wrong rank", "shape out of range", "wrong dtype", "out of memory",
           "memory kind", "device error"]
_HOST, _DEVICE = 0, 1
_DEVICES = {"auto": 0, "cuda": 1, "emulator": 2}


class AmpError(RuntimeError):
    """A failure the C API reported: `status` is its amp_status name."""

    def __init__(self, status, message):
        self.status = _STATUS[status] if 0 <= status < len(_STATUS) \
            else str(status)
        super().__init__(message)


class _Tensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("dtype", ctypes.c_int),
                ("rank", ctypes.c_int32),
                ("shape", ctypes.c_int64 * _MAX_RANK),
                ("memory", ctypes.c_int)]


class _Info(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("dtype", ctypes.c_int),
                ("rank", ctypes.c_int32),
                ("shape", ctypes.c_int64 * _MAX_RANK),
                ("min", ctypes.c_int64 * _MAX_RANK),
                ("max", ctypes.c_int64 * _MAX_RANK)]


class _Stats(ctypes.Structure):
    _fields_ = [(n, ctypes.c_int64) for n in
                ("runs", "graph_replays", "graph_captures", "cached_graphs")]


class TensorInfo:
    """An input or output: shape has -1 for a dynamic size, which takes
    any value in [min[i], max[i]]."""

    def __init__(self, info):
        self.name = info.name.decode()
        self.dtype = _DTYPES[info.dtype]
        self.shape = tuple(info.shape[:info.rank])
        self.min = tuple(info.min[:info.rank])
        self.max = tuple(info.max[:info.rank])

    def __repr__(self):
        dims = ", ".join(str(d) if d >= 0 else "%d..%d" % (lo, hi)
                         for d, lo, hi in zip(self.shape, self.min, self.max))
        return "TensorInfo(%s: %s[%s])" % (self.name, self.dtype, dims)


def _library_path():
    here = os.path.dirname(os.path.abspath(__file__))
    candidates = [os.environ.get("AMP_MODEL_LIBRARY", ""),
                  # build tree: build/python/amp -> build/lib
                  os.path.join(here, "..", "..", "lib", "libamp_model.so"),
                  # installed: lib/python/amp -> lib
                  os.path.join(here, "..", "..", "libamp_model.so")]
    for path in candidates:
        if path and os.path.exists(path):
            return os.path.abspath(path)
    raise ImportError("amp: libamp_model.so not found (looked in %s; set "
                      "AMP_MODEL_LIBRARY)" % ", ".join(c for c in candidates
                                                      if c))


_lib = ctypes.CDLL(_library_path())
_P = ctypes.c_void_p
for _name, _args, _ret in [
        ("amp_last_error", [], ctypes.c_char_p),
        ("amp_model_load", [ctypes.c_char_p, ctypes.c_int,
                            ctypes.POINTER(_P)], ctypes.c_int),
        ("amp_model_unload", [_P], None),
        ("amp_model_num_inputs", [_P], ctypes.c_int),
        ("amp_model_num_outputs", [_P], ctypes.c_int),
        ("amp_model_input", [_P, ctypes.c_int, ctypes.POINTER(_Info)],
         ctypes.c_int),
        ("amp_model_output", [_P, ctypes.c_int, ctypes.POINTER(_Info)],
         ctypes.c_int),
        ("amp_model_summary", [_P], ctypes.c_char_p),
        ("amp_model_device", [_P], ctypes.c_char_p),
        ("amp_context_create", [_P, ctypes.c_uint, ctypes.POINTER(_P)],
         ctypes.c_int),
        ("amp_context_destroy", [_P], None),
        ("amp_context_run", [_P, ctypes.POINTER(_Tensor), ctypes.c_int,
                             ctypes.POINTER(_Tensor), ctypes.c_int, _P],
         ctypes.c_int),
        ("amp_context_stats_get", [_P, ctypes.POINTER(_Stats)], ctypes.c_int),
        ("amp_tensor_free", [ctypes.POINTER(_Tensor)], None),
        ("amp_copy", [_P, _P, ctypes.c_int, _P, ctypes.c_int, ctypes.c_size_t],
         ctypes.c_int)]:
    _fn = getattr(_lib, _name)
    _fn.argtypes, _fn.restype = _args, _ret


def _check(status):
    if status:
        raise AmpError(status, _lib.amp_last_error().decode())


#
# DLPack (framework tensors): the struct layout of dlpack.h, v0.x.
#


class _DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device_type", ctypes.c_int32),
                ("device_id", ctypes.c_int32), ("ndim", ctypes.c_int32),
                ("code", ctypes.c_uint8), ("bits", ctypes.c_uint8),
                ("lanes", ctypes.c_uint16),
                ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)),
                ("byte_offset", ctypes.c_uint64)]


_capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_capsule_pointer.restype = ctypes.c_void_p
_DL_TYPES = {(2, 32): "f32", (2, 64): "f64", (2, 16): "f16", (4, 16): "bf16",
             (0, 64): "i64", (0, 32): "i32", (0, 16): "i16", (0, 8): "i8",
             (6, 8): "i1", (1, 8): "i1"}
_DL_CPU, _DL_CUDA = 1, 2


def _from_dlpack(x):
    """(pointer, dtype, shape, memory, keep-alive) of a framework tensor,
    row-major and dense."""
    capsule = x.__dlpack__()
    t = _DLTensor.from_address(_capsule_pointer(capsule, b"dltensor"))
    shape = tuple(t.shape[i] for i in range(t.ndim))
    if t.strides:
        expected, stride = [], 1
        for d in reversed(shape):
            expected.insert(0, stride)
            stride *= d
        strides = [t.strides[i] for i in range(t.ndim)]
        if any(s != e for s, e, d in zip(strides, expected, shape) if d > 1):
            raise ValueError("amp: a strided tensor; pass x.contiguous()")
    dtype = _DL_TYPES.get((t.code, t.bits))
    if dtype is None or t.lanes != 1:
        raise TypeError("amp: unsupported tensor element type (DLPack code "
                        "%d, %d bits)" % (t.code, t.bits))
    if t.device_type not in (_DL_CPU, _DL_CUDA):
        raise TypeError("amp: tensors on DLPack device %d are unsupported"
                        % t.device_type)
    memory = _DEVICE if t.device_type == _DL_CUDA else _HOST
    return (t.data or 0) + t.byte_offset, dtype, shape, memory, capsule


def _torch():
    import torch
    return torch


class Model:
    """A loaded model. Calls from several threads are fine: each thread
    gets a context of its own (the C API's rule)."""

    def __init__(self, path, device="auto", graphs=True):
        if device not in _DEVICES:
            raise ValueError("amp.load: device is one of %s" %
                             ", ".join(_DEVICES))
        handle = _P()
        _check(_lib.amp_model_load(os.fsencode(path), _DEVICES[device],
                                   ctypes.byref(handle)))
        self._handle = handle
        self._flags = 0 if graphs else 1  # AMP_CONTEXT_NO_GRAPHS
        self._local = threading.local()
        self._contexts = []
        self.inputs = [self._info(_lib.amp_model_input, i) for i in
                       range(_lib.amp_model_num_inputs(handle))]
        self.outputs = [self._info(_lib.amp_model_output, i) for i in
                        range(_lib.amp_model_num_outputs(handle))]
        self.summary = _lib.amp_model_summary(handle).decode()
        self.device = _lib.amp_model_device(handle).decode()
        if self.device == "emulator" and device == "auto":
            warnings.warn("amp: no GPU here; %s runs on amp's emulator "
                          "(slow)" % path, stacklevel=3)

    def _info(self, fn, index):
        info = _Info()
        _check(fn(self._handle, index, ctypes.byref(info)))
        return TensorInfo(info)

    def _context(self):
        ctx = getattr(self._local, "context", None)
        if ctx is None:
            ctx = _P()
            _check(_lib.amp_context_create(self._handle, self._flags,
                                           ctypes.byref(ctx)))
            self._local.context = ctx
            self._contexts.append(ctx)
        return ctx

    def stats(self):
        """This thread's context: runs, graph replays and captures."""
        s = _Stats()
        _check(_lib.amp_context_stats_get(self._context(), ctypes.byref(s)))
        return {n: getattr(s, n) for n, _ in _Stats._fields_}

    def _tensor(self, x, keep):
        t = _Tensor()
        if hasattr(x, "__dlpack__") and not isinstance(x, np.ndarray):
            if hasattr(x, "contiguous"):
                x = x.contiguous()
                keep.append(x)
            ptr, dtype, shape, memory, capsule = _from_dlpack(x)
            keep.append(capsule)
        else:
            a = np.ascontiguousarray(x)
            keep.append(a)
            ptr, shape, memory = a.ctypes.data, a.shape, _HOST
            dtype = next((k for k, v in _NUMPY.items()
                          if np.dtype(v) == a.dtype and k != "bf16"), None)
            if dtype is None:
                raise TypeError("amp: unsupported NumPy dtype %s" % a.dtype)
        if len(shape) > _MAX_RANK:
            raise ValueError("amp: rank %d is above %d" % (len(shape),
                                                           _MAX_RANK))
        t.data, t.dtype, t.rank, t.memory = ptr, _DTYPES.index(dtype), \
            len(shape), memory
        for i, d in enumerate(shape):
            t.shape[i] = d
        return t, memory

    def run(self, *inputs):
        """Runs the model; returns a list of outputs, of the kind of the
        inputs (torch tensors for torch inputs, NumPy arrays otherwise)."""
        if len(inputs) != len(self.inputs):
            raise TypeError("amp: the model takes %d inputs (%s), not %d" % (
                len(self.inputs), ", ".join(i.name for i in self.inputs),
                len(inputs)))
        keep, ins, on_device = [], [], False
        for x in inputs:
            t, memory = self._tensor(x, keep)
            ins.append(t)
            on_device |= memory == _DEVICE
        as_torch = any(type(x).__module__.startswith("torch") for x in inputs)
        n = len(self.outputs)
        in_array = (_Tensor * max(1, len(ins)))(*ins)
        out_array = (_Tensor * max(1, n))()
        for o in range(n):
            out_array[o].memory = _DEVICE if on_device else _HOST
        _check(_lib.amp_context_run(self._context(), in_array, len(ins),
                                    out_array, n, None))
        return [self._take(out_array[o], as_torch, inputs) for o in range(n)]

    def _take(self, t, as_torch, inputs):
        """The output amp allocated, as the caller's kind; freed here."""
        dtype = _DTYPES[t.dtype]
        shape = tuple(t.shape[:t.rank])
        try:
            if t.memory == _DEVICE:
                torch = _torch()
                device = next(x.device for x in inputs
                              if getattr(x, "is_cuda", False))
                tdtype = {"bf16": torch.bfloat16, "i1": torch.bool}.get(
                    dtype, getattr(torch, np.dtype(_NUMPY[dtype]).name, None))
                y = torch.empty(shape, dtype=tdtype, device=device)
                _check(_lib.amp_copy(self._handle, y.data_ptr(), _DEVICE,
                                     t.data, _DEVICE,
                                     y.numel() * y.element_size()))
                return y
            count = int(np.prod(shape, dtype=np.int64))
            a = np.empty(shape, dtype=_NUMPY[dtype])
            if count:
                ctypes.memmove(a.ctypes.data, t.data, a.nbytes)
            if dtype == "bf16":  # NumPy has no bfloat16: widen to float32
                a = (a.astype(np.uint32) << 16).view(np.float32)
            if as_torch:
                return _torch().from_numpy(a)
            return a
        finally:
            _lib.amp_tensor_free(ctypes.byref(t))

    def __call__(self, *inputs):
        outputs = self.run(*inputs)
        return outputs[0] if len(outputs) == 1 else tuple(outputs)

    def __del__(self):
        for ctx in getattr(self, "_contexts", []):
            _lib.amp_context_destroy(ctx)
        if getattr(self, "_handle", None):
            _lib.amp_model_unload(self._handle)
            self._handle = None

    def __repr__(self):
        return "amp.Model(%s -> %s; %s; on %s)" % (
            ", ".join(map(repr, self.inputs)),
            ", ".join(map(repr, self.outputs)), self.summary, self.device)


def load(path, device="auto", graphs=True):
    """Loads a folder built by `amp-compile --shared` (or its
    libmodel.so). device: "auto" (the GPU, else the emulator), "cuda" or
    "emulator". graphs=False: no CUDA graphs."""
    return Model(path, device, graphs)
