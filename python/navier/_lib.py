"""Finding and loading libnavier.so, and its errors.

Order: $NAVIER_LIBRARY (the file), $NAVIER_PREFIX/lib*/libnavier.so (an install prefix), the build folder
recorded at install time (navier/_where.py: the source tree's build/ or $NAVIER_BUILD), the prefix the package
was installed from (PREFIX/share/navier/python), the source tree's build/ next to this folder, the loader's path."""
import ctypes
import ctypes.util
import glob
import os

try:
    from . import _where
except ImportError:  # run from the source tree without installing
    _where = None


class NavierError(RuntimeError):
    """An error of the library: code (nav_err: 1 input, 2 memory, 3 I/O, 4 convergence, 5 blow-up, 6 backend,
    7 MPI, 8 internal) and its message ("FILE:LINE: key 'section.key': why" for bad input)."""

    def __init__(self, code, message, info=None):
        super().__init__(message)
        self.code, self.message, self.info = code, message, info


def _in_prefix(prefix):
    for path in sorted(glob.glob(os.path.join(prefix, "lib*", "libnavier.so"))) + \
            sorted(glob.glob(os.path.join(prefix, "lib", "*", "libnavier.so"))):
        return path
    return None


def find_library():
    """The path of libnavier.so (see the module's text); OSError with the places tried if none."""
    env = os.environ.get("NAVIER_LIBRARY")
    if env:
        return env
    tried = []
    if os.environ.get("NAVIER_PREFIX"):
        found = _in_prefix(os.environ["NAVIER_PREFIX"])
        if found:
            return found
        tried.append(os.environ["NAVIER_PREFIX"] + "/lib*")
    here = os.path.dirname(os.path.abspath(__file__))
    candidates = []
    if _where is not None:
        candidates += [os.path.join(_where.BUILD, "libnavier.so"), _in_prefix(_where.PREFIX)]
    candidates.append(os.path.join(here, "..", "..", "build", "libnavier.so"))
    for path in candidates:
        if path and os.path.exists(path):
            return path
        if path:
            tried.append(path)
    found = ctypes.util.find_library("navier")
    if found:
        return found
    raise OSError("libnavier.so not found (tried " + ", ".join(tried) + "): set NAVIER_PREFIX to navier's install "
                  "prefix or NAVIER_LIBRARY to the file, or build navier (cmake -DNAV_BUILD_SHARED=ON)")


_lib = None


def library():
    """The loaded library (RTLD_GLOBAL: MPI's plugins see libmpi)."""
    global _lib
    if _lib is None:
        path = find_library()
        os.environ.setdefault("NAVIER_LIBRARY", path)  # navier_poisson (navier.Poisson) loads the same file
        _lib = ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
    return _lib
