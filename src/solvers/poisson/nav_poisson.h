/* Pressure Poisson solver: L x = b for the cell-centred Laplacian of nav_point_poisson.h on one
 * block, with Neumann, Dirichlet (homogeneous) or periodic faces.
 *
 * Solvers: "mg" (geometric multigrid cycles, red-black Gauss-Seidel smoothing, V or F cycle)
 * and "pcg" (Jacobi-preconditioned conjugate gradients). Stopping rule: the volume-weighted
 * residual norm ||b - L x|| <= tol ||b||, or max_iterations (then converged = 0: the caller
 * decides; the flow solver stops with a message). All-Neumann/periodic problems are singular:
 * b is projected to zero mean and x is returned with zero mean. x is the initial guess
 * (warm start) and the result; b may be modified (projection). Both have the block layout of
 * nav_box.h; backend memory. A right-hand side with NaN or Inf is not solved: converged = 0
 * and relres = NaN/Inf. */
#ifndef NAV_POISSON_H
#define NAV_POISSON_H

#include "backend/nav_kernels.h"
#include "grid/nav_boundary.h"
#include "grid/nav_geometry.h"

typedef struct nav_poisson_options {
  char solver[16];    /* mg | pcg */
  double tolerance;   /* relative residual */
  int max_iterations; /* cycles or CG iterations */
  char cycle[8];      /* v | f */
  int pre_smooth, post_smooth;
} nav_poisson_options;

typedef struct nav_poisson_stats {
  int iterations;
  double relres;    /* final ||b - L x|| / ||b|| */
  int converged;
  double solve_s;   /* wall seconds of the last solve */
} nav_poisson_stats;

typedef struct nav_poisson nav_poisson;

/* Set up the solver for a block of n cells with global widths w (index -1..n valid): levels,
 * work arrays. ops is the backend. Not collective. */
nav_err nav_poisson_create(const nav_kernel_ops *ops, int dim, const int n[3], double *const w[3],
                           const nav_scalar_bc bc[3][2], const nav_poisson_options *opt, nav_poisson **ps);
nav_err nav_poisson_solve(nav_poisson *ps, nav_real *x, nav_real *b, nav_poisson_stats *stats);
void nav_poisson_destroy(nav_poisson *ps);
/* Number of multigrid levels and the coarsest level's cells (for the log). */
void nav_poisson_describe(const nav_poisson *ps, char *text, int size);

#endif
