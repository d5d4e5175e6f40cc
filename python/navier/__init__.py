"""navier from Python: Simulation (the flow solver, include/navier/flow.h) and Poisson (the Poisson
solvers, include/navier/poisson.h), over libnavier.so (see navier._lib for where it is found:
$NAVIER_PREFIX, the build tree the package was installed from, ...). One rank; MPI is started by the
library when needed and ended at exit."""
from ._lib import NavierError, find_library
from .simulation import Simulation


def __getattr__(name):  # navier.Poisson loads the library only when used
    if name in ("Poisson", "solve_poisson"):
        from ._lib import library
        library()  # sets NAVIER_LIBRARY for navier_poisson
        import navier_poisson
        return navier_poisson.Solver if name == "Poisson" else navier_poisson.solve
    raise AttributeError(name)


__all__ = ["Simulation", "Poisson", "NavierError", "find_library", "solve_poisson"]
__version__ = "0.1.0"
