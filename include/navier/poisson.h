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
 * Arrays x and b of nav_poisson_solve are host arrays of n[0]*n[1]*n[2] values, x fastest, no ghost
 * cells, the WHOLE grid on every rank (a convenience for small problems: each rank solves its block
 * and x is assembled on every rank). x is the initial guess and the result. With no Dirichlet face
 * the problem is singular: b is used with its (volume-weighted) mean removed and x is returned with
 * zero mean. Every call returns 0 (NAV_OK) or an error code; nav_poisson_error() gives the message.
 *
 * Distributed blocks (no array replicated): each rank passes only its own block,
 *
 *     nav_poisson_set_grid_block(ps, dim, N, offset, count, h, bc);   (collective; the layout is checked)
 *     nav_poisson_solve_block(ps, x, b, &result);                     (x, b: this rank's block)
 *
 * offset[d] / count[d]: the global index of the block's first cell and its cells along d; x and b
 * hold count[0]*count[1]*count[2] values, x fastest, no ghosts. h[d] are the N[d] widths of the
 * WHOLE direction d (1D arrays, the same on every rank). Any Cartesian layout: the blocks' ranges
 * along each direction tile 0..N[d]-1 and every combination of ranges is one rank's block; ranks
 * may be numbered in any order and a rank may pass an empty block (count 0). The layout is checked
 * collectively: gaps, overlaps, blocks outside the grid, a global size or dim that differs between
 * ranks, ranges that do not form a Cartesian product give NAV_ERR_INPUT and the same message on
 * every rank (never a hang). The solver then uses the layout directly when it can (every rank a
 * non-empty block of at least 2 cells per direction, one rank per solver: the solver's blocks ARE
 * the application's blocks, only a copy into the ghosted arrays); otherwise the blocks are moved
 * onto navier's own decomposition of the solver ranks, and x is moved back after the solve: through
 * MPI-3 shared memory when every block stays on its node (each rank writes its cells straight into the
 * solver rank's host staging array, a shared window; the ranks copy in parallel), else by MPI
 * point-to-point messages between the ranks whose boxes intersect (options.gather).
 *
 * Memory space (options.memory): NAV_POISSON_HOST (default) or NAV_POISSON_DEVICE (pointers of
 * the GPU of the rank's backend, cudaMalloc'ed; the backend must be "cuda"). The caller says which;
 * nothing is guessed from the pointer. Device blocks the solver uses directly are copied on the device
 * into its ghosted arrays (no host copy); moved ones (consolidation, a layout navier cannot use) are
 * staged through host memory (a device-to-host copy of b, and of x unless zero_guess, and a
 * host-to-device copy of x).
 *
 * Ranks sharing a GPU (consolidation): with ranks_per_solver = k > 1 the ranks of a node form
 * groups of k consecutive node-local ranks; the first rank of each group is a solver rank (on its
 * GPU with the cuda backend, on its cores with the cpu backend). The solver ranks split the grid
 * among themselves (navier's decomposition), the blocks are moved onto them before the solve
 * (through shared memory when every block's cells stay on their node, else by messages: see above)
 * and x back after it; the other ranks only hand over their blocks and are free otherwise. 0 (default): 1 with
 * the cpu backend, ceil(node ranks / GPUs of the node) with cuda. The same code path serves both
 * backends, so the CPU tests check it.
 *
 * Solve statistics: nav_poisson_result (iterations, residual, time in the solver, time of the moves
 * and of the host/device copies), the same on every rank. */
#ifndef NAVIER_POISSON_H
#define NAVIER_POISSON_H

#include <mpi.h>
#include <stddef.h>

#include "navier/nav_types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum nav_poisson_bc { NAV_POISSON_NEUMANN = 0, NAV_POISSON_DIRICHLET = 1, NAV_POISSON_PERIODIC = 2 } nav_poisson_bc;

typedef enum nav_poisson_memory { NAV_POISSON_HOST = 0, NAV_POISSON_DEVICE = 1 } nav_poisson_memory;

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
                           rank 0; 0 (default) = 512 for a 3D grid on one rank, else 4096 */
  int decomposition[3]; /* ranks per direction over the communicator; 0,0,0 = automatic (default) */
  const char *smoother; /* multigrid smoothing: "auto" (default, NULL too: zebra line relaxation along the directions
                           of strong coupling of stretched grids, red-black Gauss-Seidel elsewhere), "point"
                           (red-black everywhere), "line" (alternating zebra lines along every direction) */
  const char *halo_transport; /* between ranks: "auto" (default: cuda-ipc when every rank is on one node,
                                 else nccl, else cuda-aware, else mpi on a GPU backend; mpi on the cpu), "mpi",
                                 "cuda-aware", "nccl", "cuda-ipc" */
  int ranks_per_solver; /* consolidation: node-local ranks per solving rank (see above); 0 = automatic */
  nav_poisson_memory memory; /* where x and b of nav_poisson_solve_block live; default NAV_POISSON_HOST */
  int zero_guess;       /* 1: x is output only (not read, not moved: the solve starts from 0); default 0 */
  const char *gather;   /* how moved blocks travel: "auto" (default, NULL too: MPI-3 shared memory when every
                           block stays on its node, else messages), "messages" (MPI point-to-point), "shared"
                           (shared memory or NAV_ERR_INPUT) */
  const char *precision; /* solver "mg" on a device backend: "mixed" runs the multigrid cycles in float inside a
                           double iteration (same tolerance, about half the time: docs/performance.md; on one
                           rank with point smoothing, else the solve stays double); "double" (default, NULL too) */
  int skip_residual;     /* 1: a direct solve (solver "fft", or "auto" where it takes the FFT) does not measure
                            ||b - A x|| / ||b|| after the transforms (a norm of b, a residual pass and their host
                            waits: about a third of a GPU solve): nav_poisson_result.relres = -1 (not measured),
                            x the same bit for bit; a NaN or Inf in b still fails the solve. The iterative
                            solvers measure it to stop and ignore this. Default 0 */
} nav_poisson_options;

typedef struct nav_poisson_result {
  int iterations;  /* cycles or iterations */
  double relres;   /* final relative residual (volume-weighted 2-norm); -1: not measured (skip_residual) */
  int converged;   /* relres <= tolerance */
  double setup_s;  /* seconds spent in nav_poisson_set_grid */
  double solve_s;  /* seconds of this solve in the solver (the copies of x and b excluded) */
  double move_in_s;  /* seconds moving b (and x) from the application's blocks to the solver's
                        (block calls: the gather of consolidation; 0 when the layout is used directly) */
  double move_out_s; /* seconds moving x back */
  double copy_s;     /* seconds of the solver rank's host <-> backend copies of b, x (and of the
                        caller's device arrays) */
  int solver_ranks;  /* ranks that solve (fewer than the communicator's under consolidation) */
  int moved;         /* 0: the application's blocks are the solver's; the blocks are moved onto navier's
                        decomposition by 1: MPI messages, 2: MPI-3 shared memory */
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
/* Distributed blocks (see above): the global grid of N cells, this rank's block at offset with count
 * cells, the global widths h[d] (N[d] values) and the faces' conditions. Collective; the layout is
 * checked on every rank. Replaces an earlier grid. */
nav_err nav_poisson_set_grid_block(nav_poisson *ps, int dim, const int N[3], const int offset[3], const int count[3],
                                   const double *const h[3], const nav_poisson_bc bc[3][2]);
/* Solve A x = b on the blocks of nav_poisson_set_grid_block (x, b: this rank's block, in the memory
 * of options.memory). Collective. Non-convergence: NAV_ERR_CONVERGENCE on every rank, result set. */
nav_err nav_poisson_solve_block(nav_poisson *ps, double *x, const double *b, nav_poisson_result *result);
/* Zero-copy blocks (host memory, a double-precision build). nav_poisson_solve_block copies the rank's block of b
 * (and x) into the solver's ghosted host staging arrays (ranks sharing a GPU: the solver rank's part of a node's
 * shared-memory window) and x back after the solve. A rank may instead write its cells straight into those
 * arrays and read x there, which saves both moves:
 *
 *     nav_poisson_block_arrays(ps, &x, &b, stride);    (after nav_poisson_set_grid_block)
 *     b[i + j * stride[1] + k * stride[2]] = ...;      (0 <= i < count[0], ...: this rank's block)
 *     nav_poisson_solve_arrays(ps, &result);           (x there holds the result)
 *
 * stride[0] = 1, stride[2] = 0 in 2D; x = b = NULL for an empty block. The arrays stay valid until the next
 * set_grid_block or destroy and keep their values between solves (x: the last result, the next initial guess
 * unless options.zero_guess). Available when the solver uses the blocks directly, or moves them through
 * shared memory with each rank's block inside one solver rank's box (ranks sharing a GPU); elsewhere (blocks
 * moved by messages, a block split between solver ranks, device memory, a single-precision build)
 * NAV_ERR_INPUT with the reason, on every rank. Both calls are collective. */
nav_err nav_poisson_block_arrays(nav_poisson *ps, double **x, double **b, long stride[3]);
nav_err nav_poisson_solve_arrays(nav_poisson *ps, nav_poisson_result *result);
/* Preconditioner: z = M r with M ~ A^{-1} on the blocks (solver "fft": the exact inverse; "mgpcg":
 * one symmetric multigrid V-cycle from z = 0, for CG; "mg": one V-cycle; "pcg": Jacobi). For singular
 * problems r's mean is ignored and z has zero mean. Collective; r is not modified. */
nav_err nav_poisson_precondition_block(nav_poisson *ps, double *z, const double *r);
void nav_poisson_destroy(nav_poisson *ps);
/* One rank without MPI of the caller's own (bindings: python/navier_poisson.py): MPI is initialised if
 * it is not yet (and finalized by nav_poisson_finalize_serial), the solver lives on MPI_COMM_SELF. */
nav_err nav_poisson_create_serial(const nav_poisson_options *opt, nav_poisson **ps);
void nav_poisson_finalize_serial(void);
/* sizeof the options and result structures (a binding checks its mirror of them). */
void nav_poisson_sizes(size_t *options, size_t *result);
/* The message of the last error. */
const char *nav_poisson_error(void);
/* One line describing the solver set up (levels, coarsest grid, relaxation factor). */
const char *nav_poisson_describe(nav_poisson *ps);

#ifdef __cplusplus
}
#endif

#endif
