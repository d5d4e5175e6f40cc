/* Internals shared by the Poisson solver files: the level hierarchy and the Krylov loop. */
#ifndef NAV_POISSON_IMPL_H
#define NAV_POISSON_IMPL_H

#include "solvers/poisson/nav_psolver.h"

#define NAV_MG_MAX_LEVELS 24

typedef struct nav_level {
  nav_box box;
  nav_real *x, *b, *r; /* solution/correction, right-hand side, residual */
  nav_real *inv_diag;  /* 1 / diag(L) */
  double volume;
  double *w[3];        /* host widths (global = local: one block) */
} nav_level;

enum { NAV_PSOLVER_MG, NAV_PSOLVER_MGPCG, NAV_PSOLVER_PCG, NAV_PSOLVER_SOR, NAV_PSOLVER_JACOBI };
#define NAV_PSOLVER_WORK 4

struct nav_psolver {
  const nav_kernel_ops *ops;
  nav_psolver_options opt;
  int kind;           /* NAV_PSOLVER_* */
  double omega;       /* relaxation factor in use (sor, jacobi) */
  double setup_s;
  nav_scalar_bc bc[3][2];
  int singular;       /* no Dirichlet face: constants are in the null space */
  int nlev;
  nav_level lev[NAV_MG_MAX_LEVELS];
  nav_real *work[NAV_PSOLVER_WORK]; /* work vectors on the finest level (Krylov, Jacobi) */
  nav_real *cz, *cp, *cq; /* Krylov work vectors of the coarsest-level solve (mg) */
};

/* z = M^{-1} r for a preconditioner; ctx is the solver. */
typedef nav_err (*nav_precond_fn)(nav_psolver *ps, nav_level *lev, const nav_real *r, nav_real *z);

/* Preconditioned CG on level lev with work vectors r, z, p, q; stops at ||r|| <= tol ||b|| or
 * maxit. b must already be compatible (zero mean if singular). r must not be lev->r when the
 * preconditioner is a multigrid cycle (the cycle uses lev->r). */
nav_err nav_pcg_iterate(nav_psolver *ps, nav_level *lev, nav_real *x, const nav_real *b, nav_real *r, nav_real *z,
                        nav_real *p, nav_real *q, nav_precond_fn precond, double tol, int maxit, int *iterations,
                        double *relres);
nav_err nav_precond_jacobi(nav_psolver *ps, nav_level *lev, const nav_real *r, nav_real *z);
/* z = one multigrid V-cycle applied to r with a zero initial guess (lev is level 0). */
nav_err nav_precond_mg(nav_psolver *ps, nav_level *lev, const nav_real *r, nav_real *z);
/* Estimated optimal SOR factor 2 / (1 + sqrt(1 - rho_J^2)) from the Jacobi spectral radius of
 * the separable operator on level 0. */
double nav_sor_omega_estimate(const nav_psolver *ps);
/* Allocate the level's residual and inverse diagonal (and x, b below the finest level). */
nav_err nav_level_alloc(nav_psolver *ps, nav_level *lev, int finest);

/* Multigrid: build the levels below level 0; one cycle on level 0 for x, b. */
nav_err nav_mg_setup(nav_psolver *ps);
nav_err nav_mg_cycle(nav_psolver *ps, int l, int fcycle);

/* Ghost fill of level l's field x with the homogeneous boundary types of the problem. */
nav_err nav_level_fill(nav_psolver *ps, const nav_box *b, nav_real *x);
/* Volume-weighted RMS norm sqrt(sum x^2 dV / V) from a local sum. */
double nav_level_norm(const nav_level *lev, double sum_sq);
/* Subtract the volume-weighted mean of x. */
nav_err nav_level_remove_mean(nav_psolver *ps, const nav_level *lev, nav_real *x);

#endif
