/* Internals shared by the Poisson solver files. Who calls whom (each file only those below it; checked
 * by tools/check_layers.py from the symbols of the objects):
 *   poisson.c      the front (nav_psolver.h): checks the options, builds level 0, picks a solver from its
 *                  table by name (auto: fft.c's rule) and forwards to its nav_psolver_impl
 *   mg_solver.c    the solvers mg and mgpcg        -> mg.c, pcg.c, frame.c
 *   fft_solver.c   the solver fft                  -> fft.c, frame.c, level.c
 *   sor.c          the solvers sor and jacobi      -> frame.c, level.c
 *   mg.c           the multigrid hierarchy and cycle -> mg_line.c, mg_direct.c, pcg.c (coarsest CG), level.c
 *   mg_line.c, mg_direct.c  line smoothing, the coarsest level's Cholesky -> level.c
 *   pcg.c          the CG loop on one level (nav_pcg_iterate), Jacobi, the solver pcg -> frame.c, level.c
 *   fft.c          the FFT direct solve's plans and transforms (grid and backend only)
 *   frame.c        what every solve shares: the null space, ||b||, the stopping rule, the stationary loop
 *                  -> level.c
 *   level.c        the operations on one level (level.h) -> grid, backend, core
 * Callbacks (the preconditioner of nav_pcg_iterate, the step of nav_psolver_iterate, an impl's refresh
 * called by nav_psolver_refresh) are function pointers handed down, never calls up. */
#ifndef NAV_POISSON_IMPL_H
#define NAV_POISSON_IMPL_H

#include "grid/nav_halo.h"
#include "grid/nav_reduce.h"
#include "solvers/poisson/level.h"
#include "solvers/poisson/nav_psolver.h"

#define NAV_MG_MAX_LEVELS 24

typedef struct nav_psolver_impl nav_psolver_impl;

typedef struct nav_fft nav_fft; /* fft.c */
#define NAV_PSOLVER_WORK 4

