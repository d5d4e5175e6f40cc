/* The keys of the pressure Poisson solve of the projection ([pressure]: the solver and its options,
 * solvers/poisson/nav_psolver.h). The registry of sections (solvers/nav_sections.c) lists them. */
#include "solvers/poisson/pressure_keys.h"

static const char *const nav_solver_values[] = {"auto", "fft", "mg", "mgpcg", "pcg", "sor", "jacobi", NULL};
static const char *const nav_cycle_values[] = {"v", "f", NULL};
static const char *const nav_smoother_values[] = {"auto", "point", "line", NULL};
static const char *const nav_precision_values[] = {"double", "mixed", NULL};
static const char *const nav_guess_values[] = {"previous", "extrapolated", NULL};

static const nav_key nav_pressure_rows[] = {
    {"pressure", "solver", NAV_KT_CHOICE, NAV_FIELD(solver), "auto",
     "Pressure Poisson solver: auto (fft where it applies, except on GPUs over several ranks, else mg), fft (direct: "
     "real-to-real transforms in "
     "every uniformly spaced direction, tridiagonal lines in one non-uniform direction and the eigenvectors of any "
     "other as dense matrix products; no stretched direction may be periodic; FFTW and BLAS on the CPU, cuFFT and "
     "cuBLAS on the GPU; auto takes it when every dense direction has at most 512 cells on the CPU, 4096 on a GPU), "
     "mg (geometric multigrid), mgpcg (conjugate gradients preconditioned by a "
     "multigrid V-cycle), and the baselines pcg (Jacobi-preconditioned conjugate gradients), sor (red-black "
     "successive over-relaxation) and jacobi (damped Jacobi).",
     .values = nav_solver_values},
    {"pressure", "tolerance", NAV_KT_REAL, NAV_FIELD(tolerance), "1e-8",
     "Relative residual ||b - Ax|| / ||b|| at which a pressure solve stops.", NAV_RANGE(0, 1, 1, 1)},
    {"pressure", "max_iterations", NAV_KT_INT, NAV_FIELD(max_iterations), "200",
     "Most multigrid cycles (mg) or iterations (the other solvers) per pressure solve.", NAV_ATLEAST(1)},
    {"pressure", "cycle", NAV_KT_CHOICE, NAV_FIELD(cycle), "v", "Multigrid cycle: v (V-cycle) or f (F-cycle).",
     .values = nav_cycle_values},
    {"pressure", "pre_smooth", NAV_KT_INT, NAV_FIELD(pre_smooth), "2",
     "Red-black Gauss-Seidel sweeps before the coarse-grid correction (mg).", NAV_RANGE(0, 0, 20, 0)},
    {"pressure", "post_smooth", NAV_KT_INT, NAV_FIELD(post_smooth), "2",
     "Red-black Gauss-Seidel sweeps after the coarse-grid correction (mg; mgpcg needs post_smooth = pre_smooth).",
     NAV_RANGE(0, 0, 20, 0)},
    {"pressure", "omega", NAV_KT_REAL, NAV_FIELD(omega), "0",
     "Relaxation factor of sor and jacobi; 0 = estimated optimum (sor: 2 / (1 + sqrt(1 - rho_J^2)) from the grid) "
     "or 0.8 (jacobi).",
     NAV_RANGE(0, 0, 2, 1)},
    {"pressure", "smoother", NAV_KT_CHOICE, NAV_FIELD(smoother), "auto",
     "Multigrid smoother (mg, mgpcg): auto (zebra line Gauss-Seidel, a tridiagonal solve per line, along each "
     "direction whose coupling 1/h^2 is somewhere more than twice that of the other directions, as on stretched "
     "grids; red-black Gauss-Seidel on levels without such a direction, e.g. uniform grids), point (red-black "
     "Gauss-Seidel on every level) or line (zebra lines along every direction in turn on every level). Lines split "
     "over ranks are relaxed block by block (the neighbour rank's values are kept during a sweep).",
     .values = nav_smoother_values},
    {"pressure", "precision", NAV_KT_CHOICE, NAV_FIELD(precision), "double",
     "Multigrid (solver = mg) on a GPU: mixed runs the cycles in single precision inside a double-precision "
     "iteration (the residual and the solution stay double: the same tolerance is reached, the cycles move half "
     "the bytes); it applies on one rank with point smoothing on the GPU's levels, elsewhere the solve stays double "
     "and the solver line says why. double: every level in double. Ignored by the single-precision build and "
     "by artificial compressibility.",
     .values = nav_precision_values},
    {"pressure", "cpu_coarse_cells", NAV_KT_INT, NAV_FIELD(cpu_coarse_cells), "0",
     "On a GPU backend the multigrid levels of at most this many cells (global) run on the CPU of rank 0, where a "
     "launch would cost more than the level's work; 0 = automatic (512 for a 3D grid on one rank, else 4096; "
     "docs/performance.md has the timings).",
     NAV_RANGE(0, 0, 1 << 30, 0)},
    {"pressure", "initial_guess", NAV_KT_CHOICE, NAV_FIELD(initial_guess), "previous",
     "Start of each iterative pressure solve (every solver but fft, which is direct) of the projection method with "
     "explicit diffusion: previous (p^n) or extrapolated (linear in time from the last two steps, p^n + (dt^{n+1} / "
     "dt^n) (p^n - p^{n-1}); one more pressure array, which checkpoints hold). extrapolated took 5-40 % fewer "
     "multigrid cycles in the cases of docs/performance.md, but it can also cost many more: the flying snake with "
     "mgpcg and point smoothing took 22.7 iterations per step instead of 3.3 (the extrapolation amplifies the error "
     "that each solve leaves in slowly converging modes), so it is not the default. Implicit diffusion starts its "
     "pressure increment from the previous one.",
     .values = nav_guess_values},
};

const nav_config_keys nav_pressure_keys = NAV_CONFIG_KEYS(nav_pressure_rows);

const nav_config_section nav_pressure_section = {
    .name = "pressure", .doc = "Solver of the pressure Poisson equation of the projection step."};
