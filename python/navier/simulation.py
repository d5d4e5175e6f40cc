"""navier.Simulation: a flow simulation driven from Python (ctypes over include/navier/flow.h, one rank).

    import navier
    sim = navier.Simulation(overrides={"grid.nx": 64, "grid.ny": 64})   # the built-in cavity, Re = 100
    sim.step(100)
    f = sim.fields()        # {"u": array (nx, ny), ..., "p": ..., "x": cell centres, "xf": faces, ...}
    sim.summary             # summary.json's entries (written into sim.output_dir)

Arrays are indexed [i, j(, k)] (x first). Staggered (MAC) grid: p and scalars at cell centres x[i], y[j];
u[i, j] on the face xf[i] (the LOW x face of cell (i, j)) at y[j]; v[i, j] at x[i], yf[j]; w likewise.
fields() returns host copies; arrays() returns the fields without a copy: numpy views of the solver's memory
with the cpu backend, objects with __cuda_array_interface__ (CuPy: cupy.asarray, PyTorch: torch.as_tensor)
with the cuda backend, valid until the next step or set_field (the Adams-Bashforth history swaps arrays).
"""
import atexit
import ctypes
import json
import os
import weakref

import numpy as np

from ._lib import NavierError, library

_c = ctypes


class _Options(_c.Structure):  # nav_sim_options
    _fields_ = [("case_file", _c.c_char_p), ("config", _c.c_char_p), ("nset", _c.c_int),
                ("sets", _c.POINTER(_c.c_char_p)), ("output_dir", _c.c_char_p), ("restart", _c.c_char_p)]


class _Info(_c.Structure):  # nav_sim_info
    _fields_ = [("dim", _c.c_int), ("n", _c.c_int * 3), ("offset", _c.c_int * 3), ("count", _c.c_int * 3),
                ("ranks", _c.c_int), ("device", _c.c_int), ("backend", _c.c_char * 16), ("name", _c.c_char * 64),
                ("output_dir", _c.c_char * 512), ("precision", _c.c_int)]


class _Diagnostics(_c.Structure):  # nav_sim_diagnostics
    _fields_ = [("step", _c.c_long), ("time", _c.c_double), ("dt", _c.c_double), ("cfl", _c.c_double),
                ("kinetic_energy", _c.c_double), ("max_div", _c.c_double), ("p_iterations", _c.c_int),
                ("p_residual", _c.c_double), ("change", _c.c_double)]


class _Array(_c.Structure):  # nav_sim_array
    _fields_ = [("data", _c.c_void_p), ("device", _c.c_int), ("precision", _c.c_int), ("offset", _c.c_long),
                ("stride", _c.c_long * 3), ("total", _c.c_long), ("shape", _c.c_int * 3)]


_sim_lib = None


def _library():
    global _sim_lib
    if _sim_lib is not None:
        return _sim_lib
    lib = library()
    vp, P = _c.c_void_p, _c.POINTER
    lib.nav_sim_create_serial.argtypes = [P(_Options), P(vp)]
    lib.nav_sim_destroy.argtypes = [vp]
    lib.nav_sim_step.argtypes = [vp, _c.c_long, P(_c.c_long)]
    lib.nav_sim_advance_to.argtypes = [vp, _c.c_double, _c.c_long, P(_c.c_long)]
    lib.nav_sim_diagnostics_get.argtypes = [vp, P(_Diagnostics)]
    lib.nav_sim_info_get.argtypes = [vp, P(_Info)]
    lib.nav_sim_coordinates.argtypes = [vp, _c.c_int, P(_c.c_double)]
    lib.nav_sim_field_count.argtypes = [vp]
    lib.nav_sim_field_name.argtypes = [vp, _c.c_int]
    lib.nav_sim_field_name.restype = _c.c_char_p
    arr = np.ctypeslib.ndpointer(dtype=np.float64, flags="F_CONTIGUOUS")
    lib.nav_sim_get_field.argtypes = [vp, _c.c_char_p, arr]
    lib.nav_sim_set_field.argtypes = [vp, _c.c_char_p, arr]
    lib.nav_sim_field_array.argtypes = [vp, _c.c_char_p, P(_Array)]
    lib.nav_sim_clock.argtypes = [vp, P(_c.c_double), P(_c.c_long), P(_c.c_double)]
    lib.nav_sim_set_clock.argtypes = [vp, _c.c_double, _c.c_long, _c.c_double]
    lib.nav_sim_write_fields.argtypes = [vp]
    lib.nav_sim_write_checkpoint.argtypes = [vp, _c.c_char_p, _c.c_size_t]
    lib.nav_sim_write_summary.argtypes = [vp, _c.c_char_p, _c.c_size_t]
    lib.nav_sim_error.restype = _c.c_char_p
    lib.nav_sim_sizes.argtypes = [_c.c_size_t * 4]
    sizes = (_c.c_size_t * 4)()
    lib.nav_sim_sizes(sizes)
    mine = [_c.sizeof(s) for s in (_Options, _Info, _Diagnostics, _Array)]
    if list(sizes) != mine:
        raise OSError(f"libnavier.so's flow structures ({list(sizes)} bytes) differ from this binding's ({mine}): "
                      "install the navier package of the same navier version")
    atexit.register(_finalize, lib)
    _sim_lib = lib
    return lib


