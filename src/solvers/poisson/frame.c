/* The frame every Poisson solve shares (poisson_impl.h): the operator refresh, the pinned rows, the null
 * space (b projected to zero mean, x returned with zero mean), ||b|| and the stopping rule
 * ||b - L x|| <= tol max(||b||, floor), the stationary iteration loop. Below the solvers, above level.c. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "backend/nav_mg_kernels.h"
#include "core/nav_error.h"
#include "core/nav_timer.h"
#include "solvers/poisson/poisson_impl.h"

nav_err nav_psolver_work(nav_psolver *ps, int n) {
  const nav_level *l0 = &ps->lev[0];
  for (int i = 0; i < n; i++) {
    NAV_CALL(ps->ops->alloc((void **)&ps->work[i], (size_t)l0->box.ntot * sizeof(nav_real)));
    NAV_CALL(ps->ops->set(&l0->box, ps->work[i], 0));
  }
  return NAV_OK;
}

void nav_psolver_notes(const nav_psolver *ps, char *text, int size) {
  snprintf(text, (size_t)size, "%s", ps->singular ? ", singular (zero-mean)" : "");
  if (ps->opt.tolerance > ps->tol_asked)
    snprintf(text + strlen(text), (size_t)size - strlen(text), ", tolerance raised to %.1e (precision)",
             ps->opt.tolerance);
}

nav_err nav_psolver_refresh(nav_psolver *ps) {
  for (int l = 0; l < ps->nlev; l++) {
    nav_level *lev = &ps->lev[l];
    if (!lev->active) continue;
    lev->box.shift = (nav_real)ps->sigma;
    /* read by the point smoother and the Jacobi preconditioner; a line-smoothed level takes its diagonal from
     * the stencil (nav_line_row) */
    if (!lev->nline) NAV_CALL(lev->ops->inverse_diagonal(&lev->box, lev->inv_diag));
  }
  if (ps->impl->refresh) NAV_CALL(ps->impl->refresh(ps));
  ps->diag_stale = 0;
  return NAV_OK;
}

nav_err nav_psolver_prepare(nav_psolver *ps, nav_real *b) {
  if (ps->diag_stale) NAV_CALL(nav_psolver_refresh(ps));
  if (ps->opt.staggered) NAV_CALL(nav_level_pin(&ps->lev[0], b, NAV_GHOST_FACE)); /* the pinned rows: b = 0 */
  return NAV_OK;
}

nav_err nav_psolver_begin(nav_psolver *ps, nav_real *x, nav_real *b, const double *given, int project, double t0,
                          nav_psolver_stats *st, double *bnorm, double *bref, double *tol, int *done) {
  const nav_level *l0 = &ps->lev[0];
  *done = 1;
  if (ps->singular && project) {
    double sum;
    NAV_CALL(nav_level_remove_mean_sum(l0, b, given, &sum));
  }
  double bb;
  NAV_CALL(nav_level_dot(l0, b, b, &bb));
  *bnorm = nav_level_norm(l0, bb);
  memset(st, 0, sizeof *st);
  st->relres_measured = 1;
  if (!isfinite(*bnorm)) { /* NaN/Inf input: nothing to solve; the caller reports the blow-up */
    st->relres = *bnorm;
    st->solve_s = nav_wtime() - t0;
    return NAV_OK;
  }
  if (*bnorm == 0) { /* the exact solution is 0 (up to the null space) */
    NAV_CALL(ps->ops->set(&l0->box, x, 0));
    st->converged = 1;
    st->solve_s = nav_wtime() - t0;
    return NAV_OK;
  }
  /* the stopping rule ||r|| <= tol max(||b||, floor): relres is relative to that reference */
  *bref = fmax(*bnorm, ps->floor);
  *tol = ps->opt.tolerance * *bref / *bnorm;
  *done = 0;
  return NAV_OK;
}

nav_err nav_psolver_finish(nav_psolver *ps, nav_real *x, double t0, nav_psolver_stats *st) {
  const nav_level *l0 = &ps->lev[0];
  st->converged = st->relres <= ps->opt.tolerance;
  if (ps->singular) NAV_CALL(nav_level_remove_mean(l0, x));
  NAV_CALL(nav_level_fill(l0, x));
  st->solve_s = nav_wtime() - t0;
  return NAV_OK;
}

/* r = b - L x on level 0 and *rr = sum r^2 dV over every rank; r in l0->r, or with the mixed-precision
 * multigrid in float as the next cycle's right-hand side (ps->lo0[1], mg.c). */
static nav_err nav_psolver_residual(nav_psolver *ps, const nav_real *x, const nav_real *b, double *rr) {
  nav_level *l0 = &ps->lev[0];
  if (ps->lo)
    NAV_CALL(nav_mg_kernels_of(ps->ops)->residual_lo(&l0->box, x, b, (float *)(void *)ps->lo0[1], rr));
  else
    NAV_CALL(ps->ops->residual(&l0->box, x, b, l0->r, rr));
  nav_reduce_sum(l0->comm, rr, 1);
  return NAV_OK;
}

nav_err nav_psolver_iterate(nav_psolver *ps, nav_real *x, const nav_real *b, double bref, nav_psolver_step_fn step,
                            nav_psolver_stats *st) {
  nav_level *l0 = &ps->lev[0];
  double rr;
  NAV_CALL(nav_level_fill(l0, x));
  NAV_CALL(nav_psolver_residual(ps, x, b, &rr));
  double rnorm = nav_level_norm(l0, rr);
  while (rnorm > ps->opt.tolerance * bref && st->iterations < ps->opt.max_iterations) {
    NAV_CALL(step(ps, x, b));
    NAV_CALL(nav_psolver_residual(ps, x, b, &rr));
    rnorm = nav_level_norm(l0, rr);
    st->iterations++;
    NAV_CHECK(isfinite(rnorm), NAV_ERR_CONVERGENCE, "%s diverged (residual %g after %d iterations)", ps->opt.solver,
              rnorm, st->iterations);
  }
  st->relres = rnorm / bref;
  return NAV_OK;
}

nav_err nav_psolver_stationary(nav_psolver *ps, nav_real *x, nav_real *b, const double *given, double t0,
                               nav_psolver_step_fn step, nav_psolver_stats *st) {
  double bnorm, bref, tol;
  int done;
  NAV_CALL(nav_psolver_begin(ps, x, b, given, 1, t0, st, &bnorm, &bref, &tol, &done));
  if (done) return NAV_OK;
  NAV_CALL(nav_psolver_iterate(ps, x, b, bref, step, st));
  return nav_psolver_finish(ps, x, t0, st);
}
