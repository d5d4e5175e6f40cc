/* One level of the Poisson solvers (HPGMG's level.c): the arrays of one grid and the operations on
 * them that every solver shares. A level knows its grid, its partition, its backend and its boundary
 * types; it knows no solver. The solvers (mg.c, pcg.c, fft.c, sor.c and the front poisson.c) sit above
 * and call these; nothing here calls them back.
 *
 * Distributed levels have a block on every rank (dc: the partition of the level's global grid, halo:
 * the exchange with the neighbours, comm: the reductions); gathered levels (below the last distributed
 * one, when blocks get small) are serial and live on rank 0 only (active = 0 elsewhere; comm
 * MPI_COMM_NULL). */
#ifndef NAV_POISSON_LEVEL_H
#define NAV_POISSON_LEVEL_H

#include "grid/nav_boundary.h"
#include "grid/nav_decomp.h"
#include "grid/nav_halo.h"

typedef struct nav_level {
  const nav_kernel_ops *ops; /* the backend this level runs on (coarse levels: the CPU) */
  nav_box box;
  nav_real *x, *b, *r; /* solution/correction, right-hand side, residual */
  nav_real *inv_diag;  /* 1 / diag(L) */
  nav_real *kc;        /* Helmholtz coefficient at the cells (NULL: none); box.kc points to it */
  nav_real *sv;        /* variable Helmholtz shift at the cells (NULL: none); box.sc points to it */
  double volume;       /* global */
  double *w[3];        /* host widths of the GLOBAL grid of the level, index -1..N */
  int N[3];            /* global cells */
  nav_scalar_bc bc[3][2]; /* the boundary types of the problem (every level the same) */
  int finest;          /* level 0: its NAV_SCALAR_FACE faces pin their boundary face slot (nav_level_pin) */
  nav_decomp dc;       /* partition (a copy; the communicator is shared) */
  nav_halo *halo;      /* NULL: no neighbour rank */
  MPI_Comm comm;       /* reductions: MPI_COMM_NULL when the level is one block */
  int active;          /* this rank works on the level */
  int nline;           /* multigrid smoothing by zebra lines along line_dir[0..nline-1]; 0: red-black points */
  int line_dir[3];
  int x_zero;          /* x is 0 in the cells but not yet stored: its first sweep writes it (nav_mg_zero) */
  int line_kind[3][2]; /* the ends of the block's lines per direction: +1 Neumann, -1 Dirichlet, 0 ghost kept */
  nav_real *lw;        /* scratch of the line solves (forward coefficients); NULL without lines */
  struct nav_line_split *split[3]; /* lines along d split over ranks (mg_line.c); NULL otherwise */
} nav_level;

/* Set up level lev of partition dc (copied), global widths w (copied) and boundary types bc (copied): box,
 * halo, arrays (r and inv_diag; x and b too unless finest, whose x and b are the caller's). Collective
 * over dc's ranks. */
nav_err nav_level_init(nav_level *lev, const nav_kernel_ops *ops, const nav_decomp *dc, double *const w[3],
                       const nav_scalar_bc bc[3][2], int finest);
/* Free what nav_level_init allocated (a level without ops: its partition and widths only). The line
 * smoother's arrays (mg_line.c) must be freed before. */
void nav_level_free(nav_level *lev);
/* Ghost fill of level lev's field x (halo exchange, then the homogeneous boundary types; on the finest
 * level the pinned face slots, nav_level_pin with NAV_GHOST_FACE). */
nav_err nav_level_fill(const nav_level *lev, nav_real *x);
/* Ghost fill of a Helmholtz coefficient k of level lev (zero normal gradient, periodic wrap, halo
 * exchange; on the finest level even about the pinned face slots). */
nav_err nav_level_fill_coefficient(const nav_level *lev, nav_real *k);
/* Set the pinned boundary face slots of a finest-level field x (NAV_SCALAR_FACE faces of this block
 * that are not shared with a neighbour rank) with the ghost kind `kind`. */
nav_err nav_level_pin(const nav_level *lev, nav_real *x, nav_ghost_kind kind);
/* Global dot product sum x y dV of level lev (reduced over the level's ranks). */
nav_err nav_level_dot(const nav_level *lev, const nav_real *x, const nav_real *y, double *sum);
/* Volume-weighted RMS norm sqrt(sum x^2 dV / V) from a global sum. */
double nav_level_norm(const nav_level *lev, double sum_sq);
/* Subtract the volume-weighted mean of x. */
nav_err nav_level_remove_mean(const nav_level *lev, nav_real *x);
/* The same, and *sum = the sum of x dV before (every rank's; NaN or Inf when x holds one). local:
 * this rank's sum of x dV already computed, in backend memory (nav_psolver_rhs_sum), or NULL (summed
 * here: one launch fewer with it). */
nav_err nav_level_remove_mean_sum(const nav_level *lev, nav_real *x, const double *local, double *sum);
/* *sum = the sum of x dV over every rank (local as above; a host wait), x unchanged. */
nav_err nav_level_sum(const nav_level *lev, const nav_real *x, const double *local, double *sum);
/* Host copies between a ghosted block array and a dense block (interior, x fastest). */
void nav_level_dense(const nav_box *b, nav_real *ghosted, double *dense, int to_dense);

#endif
