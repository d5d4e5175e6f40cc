/* Pressure Poisson solver: L x = b for the cell-centred Laplacian of nav_point_poisson.h on one
 * block, with Neumann, Dirichlet (homogeneous) or periodic faces.
 *
 * Solvers:
 *   fft     direct: real-to-real transforms in the uniform directions, tridiagonal lines in one
 *           stretched direction, dense eigenvector transforms in any other stretched one (fft.c);
 *           one pass, the residual is round-off
 *   auto    fft where it applies (nav_fft_applies: no stretched periodic direction; a backend with
 *           an FFT library, and LAPACK for a second stretched direction; not where its transposes
 *           would go through the host, nav_fft_host_staged; dense transforms no longer
 *           than nav_fft_dense_cheap's limit), else mg
 *   mg      geometric multigrid cycles (red-black Gauss-Seidel smoothing, V or F cycle)
 *   mgpcg   conjugate gradients preconditioned by one symmetric multigrid V-cycle
 *   pcg     Jacobi-preconditioned conjugate gradients
 *   sor     red-black successive over-relaxation (omega given, or estimated from the grid)
 *   jacobi  damped Jacobi iteration (omega given, or 0.8)
 * Stopping rule: the volume-weighted
 * residual norm ||b - L x|| <= tol ||b||, or max_iterations (then converged = 0: the caller
 * decides; the flow solver stops with a message). All-Neumann/periodic problems are singular:
 * b is projected to zero mean and x is returned with zero mean. x is the initial guess
 * (warm start) and the result; b may be modified (projection). Both have the block layout of
 * nav_box.h; backend memory. A right-hand side with NaN or Inf is not solved: converged = 0
 * and relres = NaN/Inf. */
#ifndef NAV_PSOLVER_H
#define NAV_PSOLVER_H

#include "backend/nav_kernels.h"
#include "grid/nav_boundary.h"
#include "grid/nav_decomp.h"
#include "grid/nav_geometry.h"

typedef struct nav_psolver_options {
  char solver[16];    /* auto | fft | mg | mgpcg | pcg | sor | jacobi */
  double tolerance;   /* relative residual */
  int max_iterations; /* cycles or iterations */
  char cycle[8];      /* v | f (mg) */
  int pre_smooth, post_smooth;
  double omega;       /* relaxation factor of sor and jacobi; 0 = estimate (sor) or 0.8 (jacobi) */
  long cpu_coarse_cells; /* device backends: levels of at most this many cells on the CPU; 0: automatic (mg.c) */
  char smoother[8];   /* mg, mgpcg: auto (zebra lines along the directions of strong coupling on stretched
                         grids, red-black points elsewhere; mg.c), point, or line (lines along every direction,
                         alternating); "" = auto */
  long overlap_cells; /* mg smoothing on a level split over ranks whose block has at least this many
                         cells (> 0) overlaps its halo exchange with the block's core (mg.c); 0: never */
  /* Helmholtz solves (implicit diffusion, nav_diffusion.h): helmholtz = 1 makes the operator
   * div(k grad x) - sigma x (nav_psolver_set_shift, nav_psolver_set_coefficient; never singular).
   * staggered = c + 1 (c >= 0): the unknowns are the faces of direction c (a velocity component on the
   * block layout of nav_box.h: face i in slot i), so the level-0 cells are the control volumes of
   * the faces (widths dc_i = (w_{i-1} + w_i) / 2 along c, the face distance w_{i-1} between
   * unknowns i-1 and i, exactly the staggered operator of nav_point_flow.h) and the coarse levels
   * coarsen those widths; 0: cell-centred. Faces of kind
   * NAV_SCALAR_FACE pin their boundary face slot. */
  int helmholtz;
  int staggered;
  /* Helmholtz solves of a pseudo-time march (mg only): sweeps > 0 makes a solve a fixed approximate inverse,
   * x = that many smoothing sweeps of level 0 (zebra lines where mg would smooth by lines, else red-black
   * points; the order alternating) from x = 0, with no coarse levels and nothing measured (no reduction, no
   * host wait: stats.relres = 0, relres_measured = 0, converged = 1; a NaN in b is not seen here). From x = 0
   * the solve is a linear map x = M b, the same for the same operator, and nonsingular when the sweeps
   * converge (the operators of implicit diffusion are M-matrices): a march phi += M R(phi) in delta form
   * stands still exactly where R(phi) = 0, as with the exact solve. 0: the multigrid to tolerance. */
  int sweeps;
  /* async = 1: an FFT solve not asked to measure its residual (nav_psolver_measure_next) skips that
   * and returns once its kernels are launched on the backend's stream, not finished (stats.solve_s is
   * then the launch time): for a caller whose next reduction waits for them anyway (the flow).
   * 2: the same, and a nonsingular b is summed (one host wait) so that a NaN or Inf in it fails the solve at
   * once, as a singular b's mean does: for a caller with no reduction of its own (the library's skip_residual).
   * 0: every solve is measured and returns finished. */
  int async;
  /* mg: "mixed" runs the multigrid cycles in float on the levels of a device backend inside a double
   * iteration (mg.c: same tolerance, half the bytes; where it does not apply the solver says why in its
   * description and stays in double); "double" or "" (the default): every level in nav_real */
  char precision[8];
} nav_psolver_options;

