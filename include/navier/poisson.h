/* navier Poisson library: solve the cell-centred 5-point (2D) / 7-point (3D) Poisson equation
 *
 *     sum_d [ (x_{i+1} - x_i) / dc_{i+1} - (x_i - x_{i-1}) / dc_i ] / h_i = b_i
 *
 * on a box of n[0] x n[1] (x n[2]) cells with per-direction cell widths h[d][i] (dc: distance
 * between neighbouring centres), each face Neumann (zero flux), Dirichlet (zero value on the face)
 * or periodic, without the flow solver. Four calls, in the spirit of the AmgX wrapper for PETSc:
 *
 *     nav_poisson *ps;
 *     nav_poisson_create(MPI_COMM_WORLD, &opt, &ps);        (opt NULL: multigrid V(2,2), 1e-8)
 *     nav_poisson_set_grid(ps, dim, n, h, bc);               (levels and work arrays are set up)
 *     nav_poisson_solve(ps, x, b, &result);                 (as often as needed)
 *     nav_poisson_destroy(ps);
 *
 * Arrays x and b are host arrays of n[0]*n[1]*n[2] values, x fastest, no ghost cells. x is the
 * initial guess and the result. With no Dirichlet face the problem is singular: b is used with
 * its (volume-weighted) mean removed and x is returned with zero mean. Every call returns 0
 * (NAV_OK) or an error code; nav_poisson_error() gives the message. On a communicator of several
 * ranks the grid is split over them (options.decomposition, or automatic) and each rank solves
 * its block; x and b are still the WHOLE arrays, the same on every rank (this first distributed
 * version replicates them: each rank reads its block of b and x, and x is assembled on every rank
 * after the solve). */
#ifndef NAVIER_POISSON_H
#define NAVIER_POISSON_H

#include <mpi.h>

#include "navier/nav_types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum nav_poisson_bc { NAV_POISSON_NEUMANN = 0, NAV_POISSON_DIRICHLET = 1, NAV_POISSON_PERIODIC = 2 } nav_poisson_bc;

typedef struct nav_poisson_options {
  const char *solver;   /* "mg" (default), "fft" (direct: transforms in the uniform directions, tridiagonal
                           lines in at most one non-uniform, non-periodic one; NAV_ERR_INPUT with the reason
                           on a grid it cannot serve), "auto" (fft where it applies, else mg), "mgpcg",
                           "pcg" (Jacobi-CG), "sor", "jacobi" */
  double tolerance;     /* relative residual ||b - A x|| / ||b||; default 1e-8 */
  int max_iterations;   /* default 200 (multigrid cycles) */
  const char *cycle;    /* "v" (default) or "f" */
  int pre_smooth;       /* red-black Gauss-Seidel sweeps; default 2 */
  int post_smooth;      /* default 2 */
  double omega;         /* sor/jacobi relaxation factor; 0 = estimated (sor) / 0.8 (jacobi) */
  const char *backend;  /* "cpu" (default) or "cuda" (the GPU of the node-local rank) */
  long cpu_coarse_cells; /* device backends: multigrid levels of at most this many cells run on the CPU of
                           rank 0; 0 (default) = 4096 */
  int decomposition[3]; /* ranks per direction over the communicator; 0,0,0 = automatic (default) */
  const char *smoother; /* multigrid smoothing: "auto" (default, NULL too: zebra line relaxation along the directions
                           of strong coupling of stretched grids, red-black Gauss-Seidel elsewhere), "point"
                           (red-black everywhere), "line" (alternating zebra lines along every direction) */
  const char *halo_transport; /* between ranks: "auto" (default: nccl, else cuda-aware, else mpi on a GPU
                                 backend; mpi on the cpu), "mpi", "cuda-aware", "nccl" */
} nav_poisson_options;

typedef struct nav_poisson_result {
  int iterations;  /* cycles or iterations */
  double relres;   /* final relative residual (volume-weighted 2-norm) */
  int converged;   /* relres <= tolerance */
  double setup_s;  /* seconds spent in nav_poisson_set_grid */
  double solve_s;  /* seconds of this solve in the solver (the copies of x and b excluded) */
} nav_poisson_result;

typedef struct nav_poisson nav_poisson;

/* Fill opt with the defaults. */
void nav_poisson_options_default(nav_poisson_options *opt);
/* Create a solver; opt may be NULL (defaults). Collective on comm. */
nav_err nav_poisson_create(MPI_Comm comm, const nav_poisson_options *opt, nav_poisson **ps);
/* Set the grid: dim 2 or 3, n cells per direction (n[2] ignored in 2D), h[d] the n[d] cell widths
 * of direction d, bc[d][0] / bc[d][1] the low / high face. Replaces an earlier grid. */
nav_err nav_poisson_set_grid(nav_poisson *ps, int dim, const int n[3], const double *const h[3],
                             const nav_poisson_bc bc[3][2]);
/* Solve A x = b. A solve that does not converge returns NAV_ERR_CONVERGENCE, with the result
 * filled in. */
nav_err nav_poisson_solve(nav_poisson *ps, double *x, const double *b, nav_poisson_result *result);
void nav_poisson_destroy(nav_poisson *ps);
/* The message of the last error. */
const char *nav_poisson_error(void);
/* One line describing the solver set up (levels, coarsest grid, relaxation factor). */
const char *nav_poisson_describe(nav_poisson *ps);

#ifdef __cplusplus
}
#endif

#endif
