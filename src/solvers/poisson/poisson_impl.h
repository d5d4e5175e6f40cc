/* Internals shared by the Poisson solver files: the level hierarchy and the Krylov loop. */
#ifndef NAV_POISSON_IMPL_H
#define NAV_POISSON_IMPL_H

#include "solvers/poisson/nav_poisson.h"

#define NAV_MG_MAX_LEVELS 24

typedef struct nav_level {
  nav_box box;
  nav_real *x, *b, *r; /* solution/correction, right-hand side, residual */
  nav_real *inv_diag;  /* 1 / diag(L) */
  double volume;
  double *w[3];        /* host widths (global = local: one block) */
} nav_level;

struct nav_poisson {
  const nav_kernel_ops *ops;
  nav_poisson_options opt;
  nav_scalar_bc bc[3][2];
  int singular;       /* no Dirichlet face: constants are in the null space */
  int nlev;
  nav_level lev[NAV_MG_MAX_LEVELS];
  nav_real *kz, *kp, *kq; /* Krylov work vectors on the finest level (pcg) */
  nav_real *cz, *cp, *cq; /* Krylov work vectors of the coarsest-level solve (mg) */
};

/* z = M^{-1} r for a preconditioner; ctx is the solver. */
typedef nav_err (*nav_precond_fn)(nav_poisson *ps, nav_level *lev, const nav_real *r, nav_real *z);

/* Preconditioned CG on level lev with work vectors z, p, q (r = lev->r, x, b given); stops at
 * ||r|| <= tol ||b|| or maxit. b must already be compatible (zero mean if singular). */
nav_err nav_pcg_iterate(nav_poisson *ps, nav_level *lev, nav_real *x, const nav_real *b, nav_real *z, nav_real *p,
                        nav_real *q, nav_precond_fn precond, double tol, int maxit, int *iterations, double *relres);
nav_err nav_precond_jacobi(nav_poisson *ps, nav_level *lev, const nav_real *r, nav_real *z);
/* Allocate the level's residual and inverse diagonal (and x, b below the finest level). */
nav_err nav_level_alloc(nav_poisson *ps, nav_level *lev, int finest);

/* Multigrid: build the levels below level 0; one cycle on level 0 for x, b. */
nav_err nav_mg_setup(nav_poisson *ps);
nav_err nav_mg_cycle(nav_poisson *ps, int l, int fcycle);

/* Ghost fill of level l's field x with the homogeneous boundary types of the problem. */
nav_err nav_level_fill(nav_poisson *ps, const nav_box *b, nav_real *x);
/* Volume-weighted RMS norm sqrt(sum x^2 dV / V) from a local sum. */
double nav_level_norm(const nav_level *lev, double sum_sq);
/* Subtract the volume-weighted mean of x. */
nav_err nav_level_remove_mean(nav_poisson *ps, const nav_level *lev, nav_real *x);

#endif
