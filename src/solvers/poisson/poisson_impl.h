/* Internals shared by the Poisson solver files: the level hierarchy and the Krylov loop. */
#ifndef NAV_POISSON_IMPL_H
#define NAV_POISSON_IMPL_H

#include "grid/nav_halo.h"
#include "grid/nav_reduce.h"
#include "solvers/poisson/nav_psolver.h"

#define NAV_MG_MAX_LEVELS 24

/* One multigrid level. Distributed levels have a block on every rank (dc: the partition of the
 * level's global grid, halo: the exchange with the neighbours, comm: the reductions); gathered
 * levels (below the last distributed one, when blocks get small) are serial and live on rank 0
 * only (active = 0 elsewhere; comm MPI_COMM_NULL). */
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

enum { NAV_PSOLVER_MG, NAV_PSOLVER_MGPCG, NAV_PSOLVER_PCG, NAV_PSOLVER_SOR, NAV_PSOLVER_JACOBI, NAV_PSOLVER_FFT };

typedef struct nav_fft nav_fft; /* fft.c */
#define NAV_PSOLVER_WORK 4

struct nav_psolver {
  const nav_kernel_ops *ops;
  nav_psolver_options opt;
  int kind;           /* NAV_PSOLVER_* */
  double omega;       /* relaxation factor in use (sor, jacobi) */
  double tol_asked;   /* the tolerance asked for; opt.tolerance: the one in use (raised to the precision floor) */
  double setup_s;
  nav_scalar_bc bc[3][2];
  int singular;       /* no Dirichlet face: constants are in the null space */
  int nlev;
  nav_level lev[NAV_MG_MAX_LEVELS];
  nav_real *work[NAV_PSOLVER_WORK]; /* work vectors on the finest level (Krylov, Jacobi) */
  nav_real *cz, *cp, *cq; /* Krylov work vectors of the coarsest-level solve (mg) */
  double *cband;      /* the coarsest level's banded Cholesky factor and a dense vector (mg_direct.c) */
  int cband_state;    /* 0 to be factored at the next coarse solve, 1 factored, 2 not definite (CG until the
                         operator changes), -1 not applicable (CG) */
  const nav_kernel_ops *coarse_ops; /* the backend of the coarsest level */
  int gather;         /* index of the first gathered (serial, rank 0) level; nlev if none */
  nav_level transfer; /* the ranks' own coarsening of level gather-1: restriction target, gathered to
                         rank 0 as level `gather`, and prolongation source after the scatter */
  double *gblock, *gglobal; /* host buffers of the gather/scatter (dense block, dense global on rank 0) */
  nav_real *gstage;   /* host ghosted staging of a block or of the gathered level */
  long overlapped;    /* colour sweeps relaxed beside their halo exchange (nav_mg_relax_overlapped) so far */
  nav_fft *fft;       /* the FFT solver's plans and buffers (fft.c) */
  int measure_next;   /* nav_psolver_measure_next */
  double fft_relres;  /* the relative residual of the last measured FFT solve (nav_psolver_solve) */
  double *bsum;       /* nav_psolver_rhs_sum: backend memory for the caller's local sum of b dV; NULL: none */
  double *bsum_host;  /* its copy read back without a wait (ops->alloc_host) for the deferred NaN check */
  int bsum_given;     /* the next solve's b has its sum in bsum */
  int deferred;       /* the last solve's check of b is pending in bsum_host (nav_psolver_deferred_bad) */
  double sigma;       /* Helmholtz shift in use (opt.helmholtz) */
  int diag_stale;     /* the level diagonals must be recomputed before the next solve */
  double floor;       /* nav_psolver_set_floor */
  double kmax;        /* largest Helmholtz coefficient (1 without one) */
  int bottom;         /* Helmholtz: the level where cycles stop and smooth (nav_mg_bottom) */
  int graphs;         /* the V-cycle's device levels run as CUDA graphs (mg.c): 1 yes, -1 no */
  void *graph[2];     /* its two recorded parts (down, up); NULL: not recorded */
  const nav_real *graph_x, *graph_b; /* level 0's x and b when they were recorded */
  int lo;             /* the mixed-precision multigrid is on: float cycles on the device levels (mg.c) */
  nav_real *lo0[3];   /* its float x (the correction), b (the residual) and r of level 0 (float storage) */
  char lo_why[96];    /* opt.precision mixed but not applied: the reason */
};

/* z = M^{-1} r for a preconditioner; ctx is the solver. */
typedef nav_err (*nav_precond_fn)(nav_psolver *ps, nav_level *lev, const nav_real *r, nav_real *z);

