"""navier_poisson: navier's Poisson solvers from Python (ctypes over libnavier.so, one rank).

Solves the cell-centred 5-point (2D) / 7-point (3D) Poisson equation of include/navier/poisson.h,

    sum_d [ (x_{i+1} - x_i) / dc_{i+1} - (x_i - x_{i-1}) / dc_i ] / h_i = b_i,

on a box of cells with per-direction widths h[d] (uniform or stretched) and per face Neumann (zero
flux), Dirichlet (zero value on the face) or periodic conditions.

    import numpy as np, navier_poisson as nps
    s = nps.Solver((nx, ny), h=(hx, hy), bc=(("dirichlet", "dirichlet"), ("neumann", "neumann")),
                   solver="mg", tolerance=1e-10)
    x, info = s.solve(b)          # b: array of shape (nx, ny[, nz]), index [i, j(, k)]
    s.close()

Arrays are indexed [i, j, k] (x first); they are passed to the library in Fortran order (x fastest,
as the C API wants) and x is returned with b's shape. info: iterations, relres, converged, setup_s,
solve_s. A solve that does not converge raises nav_poisson.NavierError (the info is on the error).
With no Dirichlet face the problem is singular: b's mean is removed and x has zero mean.

The library: $NAVIER_LIBRARY, else libnavier.so of the build folder next to this file's parent
(../build), else the loader's search path. MPI is started by the library (MPI_COMM_SELF) and ended
at interpreter exit.
"""
import atexit
import ctypes
import ctypes.util
import os
import weakref

import numpy as np

_BC = {"neumann": 0, "dirichlet": 1, "periodic": 2}


class _Options(ctypes.Structure):  # mirrors nav_poisson_options (include/navier/poisson.h)
    _fields_ = [("solver", ctypes.c_char_p), ("tolerance", ctypes.c_double), ("max_iterations", ctypes.c_int),
                ("cycle", ctypes.c_char_p), ("pre_smooth", ctypes.c_int), ("post_smooth", ctypes.c_int),
                ("omega", ctypes.c_double), ("backend", ctypes.c_char_p), ("cpu_coarse_cells", ctypes.c_long),
                ("decomposition", ctypes.c_int * 3), ("smoother", ctypes.c_char_p),
                ("halo_transport", ctypes.c_char_p), ("ranks_per_solver", ctypes.c_int), ("memory", ctypes.c_int),
                ("zero_guess", ctypes.c_int), ("gather", ctypes.c_char_p), ("precision", ctypes.c_char_p),
                ("skip_residual", ctypes.c_int)]


class _Result(ctypes.Structure):  # mirrors nav_poisson_result
    _fields_ = [("iterations", ctypes.c_int), ("relres", ctypes.c_double), ("converged", ctypes.c_int),
                ("setup_s", ctypes.c_double), ("solve_s", ctypes.c_double), ("move_in_s", ctypes.c_double),
                ("move_out_s", ctypes.c_double), ("copy_s", ctypes.c_double), ("solver_ranks", ctypes.c_int),
                ("moved", ctypes.c_int)]


class NavierError(RuntimeError):
    """An error of the library: code (nav_err) and message; info for a solve that did not converge."""

    def __init__(self, code, message, info=None):
        super().__init__(f"navier error {code}: {message}")
        self.code, self.info = code, info


def _find_library():
    env = os.environ.get("NAVIER_LIBRARY")
    if env:
        return env
    here = os.path.dirname(os.path.abspath(__file__))
    local = os.path.join(here, "..", "build", "libnavier.so")
    if os.path.exists(local):
        return local
    found = ctypes.util.find_library("navier")
    if not found:
        raise OSError("libnavier.so not found: set NAVIER_LIBRARY or build navier (cmake -DNAV_BUILD_SHARED=ON)")
    return found


_lib = None


def _library():
    global _lib
    if _lib is not None:
        return _lib
    lib = ctypes.CDLL(_find_library(), mode=ctypes.RTLD_GLOBAL)  # global: MPI's plugins see libmpi
    vp = ctypes.c_void_p
    lib.nav_poisson_options_default.argtypes = [ctypes.POINTER(_Options)]
    lib.nav_poisson_create_serial.argtypes = [ctypes.POINTER(_Options), ctypes.POINTER(vp)]
    lib.nav_poisson_set_grid_block.argtypes = [vp, ctypes.c_int, ctypes.c_int * 3, ctypes.c_int * 3, ctypes.c_int * 3,
                                               ctypes.POINTER(ctypes.c_double) * 3, (ctypes.c_int * 2) * 3]
    arr = np.ctypeslib.ndpointer(dtype=np.float64, flags="F_CONTIGUOUS")
    lib.nav_poisson_solve_block.argtypes = [vp, arr, arr, ctypes.POINTER(_Result)]
    lib.nav_poisson_precondition_block.argtypes = [vp, arr, arr]
    lib.nav_poisson_destroy.argtypes = [vp]
    lib.nav_poisson_error.restype = ctypes.c_char_p
    lib.nav_poisson_describe.argtypes = [vp]
    lib.nav_poisson_describe.restype = ctypes.c_char_p
    lib.nav_poisson_sizes.argtypes = [ctypes.POINTER(ctypes.c_size_t), ctypes.POINTER(ctypes.c_size_t)]
    so, sr = ctypes.c_size_t(), ctypes.c_size_t()
    lib.nav_poisson_sizes(ctypes.byref(so), ctypes.byref(sr))
    if so.value != ctypes.sizeof(_Options) or sr.value != ctypes.sizeof(_Result):
        raise OSError(f"libnavier.so's structures ({so.value}, {sr.value} bytes) differ from this binding's "
                      f"({ctypes.sizeof(_Options)}, {ctypes.sizeof(_Result)}): update navier_poisson.py")
    atexit.register(_finalize, lib)
    _lib = lib
    return lib