typedef struct nav_psolver_stats {
  int iterations;
  double relres;    /* final ||b - L x|| / ||b|| */
  int converged;
  double solve_s;   /* wall seconds of the last solve (finished, unless opt.async) */
  int relres_measured; /* 0: relres is the last measured one (opt.async, nav_psolver_measure_next) */
  int deferred;     /* 1: the solve returned before looking at b (its NaN/Inf check): nav_psolver_deferred_bad */
} nav_psolver_stats;

typedef struct nav_psolver nav_psolver;

/* Set up the solver for the global grid of n cells with global widths w (index -1..n valid):
 * levels, work arrays. dc: the decomposition of the grid over ranks (this rank solves its block;
 * x and b are its block), or NULL for one block. ops is the backend. Collective over dc's ranks. */
nav_err nav_psolver_create(const nav_kernel_ops *ops, const nav_decomp *dc, int dim, const int n[3], double *const w[3],
                           const nav_scalar_bc bc[3][2], const nav_psolver_options *opt, nav_psolver **ps);
nav_err nav_psolver_solve(nav_psolver *ps, nav_real *x, nav_real *b, nav_psolver_stats *stats);
/* opt.async solvers: whether the next solves measure their residual (0: the FFT solver skips it). */
void nav_psolver_measure_next(nav_psolver *ps, int measure);
/* The sum of b dV from the caller (singular opt.async FFT solvers): backend memory for one double
 * that the caller fills with this rank's sum of b dV of the NEXT solve's b before that solve (the
 * kernel that computes b: ops->divergence's sum), or NULL where the solver has no use for it (then
 * nothing is expected). That solve takes the mean from it instead of summing b (one launch fewer);
 * an unmeasured solve on one rank whose box is one transform (nav_fft_one_transform), or on slabs
 * (nav_fft_spectral_mean), does not wait for it either: the transform removes the mean as it reads b,
 * the slabs in the spectrum (b keeps its mean; otherwise b is projected as always), and the NaN/Inf
 * check of b is deferred (stats.deferred). Not collective. */
double *nav_psolver_rhs_sum(nav_psolver *ps);
/* After a deferred solve (stats.deferred): 1 if its b held a NaN or Inf (its sum), else 0; also 0
 * with nothing deferred. The sum was copied back without a wait: call this only after a backend
 * call that waited for the stream after that solve (ops->sync, to_host, a reduction returning a host
 * double). Clears the deferral. Not collective (a deferred solve on several ranks, the slabs, checks the sum
 * over the ranks gathered with the lines' ends: every rank sees the same). */
int nav_psolver_deferred_bad(nav_psolver *ps);
/* A floor under ||b|| in the stopping rule: solves stop at ||b - L x|| <= tol max(||b||, floor) and
 * report relres relative to that (0, the default: the plain relative rule). For incremental
 * unknowns, whose right-hand side vanishes at a steady state: floor = the norm of the right-hand
 * side of the full unknown keeps the accuracy of the full unknown. Not collective. */
void nav_psolver_set_floor(nav_psolver *ps, double floor);
/* Helmholtz solvers (opt.helmholtz): the shift sigma >= 0 of every level (recomputes the level
 * diagonals when sigma changed, or after nav_psolver_set_coefficient). Collective. */
nav_err nav_psolver_set_shift(nav_psolver *ps, double sigma);
/* Helmholtz solvers: the cell-centred coefficient k of level 0 (backend memory in the block
 * layout; interior values read, copied), or NULL for k = 1; its ghosts are filled here (zero
 * normal gradient, periodic wrap, halo exchange; even about a pinned face slot) and it is restricted
 * (volume average) to every coarse level. Call again whenever k changes. Collective. */
nav_err nav_psolver_set_coefficient(nav_psolver *ps, const nav_real *k);
/* Helmholtz solvers: a cell-centred variable shift s(x) >= 0 of level 0 (backend memory, interior
 * values read, copied), added to sigma: the operator becomes div(k grad x) - (sigma + s) x; restricted
 * (volume average) to every coarse level; NULL removes it. Call again whenever s changes (the level
 * diagonals are recomputed at the next nav_psolver_set_shift). Collective. */
nav_err nav_psolver_set_shift_field(nav_psolver *ps, const nav_real *s);

/* One application of the solver as a preconditioner: z = M r with M ~ L^{-1} (fft: the exact inverse;
 * mg, mgpcg: one V-cycle from z = 0, symmetric for mgpcg (black-red post-smoothing), so that CG can
 * use it; pcg: Jacobi). Singular problems: r and z are projected to zero mean (r is modified). r, z:
 * backend memory in the block layout, distinct. Collective. */
nav_err nav_psolver_precondition(nav_psolver *ps, nav_real *z, nav_real *r);
void nav_psolver_destroy(nav_psolver *ps);
/* One line on the solver: multigrid levels and the coarsest level, relaxation factor. */
void nav_psolver_describe(const nav_psolver *ps, char *text, int size);
/* How many colour sweeps of this rank overlapped their halo exchange with the core's relaxation so
 * far ([run] halo_overlap; 0 when it is off or no level qualifies). Not collective. */
long nav_psolver_overlapped(const nav_psolver *ps);
/* Whether a solve starts from the x it is given (every solver but the direct fft and the fixed sweeps of
 * opt.sweeps), so that a better x saves iterations. Not collective. */
int nav_psolver_iterative(const nav_psolver *ps);
/* Setup seconds of nav_psolver_create. */
double nav_psolver_setup_seconds(const nav_psolver *ps);

#endif