/* Preconditioned CG on level lev with work vectors r, z, p, q; stops at ||r|| <= tol ||b|| or
 * maxit. b must already be compatible (zero mean if singular). r must not be lev->r when the
 * preconditioner is a multigrid cycle (the cycle uses lev->r). flexible: the Polak-Ribiere beta, for a
 * preconditioner that is not exactly symmetric (pcg.c). */
nav_err nav_pcg_iterate(nav_psolver *ps, nav_level *lev, nav_real *x, const nav_real *b, nav_real *r, nav_real *z,
                        nav_real *p, nav_real *q, nav_precond_fn precond, int flexible, double tol, int maxit,
                        int *iterations, double *relres);
nav_err nav_precond_jacobi(nav_psolver *ps, nav_level *lev, const nav_real *r, nav_real *z);
/* z = one multigrid V-cycle applied to r with a zero initial guess (lev is level 0; with the mixed-precision
 * multigrid, ps->lo, the float cycle of nav_mg_cycle_lo). */
nav_err nav_precond_mg(nav_psolver *ps, nav_level *lev, const nav_real *r, nav_real *z);
/* Estimated optimal SOR factor 2 / (1 + sqrt(1 - rho_J^2)) from the Jacobi spectral radius of
 * the separable operator on level 0. */
double nav_sor_omega_estimate(const nav_psolver *ps);

/* Multigrid: build the levels below level 0; one cycle on level l for its x, b (V, or F when
 * fcycle). The cycle returns with the ghosts of level l's x filled (every path ends with a fill:
 * the last smoothing sweep, the fill after the correction, or the coarsest solve). */
nav_err nav_mg_setup(nav_psolver *ps);
nav_err nav_mg_cycle(nav_psolver *ps, int l, int fcycle);
/* opt.sweeps (nav_psolver.h): level 0's x = sweeps smoothing sweeps from x = 0 for its b (order alternating,
 * each colour followed by its ghost fill: x returns with its ghosts filled). Collective. */
nav_err nav_mg_smooth(nav_psolver *ps, int sweeps);
/* Release the V-cycle's recorded graphs (they are recorded again at the next cycle). */
void nav_mg_graphs_free(nav_psolver *ps);
/* Mixed precision (mg.c): whether it applies to the hierarchy built (else 0 and the reason in why); its
 * set-up (float arrays on the device levels); one iteration on the nav_real iterate x whose float residual
 * ps->lo0[1] holds (the caller computes it with ops->residual_lo): x += one float cycle. */
int nav_mg_mixed_applies(const nav_psolver *ps, char *why, int size);
nav_err nav_mg_mixed_setup(nav_psolver *ps);
nav_err nav_mg_cycle_lo(nav_psolver *ps, nav_real *x, int fcycle);

/* Host copies between a ghosted block array and a dense block (interior, x fastest; mg.c). */
void nav_mg_dense(const nav_box *b, nav_real *ghosted, double *dense, int to_dense);
/* Direct solve of the coarsest level (mg_direct.c): whether it applies to level lev; x = L^{-1} b of the
 * coarsest level lev (b compatible; ghosts of x not filled), factoring first when ps->cband_state is 0;
 * *done = 0 (nothing changed) when the factor is not usable (cband_state -1): the caller solves by CG. */
int nav_mg_direct_applies(const nav_level *lev);
nav_err nav_mg_direct_solve(nav_psolver *ps, nav_level *lev, int *done);

/* Line smoothing (mg_line.c): the line directions of level lev (from its global widths and the
 * smoother option; the same on every rank); the set-up of its line smoother (called on the smoothed
 * levels this rank works on; collective over the level's ranks when lines are split over them); one
 * sweep (order 0: directions in turn, colours 0 then 1; order 1: the reverse, adjoint), a ghost fill
 * after each colour; lev->r is the scratch of the line solves (free during smoothing). */
int nav_mg_line_dirs(const nav_psolver *ps, const nav_level *lev, int dirs[3]);
nav_err nav_mg_line_setup(const nav_psolver *ps, nav_level *lev);
nav_err nav_mg_line_sweep(nav_psolver *ps, nav_level *lev, int order);
/* After the level's operator changed (Helmholtz shift or coefficient): recompute the unit responses
 * of its lines split over ranks. Collective over the level's ranks. */
nav_err nav_mg_line_refresh(nav_level *lev);
void nav_mg_line_free(nav_level *lev);

/* Ghost fill of level lev's field x (halo exchange, then the homogeneous boundary types). */
nav_err nav_level_fill(nav_psolver *ps, const nav_level *lev, nav_real *x);
/* Ghost fill of a Helmholtz coefficient k of level lev (zero normal gradient, periodic wrap, halo
 * exchange; on level 0 even about the pinned face slots). */