_live = weakref.WeakSet()  # open solvers: destroyed at exit before MPI ends


def _finalize(lib):
    for solver in list(_live):
        solver.close()
    lib.nav_poisson_finalize_serial()


def _check(code, info=None):
    if code != 0:
        raise NavierError(code, _library().nav_poisson_error().decode(), info)


class Solver:
    """A solver set up for one grid: shape (nx, ny[, nz]), widths h[d] (arrays of n[d] cell widths, or
    a float: uniform), bc[d] = (low, high) in "neumann", "dirichlet", "periodic". Options as in
    nav_poisson_options: solver ("mg", "mgpcg", "fft", "auto", "pcg", "sor", "jacobi"), tolerance,
    max_iterations, backend ("cpu" or "cuda"), precision ("double", or "mixed": float multigrid cycles on a
    GPU inside a double iteration), skip_residual (fft: no residual check; info["relres"] is then -1)."""

    def __init__(self, shape, h, bc, solver="mg", tolerance=1e-8, max_iterations=200, backend="cpu",
                 precision="double", skip_residual=False):
        lib = _library()
        self.shape = tuple(int(n) for n in shape)
        dim = len(self.shape)
        if dim not in (2, 3):
            raise ValueError("shape must have 2 or 3 entries")
        self._keep = []  # the strings and width arrays the library reads during set-up
        opt = _Options()
        lib.nav_poisson_options_default(ctypes.byref(opt))
        for name, value in (("solver", solver), ("backend", backend), ("precision", precision)):
            b = value.encode()
            self._keep.append(b)
            setattr(opt, name, b)
        opt.tolerance, opt.max_iterations, opt.skip_residual = tolerance, max_iterations, int(bool(skip_residual))
        self._ps = ctypes.c_void_p()
        _check(lib.nav_poisson_create_serial(ctypes.byref(opt), ctypes.byref(self._ps)))
        _live.add(self)
        n3, lo3 = (ctypes.c_int * 3)(*(self.shape + (1,) * (3 - dim))), (ctypes.c_int * 3)(0, 0, 0)
        widths = (ctypes.POINTER(ctypes.c_double) * 3)()
        faces = ((ctypes.c_int * 2) * 3)()
        for d in range(dim):
            w = np.ascontiguousarray(np.broadcast_to(np.asarray(h[d], dtype=np.float64), (self.shape[d],)))
            self._keep.append(w)
            widths[d] = w.ctypes.data_as(ctypes.POINTER(ctypes.c_double))
            faces[d][0], faces[d][1] = _BC[bc[d][0]], _BC[bc[d][1]]
        _check(lib.nav_poisson_set_grid_block(self._ps, dim, n3, lo3, n3, widths, faces))

    def describe(self):
        return _library().nav_poisson_describe(self._ps).decode()

    def solve(self, b, x0=None):
        """x with L x = b (x0: initial guess, default 0); returns (x, info dict)."""
        b = np.asfortranarray(b, dtype=np.float64)
        if b.shape != self.shape:
            raise ValueError(f"b has shape {b.shape}, the grid {self.shape}")
        x = np.zeros(self.shape, order="F") if x0 is None else np.array(x0, dtype=np.float64, order="F", copy=True)
        res = _Result()
        code = _library().nav_poisson_solve_block(self._ps, x, b, ctypes.byref(res))
        info = {k: getattr(res, k) for k in ("iterations", "relres", "converged", "setup_s", "solve_s")}
        _check(code, info)
        return x, info

    def precondition(self, r):
        """z = M r, M ~ L^{-1}: one multigrid cycle (mgpcg: symmetric) or the FFT inverse."""
        r = np.asfortranarray(r, dtype=np.float64)
        z = np.zeros(self.shape, order="F")
        _check(_library().nav_poisson_precondition_block(self._ps, z, r))
        return z

    def close(self):
        if self._ps:
            _library().nav_poisson_destroy(self._ps)
            self._ps = ctypes.c_void_p()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass


def solve(b, h, bc, **options):
    """One solve: x, info = solve(b, h, bc, solver=..., tolerance=...) (see Solver)."""
    s = Solver(np.shape(b), h, bc, **options)
    try:
        return s.solve(b)
    finally:
        s.close()