struct nav_psolver {
  const nav_kernel_ops *ops;
  nav_psolver_options opt;
  const nav_psolver_impl *impl; /* the solver in use (the front's table) */
  int multigrid;      /* the solver cycles the multigrid hierarchy (mg, mgpcg): levels may smooth by lines */
  int symmetric;      /* the cycle serves CG (mgpcg): post-smoothing black then red */
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

/* One solver behind the front, as a PETSc PC's ops (PCCreate_Jacobi fills pc->ops): poisson.c keeps a
 * table of them and finds one by name. The front has built level 0 (ps->lev[0] with its x and b the
 * caller's), set ps->opt, ps->bc, ps->singular, ps->gather and ps->bottom before setup.
 *   setup     the solver's own arrays and levels. Collective.
 *   solve     the whole solve of nav_psolver_solve (its contract), from frame.c's pieces; given: this
 *             rank's sum of b dV from the caller (nav_psolver_rhs_sum) or NULL; t0: the solve's start.
 *   apply     z = M r for nav_psolver_precondition (r projected already when singular); NULL: the
 *             solver is no preconditioner.
 *   refresh   after the operator changed, once the level diagonals are recomputed (frame.c's
 *             nav_psolver_refresh): the solver's own dependants; NULL: none.
 *   restrict  level 0's Helmholtz coefficient (which 0, lev->kc) or variable shift (1, lev->sv) to the
 *             solver's coarse levels; NULL: none. Collective.
 *   describe  one line on the solver; destroy: what setup allocated (the front frees level 0). */
struct nav_psolver_impl {
  const char *name;
  int iterative; /* a solve starts from the x it is given (nav_psolver_iterative) */
  int symmetric; /* the solver needs a symmetric cycle: pre_smooth = post_smooth (mgpcg) */
  int sweeps;    /* the solver solves by opt.sweeps smoothing sweeps when asked (mg, Helmholtz) */
  nav_err (*setup)(nav_psolver *ps);
  nav_err (*solve)(nav_psolver *ps, nav_real *x, nav_real *b, const double *given, double t0, nav_psolver_stats *st);
  nav_err (*apply)(nav_psolver *ps, nav_real *z, nav_real *r);
  nav_err (*refresh)(nav_psolver *ps);
  nav_err (*restrict_cells)(nav_psolver *ps, int which);
  void (*describe)(const nav_psolver *ps, char *text, int size);
  void (*destroy)(nav_psolver *ps);
};
extern const nav_psolver_impl nav_psolver_mg, nav_psolver_mgpcg, nav_psolver_pcg, nav_psolver_sor, nav_psolver_jacobi,
    nav_psolver_fft;

/* The frame every solve shares (frame.c).
 * nav_psolver_prepare: the level diagonals when the operator changed (nav_psolver_refresh), and with
 * staggered unknowns b's pinned rows set to 0 (nav_level_pin).
 * nav_psolver_begin: b projected to zero mean when singular and project (else b as it is), the stats
 * reset, bnorm = ||b||; *done = 1 when nothing is left to solve (b with a NaN or Inf: relres = bnorm;
 * b = 0: x = 0, converged), solve_s set; else bref = max(bnorm, floor) and tol = opt.tolerance bref / bnorm
 * (the stopping rule ||r|| <= tol ||b|| of nav_pcg_iterate).
 * nav_psolver_finish (iterative solvers): converged from relres, x's mean removed when singular, its ghosts
 * filled, solve_s set.
 * nav_psolver_iterate: the stationary iteration x = step(x) until ||b - L x|| <= tol bref (mg cycles, sor
 * sweeps, jacobi steps); st->relres = ||r|| / bref. */
typedef nav_err (*nav_psolver_step_fn)(nav_psolver *ps, nav_real *x, const nav_real *b);
nav_err nav_psolver_prepare(nav_psolver *ps, nav_real *b);
nav_err nav_psolver_begin(nav_psolver *ps, nav_real *x, nav_real *b, const double *given, int project, double t0,
                          nav_psolver_stats *st, double *bnorm, double *bref, double *tol, int *done);
nav_err nav_psolver_finish(nav_psolver *ps, nav_real *x, double t0, nav_psolver_stats *st);
nav_err nav_psolver_iterate(nav_psolver *ps, nav_real *x, const nav_real *b, double bref, nav_psolver_step_fn step,
                            nav_psolver_stats *st);
/* A stationary solver's solve after nav_psolver_prepare: begin, iterate with step, finish. */
nav_err nav_psolver_stationary(nav_psolver *ps, nav_real *x, nav_real *b, const double *given, double t0,
                               nav_psolver_step_fn step, nav_psolver_stats *st);
/* Recompute the diagonals of every level this rank works on for the shift in use (the transfer level
 * excluded: it is never smoothed), then the solver's refresh. Collective. */
nav_err nav_psolver_refresh(nav_psolver *ps);
/* Allocate n work vectors of the finest level into ps->work. */
nav_err nav_psolver_work(nav_psolver *ps, int n);
/* ", singular (zero-mean)" and ", tolerance raised to ... (precision)" as they apply. */
void nav_psolver_notes(const nav_psolver *ps, char *text, int size);

/* z = M^{-1} r for a preconditioner; ctx is the solver. */
typedef nav_err (*nav_precond_fn)(nav_psolver *ps, nav_level *lev, const nav_real *r, nav_real *z);

/* Preconditioned CG on level lev with work vectors r, z, p, q; stops at ||r|| <= tol ||b|| or
 * maxit. b must already be compatible (zero mean if singular). r must not be lev->r when the
 * preconditioner is a multigrid cycle (the cycle uses lev->r). flexible: the Polak-Ribiere beta, for a
 * preconditioner that is not exactly symmetric (pcg.c). */
nav_err nav_pcg_iterate(nav_psolver *ps, nav_level *lev, nav_real *x, const nav_real *b, nav_real *r, nav_real *z,
                        nav_real *p, nav_real *q, nav_precond_fn precond, int flexible, double tol, int maxit,
                        int *iterations, double *relres);
/* A solve of the front by nav_pcg_iterate on level 0 (the solvers pcg and mgpcg): prepare, begin, the
 * iteration with residual vector r (ps->work[0..2] its z, p, q) and precond, relres relative to
 * bref, finish (frame.c). */
nav_err nav_pcg_solve(nav_psolver *ps, nav_real *x, nav_real *b, const double *given, double t0, nav_real *r,
                      nav_precond_fn precond, int flexible, nav_psolver_stats *st);
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
/* After the operator changed (the level diagonals recomputed): the split lines' responses, ps->bottom, the
 * coarsest level's factor (refactored at the next coarse solve). Collective. */
nav_err nav_mg_refresh(nav_psolver *ps);
/* Free what nav_mg_setup and nav_mg_mixed_setup allocated: the levels below 0, the line smoothers (level 0's
 * too), the transfer level, the gather buffers, the coarsest level's solve, the graphs, the float arrays. */
void nav_mg_destroy(nav_psolver *ps);
nav_err nav_mg_cycle(nav_psolver *ps, int l, int fcycle);
/* opt.sweeps (nav_psolver.h): level 0's x = sweeps smoothing sweeps from x = 0 for its b (order alternating,
 * each colour followed by its ghost fill: x returns with its ghosts filled). Collective. */
nav_err nav_mg_smooth(nav_psolver *ps, int sweeps);
/* Release the V-cycle's recorded graphs (they are recorded again at the next cycle). */
void nav_mg_graphs_free(nav_psolver *ps);
/* Mixed precision (mg.c): whether it applies to the hierarchy built (else 0 and the reason in why); its
 * set-up (float arrays on the device levels); one iteration on the nav_real iterate x whose float residual
 * ps->lo0[1] holds (the caller computes it with nav_mg_kernels.residual_lo): x += one float cycle. */
int nav_mg_mixed_applies(const nav_psolver *ps, char *why, int size);
nav_err nav_mg_mixed_setup(nav_psolver *ps);
nav_err nav_mg_cycle_lo(nav_psolver *ps, nav_real *x, int fcycle);

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

/* Helmholtz solvers: ps->bottom from ps->sigma and ps->kmax (mg.c). Not collective (the same on
 * every rank for the levels it cycles). */
void nav_mg_bottom(nav_psolver *ps);
/* Helmholtz coefficient of every coarse level from level 0's (restriction, gathers). Collective. */
nav_err nav_mg_coefficients(nav_psolver *ps);
/* The same for the variable shift (lev->sv). Collective. */
nav_err nav_mg_shift_fields(nav_psolver *ps);
/* FFT direct solver (fft.c). nav_fft_applies: 1 if the FFT solver serves this grid and backend,
 * else 0 with the reason in why. nav_fft_setup: plans, eigenvalues, layouts of level 0 (collective);
 * nav_fft_solve: x = L^{-1} b on the interior (b compatible; ghosts of x not filled; collective);
 * bsum (backend memory, only where nav_fft_one_transform or nav_fft_spectral_mean): this rank's sum of b dV,
 * whose mean the solve removes (the box from what it reads, nav_fft_kernels.fft_box; the slabs in the spectrum), b
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
 * one), or the slabs or the lines of a singular problem remove it in the spectrum (nav_point_fft.h "the
 * mean", fft.c "lines"). */
int nav_fft_zero_mean(const nav_psolver *ps);
/* 1 if the whole box is one multi-dimensional transform (nav_fft_kernels.fft_box): the solve can remove b's mean. */
int nav_fft_one_transform(const nav_psolver *ps);
/* 1 if the slabs or the lines of a singular problem remove both means in the spectrum (nav_point_fft.h "the
 * mean", fft.c "lines"): every solve takes b as it is with its sum (nav_fft_solve's bsum), so that all paths
 * give the same bits. */
int nav_fft_spectral_mean(const nav_psolver *ps);
/* *sum = backend memory holding local (this rank's sum of b dV), for nav_fft_solve's bsum; spectral mean only. */
nav_err nav_fft_rhs_sum(nav_psolver *ps, double local, const double **sum);
/* Backend memory holding the sum of b dV over every rank of the last solve, for a deferred check of b: the
 * slabs' (gathered with the ends: the same on every rank), else bsum (the box: one rank). */
const double *nav_fft_sum_of_b(const nav_psolver *ps, const double *bsum);
/* One line on the FFT solver: transforms per direction, the tridiagonal direction, the layouts. */
void nav_fft_describe(const nav_psolver *ps, char *text, int size);

#endif