nav_err nav_level_fill_coefficient(nav_psolver *ps, const nav_level *lev, nav_real *k);
/* Global dot product sum x y dV of level lev (reduced over the level's ranks). */
nav_err nav_level_dot(const nav_level *lev, const nav_real *x, const nav_real *y, double *sum);
/* Set up level lev of partition dc (copied) and global widths w (copied): box, halo, arrays. */
nav_err nav_level_init(nav_psolver *ps, nav_level *lev, const nav_kernel_ops *ops, const nav_decomp *dc,
                       double *const w[3], int finest);
void nav_level_free(nav_psolver *ps, nav_level *lev, int finest);
/* Helmholtz solvers: ps->bottom from ps->sigma and ps->kmax (mg.c). Not collective (the same on
 * every rank for the levels it cycles). */
void nav_mg_bottom(nav_psolver *ps);
/* Helmholtz coefficient of every coarse level from level 0's (restriction, gathers). Collective. */
nav_err nav_mg_coefficients(nav_psolver *ps);
/* The same for the variable shift (lev->sv). Collective. */
nav_err nav_mg_shift_fields(nav_psolver *ps);
/* Volume-weighted RMS norm sqrt(sum x^2 dV / V) from a local sum. */
double nav_level_norm(const nav_level *lev, double sum_sq);
/* Subtract the volume-weighted mean of x. */
nav_err nav_level_remove_mean(const nav_level *lev, nav_real *x);
/* The same, and *sum = the sum of x dV before (every rank's; NaN or Inf when x holds one). local:
 * this rank's sum of x dV already computed, in backend memory (nav_psolver_rhs_sum), or NULL (summed
 * here: one launch fewer with it). */
nav_err nav_level_remove_mean_sum(const nav_level *lev, nav_real *x, const double *local, double *sum);

/* FFT direct solver (fft.c). nav_fft_applies: 1 if the FFT solver serves this grid and backend,
 * else 0 with the reason in why. nav_fft_setup: plans, eigenvalues, layouts of level 0 (collective);
 * nav_fft_solve: x = L^{-1} b on the interior (b compatible; ghosts of x not filled; collective);
 * bsum (backend memory, only where nav_fft_one_transform or nav_fft_spectral_mean): this rank's sum of b dV,
 * whose mean the solve removes (the box from what it reads, ops->fft_box; the slabs in the spectrum), b
 * itself left as it is; NULL: b compatible already (the slabs then take b's mean as 0). */
int nav_fft_applies(const nav_kernel_ops *ops, int dim, const int n[3], double *const w[3],
                    const nav_scalar_bc bc[3][2], char *why, int size);
/* 1 unless a direction the FFT solver would transform by dense eigenvectors is longer than what
 * solver = auto takes on this backend (fft.c, NAV_FFT_DENSE_AUTO_*). */
int nav_fft_dense_cheap(const nav_kernel_ops *ops, int dim, const int n[3], double *const w[3]);
/* 1 if the FFT solver's transposes for ops over dc would carry the field through the host (a device backend over
 * several ranks whose halo transport is host-staged mpi, and no slabs: fft.c's header). */
int nav_fft_host_staged(const nav_kernel_ops *ops, const nav_decomp *dc, double *const w[3],
                        const nav_scalar_bc bc[3][2]);
nav_err nav_fft_setup(nav_psolver *ps);
nav_err nav_fft_solve(nav_psolver *ps, nav_real *x, const nav_real *b, const double *bsum);
void nav_fft_destroy(nav_psolver *ps);
/* 1 if the solution has zero mean: every direction is transformed by an FFT (no tridiagonal or dense
 * one), or the slabs of a singular problem remove it in the spectrum (nav_point_fft.h "the mean"). */
int nav_fft_zero_mean(const nav_psolver *ps);
/* 1 if the whole box is one multi-dimensional transform (ops->fft_box): the solve can remove b's mean. */
int nav_fft_one_transform(const nav_psolver *ps);
/* 1 if the slabs of a singular problem remove both means in the spectrum (nav_point_fft.h "the mean"): every
 * solve takes b as it is with its sum (nav_fft_solve's bsum), so that all paths give the same bits. */
int nav_fft_spectral_mean(const nav_psolver *ps);
/* *sum = backend memory holding local (this rank's sum of b dV), for nav_fft_solve's bsum; spectral mean only. */
nav_err nav_fft_rhs_sum(nav_psolver *ps, double local, const double **sum);
/* Backend memory holding the sum of b dV over every rank of the last solve, for a deferred check of b: the
 * slabs' (gathered with the ends: the same on every rank), else bsum (the box: one rank). */
const double *nav_fft_sum_of_b(const nav_psolver *ps, const double *bsum);
/* One line on the FFT solver: transforms per direction, the tridiagonal direction, the layouts. */
void nav_fft_describe(const nav_psolver *ps, char *text, int size);

#endif
