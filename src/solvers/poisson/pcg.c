/* Preconditioned conjugate gradients for L x = b in the volume-weighted inner product: the loop on one
 * level (nav_pcg_iterate, under the multigrid's coarsest solve and the solvers pcg and mgpcg) and the
 * solver pcg behind the front (poisson_impl.h), preconditioned by Jacobi.
 *
 * L is negative semi-definite; CG runs on it unchanged with a negative definite
 * preconditioner (Jacobi: diag(L)^{-1}; a multigrid cycle approximates L^{-1}): the iterates are
 * those of CG on (-L) x = -b with the SPD preconditioner -M. Hestenes-Stiefel form:
 *   r = b - L x, z = M r, p = z;  loop: q = L p, alpha = (r,z)/(p,q), x += alpha p, r -= alpha q,
 *   z = M r, beta = (r,z)_new/(r,z)_old, p = z + beta p.
 * flexible (the multigrid preconditioner): beta = (r_new, z_new - z_old)/(r,z)_old (Polak-Ribiere; Notay
 * 2000, "Flexible conjugate gradients"), one more inner product per iteration. The V-cycle is not exactly
 * symmetric (average restriction, linear prolongation: R is not P^T), and on stretched grids with
 * line smoothing that asymmetry stalled the plain form: the flying snake's first pressure solve at
 * 4.9e-4 after 60 iterations, a 256^2 grid of cell ratio 40 at 1.4e-6 to 4.4e-5 after 100
 * (docs/performance.md), while the same cycle alone converged in 11-13. With a fixed symmetric
 * preconditioner (r_new, z_old) = 0 and both forms agree. */
#include <math.h>
#include <stdio.h>

#include "core/nav_error.h"
#include "solvers/poisson/poisson_impl.h"

nav_err nav_precond_jacobi(nav_psolver *ps, nav_level *lev, const nav_real *r, nav_real *z) {
  (void)ps;
  return lev->ops->diag_scale(&lev->box, lev->inv_diag, r, z);
}

nav_err nav_pcg_iterate(nav_psolver *ps, nav_level *lev, nav_real *x, const nav_real *b, nav_real *r, nav_real *z,
                        nav_real *p, nav_real *q, nav_precond_fn precond, int flexible, double tol, int maxit,
                        int *iterations, double *relres) {
  const nav_kernel_ops *ops = lev->ops;
  const nav_box *bx = &lev->box;
  double bb, rr, rz, pq;
  NAV_CALL(nav_level_dot(lev, b, b, &bb));
  const double bnorm = nav_level_norm(lev, bb);
  NAV_CALL(nav_level_fill(lev, x));
  NAV_CALL(ops->residual(bx, x, b, r, &rr));
  nav_reduce_sum(lev->comm, &rr, 1);
  double rnorm = nav_level_norm(lev, rr);
  int it = 0;
  if (bnorm > 0 && rnorm > tol * bnorm) {
    NAV_CALL(precond(ps, lev, r, z));
    NAV_CALL(ops->copy(p, z, (size_t)bx->ntot * sizeof(nav_real)));
    NAV_CALL(nav_level_dot(lev, r, z, &rz));
    while (it < maxit) {
      NAV_CALL(nav_level_fill(lev, p));
      NAV_CALL(ops->laplacian(bx, p, q));
      NAV_CALL(nav_level_dot(lev, p, q, &pq));
      if (pq == 0) break; /* p in the null space: nothing left to reduce */
      const double alpha = rz / pq;
      NAV_CALL(ops->axpby(bx, (nav_real)alpha, p, 1, x));
      NAV_CALL(ops->axpby(bx, (nav_real)-alpha, q, 1, r));
      NAV_CALL(nav_level_dot(lev, r, r, &rr));
      rnorm = nav_level_norm(lev, rr);
      it++;
      NAV_CHECK(isfinite(rnorm), NAV_ERR_CONVERGENCE, "CG diverged (residual %g after %d iterations)", rnorm, it);
      if (rnorm <= tol * bnorm) break;
      double r_zold = 0; /* (r_new, z_old) */
      if (flexible) NAV_CALL(nav_level_dot(lev, r, z, &r_zold));
      NAV_CALL(precond(ps, lev, r, z));
      const double rz_old = rz;
      NAV_CALL(nav_level_dot(lev, r, z, &rz));
      NAV_CALL(ops->axpby(bx, 1, z, (nav_real)((rz - r_zold) / rz_old), p));
    }
  }
  *iterations = it;
  *relres = bnorm > 0 ? rnorm / bnorm : 0;
  return NAV_OK;
}

static nav_err nav_pcg_setup(nav_psolver *ps) { return nav_psolver_work(ps, 3); }

nav_err nav_pcg_solve(nav_psolver *ps, nav_real *x, nav_real *b, const double *given, double t0, nav_real *r,
                      nav_precond_fn precond, int flexible, nav_psolver_stats *st) {
  double bnorm, bref, tol;
  int done;
  NAV_CALL(nav_psolver_prepare(ps, b));
  NAV_CALL(nav_psolver_begin(ps, x, b, given, 1, t0, st, &bnorm, &bref, &tol, &done));
  if (done) return NAV_OK;
  NAV_CALL(nav_pcg_iterate(ps, &ps->lev[0], x, b, r, ps->work[0], ps->work[1], ps->work[2], precond, flexible, tol,
                           ps->opt.max_iterations, &st->iterations, &st->relres));
  st->relres *= bnorm / bref;
  return nav_psolver_finish(ps, x, t0, st);
}

static nav_err nav_pcg_impl_solve(nav_psolver *ps, nav_real *x, nav_real *b, const double *given, double t0,
                                  nav_psolver_stats *st) {
  return nav_pcg_solve(ps, x, b, given, t0, ps->lev[0].r, nav_precond_jacobi, 0, st);
}

static nav_err nav_pcg_apply(nav_psolver *ps, nav_real *z, nav_real *r) {
  return nav_precond_jacobi(ps, &ps->lev[0], r, z);
}

static void nav_pcg_describe(const nav_psolver *ps, char *text, int size) {
  char notes[96];
  nav_psolver_notes(ps, notes, sizeof notes);
  snprintf(text, (size_t)size, "Jacobi-preconditioned CG%s", notes);
}

const nav_psolver_impl nav_psolver_pcg = {
    .name = "pcg",
    .iterative = 1,
    .setup = nav_pcg_setup,
    .solve = nav_pcg_impl_solve,
    .apply = nav_pcg_apply,
    .describe = nav_pcg_describe,
};