_live = weakref.WeakSet()  # open simulations: closed at exit before MPI ends


def _finalize(lib):
    for sim in list(_live):
        sim.close()
    lib.nav_sim_finalize_serial()


def _check(code):
    if code != 0:
        raise NavierError(code, _library().nav_sim_error().decode())


def _value(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


class _CudaArray:
    """A device array without a copy: cupy.asarray(a), torch.as_tensor(a, device="cuda")."""

    def __init__(self, ptr, shape, strides, typestr, owner):
        self.__cuda_array_interface__ = {"shape": shape, "strides": strides, "typestr": typestr,
                                         "data": (ptr, False), "version": 3, "stream": None}
        self.shape, self._owner = shape, owner


class Simulation:
    """A simulation of a case file (case), of INI text (config), or of the built-in default case (both None),
    with overrides {"section.key": value} (as `navier run --set`), output folder output (default: [output] dir
    or output/<case name>), started from a checkpoint (restart). Raises NavierError on bad input, with the
    message of `navier run` ("FILE:LINE: key 'section.key': why")."""

    def __init__(self, case=None, overrides=None, config=None, output=None, restart=None):
        lib = _library()
        self._keep = []

        def enc(s):
            if s is None:
                return None
            b = os.fsencode(s) if not isinstance(s, bytes) else s
            self._keep.append(b)
            return b

        sets = [f"{k}={_value(v)}".encode() for k, v in (overrides or {}).items()]
        self._keep.append(sets)
        opt = _Options(case_file=enc(case), config=enc(config), nset=len(sets), output_dir=enc(output),
                       restart=enc(restart))
        if sets:
            carr = (_c.c_char_p * len(sets))(*sets)
            self._keep.append(carr)
            opt.sets = _c.cast(carr, _c.POINTER(_c.c_char_p))
        self._sim = _c.c_void_p()
        _check(lib.nav_sim_create_serial(_c.byref(opt), _c.byref(self._sim)))
        _live.add(self)
        info = _Info()
        lib.nav_sim_info_get(self._sim, _c.byref(info))
        self.dim = info.dim
        self.shape = tuple(info.n[:info.dim])
        self.backend = info.backend.decode()
        self.name = info.name.decode()
        self.output_dir = info.output_dir.decode()
        self.device = bool(info.device)
        self._dtype = np.float64 if info.precision == 8 else np.float32
        self.coordinates = {}
        for d, axis in enumerate("xyz"[:self.dim]):
            xf = np.empty(self.shape[d] + 1)
            _check(lib.nav_sim_coordinates(self._sim, d, xf.ctypes.data_as(_c.POINTER(_c.c_double))))
            self.coordinates[axis + "f"] = xf
            self.coordinates[axis] = 0.5 * (xf[1:] + xf[:-1])

    # -- stepping ---------------------------------------------------------------------------------
    def step(self, n=1):
        """n steps (fewer if [time] end_time is reached); returns the steps taken."""
        done = _c.c_long()
        _check(_library().nav_sim_step(self._ptr(), int(n), _c.byref(done)))
        return done.value

    def run(self, until=None, steps=None, every=1, callback=None):
        """Step to time `until` and/or for `steps` steps (at least one of them), calling callback(sim) after every
        `every` steps (and at the end); returns the steps taken. A callback that returns False stops the run."""
        if until is None and steps is None:
            raise ValueError("run: give until (a time) or steps")
        lib, every, total = _library(), max(int(every), 1), 0
        while steps is None or total < steps:
            chunk = every if steps is None else min(every, steps - total)
            done = _c.c_long()
            if until is None:
                _check(lib.nav_sim_step(self._ptr(), chunk, _c.byref(done)))
            else:
                _check(lib.nav_sim_advance_to(self._ptr(), float(until), chunk, _c.byref(done)))
            total += done.value
            if callback is not None and callback(self) is False:
                break
            if done.value < chunk:  # the time (until, or [time] end_time) was reached
                break
        return total

    # -- state ------------------------------------------------------------------------------------
    def _ptr(self):
        if not self._sim:
            raise NavierError(1, "the simulation was closed")
        return self._sim

    @property
    def time(self):
        t = _c.c_double()
        _library().nav_sim_clock(self._ptr(), _c.byref(t), None, None)
        return t.value

    @property
    def steps(self):
        s = _c.c_long()
        _library().nav_sim_clock(self._ptr(), None, _c.byref(s), None)
        return s.value

    @property
    def clock(self):
        """(time, steps, previous dt): with the state arrays (fields(state=True)), what a checkpoint holds."""
        t, s, d = _c.c_double(), _c.c_long(), _c.c_double()
        _library().nav_sim_clock(self._ptr(), _c.byref(t), _c.byref(s), _c.byref(d))
        return t.value, s.value, d.value

    def set_clock(self, time, steps, dt_old):
        _check(_library().nav_sim_set_clock(self._ptr(), float(time), int(steps), float(dt_old)))

    @property
    def diagnostics(self):
        """step, time, dt, cfl, kinetic_energy, max_div, p_iterations, p_residual, change (of the last step)."""
        d = _Diagnostics()
        _check(_library().nav_sim_diagnostics_get(self._ptr(), _c.byref(d)))
        return {name: getattr(d, name) for name, _ in _Diagnostics._fields_}

    def field_names(self, state=True):
        """The state arrays (state=True: everything a checkpoint holds), else the physical fields only."""
        lib = _library()
        names = [lib.nav_sim_field_name(self._ptr(), i).decode() for i in range(lib.nav_sim_field_count(self._ptr()))]
        if state:
            return names
        return [n for n in names if n in ("u", "v", "w", "p", "T", "k", "omega", "nut")]

    def fields(self, state=False):
        """Host copies: {name: array of shape (nx, ny[, nz])} for u, v, (w), p (and T, k, omega, nut where the case
        has them; state=True: every state array), with the coordinates x, y(, z) (cell centres) and xf, yf(, zf)
        (faces), time and step."""
        lib = _library()
        out = {}
        for name in self.field_names(state):
            a = np.empty(self.shape, order="F")
            _check(lib.nav_sim_get_field(self._ptr(), name.encode(), a))
            out[name] = a
        out.update({k: v.copy() for k, v in self.coordinates.items()})
        out["time"], out["step"] = self.time, self.steps
        return out

    def set_field(self, name, array):
        """Set field `name` (shape (nx, ny[, nz]), indexed [i, j(, k)]); the ghosts and boundaries follow."""
        a = np.asfortranarray(array, dtype=np.float64)
        if a.shape != self.shape:
            raise ValueError(f"set_field({name!r}): array of shape {a.shape}, the grid has {self.shape}")
        _check(_library().nav_sim_set_field(self._ptr(), name.encode(), a))

    def arrays(self, state=False):
        """The fields without a copy (see the module's text): numpy views (cpu) or __cuda_array_interface__ objects
        (cuda), shape (nx, ny[, nz]); valid until the next step or set_field."""
        out = {}
        for name in self.field_names(state):
            a = _Array()
            _check(_library().nav_sim_field_array(self._ptr(), name.encode(), _c.byref(a)))
            item = a.precision
            start = a.data + a.offset * item
            strides = tuple(int(a.stride[d]) * item for d in range(self.dim))
            if a.device:
                out[name] = _CudaArray(start, self.shape, strides, "<f%d" % item, self)
            else:
                buf = (_c.c_char * (a.total * item)).from_address(a.data)
                base = np.frombuffer(buf, dtype=self._dtype)
                out[name] = np.lib.stride_tricks.as_strided(base[a.offset:], shape=self.shape, strides=strides)
        return out

    # -- output -----------------------------------------------------------------------------------
    def write_fields(self):
        """A snapshot of the fields into output_dir ([output] format)."""
        _check(_library().nav_sim_write_fields(self._ptr()))

    def write_checkpoint(self):
        """A checkpoint into output_dir; returns its path (navier run --restart PATH continues it)."""
        buf = _c.create_string_buffer(1200)
        _check(_library().nav_sim_write_checkpoint(self._ptr(), buf, len(buf)))
        return buf.value.decode()

    def write_summary(self):
        """summary.json (and final_fields.bin with output.dump_final = true) into output_dir; returns its path."""
        buf = _c.create_string_buffer(1200)
        _check(_library().nav_sim_write_summary(self._ptr(), buf, len(buf)))
        return buf.value.decode()

    @property
    def summary(self):
        """summary.json's entries for the current state (writes summary.json)."""
        with open(self.write_summary()) as f:
            return json.load(f)

    def close(self):
        if getattr(self, "_sim", None):
            _library().nav_sim_destroy(self._sim)
            self._sim = _c.c_void_p()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass
