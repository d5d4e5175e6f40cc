/* Poisson solver front end: set-up, solve dispatch (mg | pcg), stopping rule, null space. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/nav_error.h"
#include "core/nav_timer.h"
#include "solvers/poisson/poisson_impl.h"

nav_err nav_level_fill(nav_poisson *ps, const nav_box *b, nav_real *x) {
  return nav_fill_scalar_ghosts(ps->ops, b, (const nav_scalar_bc(*)[2])ps->bc, x);
}

double nav_level_norm(const nav_level *lev, double sum_sq) { return sqrt(fmax(sum_sq, 0) / lev->volume); }

nav_err nav_level_remove_mean(nav_poisson *ps, const nav_level *lev, nav_real *x) {
  double s;
  NAV_CALL(ps->ops->sum(&lev->box, x, &s));
  NAV_CALL(ps->ops->shift(&lev->box, x, (nav_real)(-s / lev->volume)));
  return NAV_OK;
}

nav_err nav_level_alloc(nav_poisson *ps, nav_level *lev, int finest) {
  const nav_kernel_ops *ops = ps->ops;
  const size_t bytes = (size_t)lev->box.ntot * sizeof(nav_real);
  nav_real **v[4] = {&lev->r, &lev->inv_diag, &lev->x, &lev->b};
  for (int i = 0; i < (finest ? 2 : 4); i++) {
    NAV_CALL(ops->alloc((void **)v[i], bytes));
    NAV_CALL(ops->set(&lev->box, *v[i], 0));
  }
  return ops->inverse_diagonal(&lev->box, lev->inv_diag);
}

static int nav_poisson_solver_known(const char *s) { return !strcmp(s, "mg") || !strcmp(s, "pcg"); }

nav_err nav_poisson_create(const nav_kernel_ops *ops, int dim, const int n[3], double *const w[3],
                           const nav_scalar_bc bc[3][2], const nav_poisson_options *opt, nav_poisson **out) {
  NAV_CHECK(nav_poisson_solver_known(opt->solver), NAV_ERR_INPUT, "pressure solver '%s': unknown (mg, pcg)",
            opt->solver);
  NAV_CHECK(opt->tolerance > 0 && opt->tolerance < 1, NAV_ERR_INPUT, "pressure tolerance %g: must be in (0, 1)",
            opt->tolerance);
  NAV_CHECK(opt->max_iterations > 0, NAV_ERR_INPUT, "pressure max_iterations %d: must be > 0", opt->max_iterations);
  NAV_CHECK(!strcmp(opt->cycle, "v") || !strcmp(opt->cycle, "f"), NAV_ERR_INPUT, "multigrid cycle '%s': unknown (v, f)",
            opt->cycle);
  nav_poisson *ps = calloc(1, sizeof *ps);
  NAV_CHECK(ps, NAV_ERR_MEMORY, "cannot allocate the Poisson solver");
  *out = ps;
  ps->ops = ops;
  ps->opt = *opt;
  memcpy(ps->bc, bc, sizeof ps->bc);
  ps->singular = 1;
  for (int d = 0; d < dim; d++)
    for (int s = 0; s < 2; s++)
      if (bc[d][s] == NAV_SCALAR_DIRICHLET) ps->singular = 0;

  nav_level *l0 = &ps->lev[0];
  const int g0[3] = {0, 0, 0};
  for (int d = 0; d < dim; d++) {
    l0->w[d] = nav_widths_alloc(n[d]);
    NAV_CHECK(l0->w[d], NAV_ERR_MEMORY, "cannot allocate widths");
    memcpy(l0->w[d] - 1, w[d] - 1, ((size_t)n[d] + 2) * sizeof(double));
  }
  NAV_CALL(nav_box_create(ops, dim, n, g0, l0->w, &l0->box));
  l0->volume = nav_box_volume(dim, n, g0, l0->w);
  NAV_CALL(nav_level_alloc(ps, l0, 1));
  ps->nlev = 1;
  if (!strcmp(opt->solver, "mg")) {
    NAV_CALL(nav_mg_setup(ps));
  } else {
    nav_real **v[3] = {&ps->kz, &ps->kp, &ps->kq};
    for (int i = 0; i < 3; i++) {
      NAV_CALL(ops->alloc((void **)v[i], (size_t)l0->box.ntot * sizeof(nav_real)));
      NAV_CALL(ops->set(&l0->box, *v[i], 0));
    }
  }
  return NAV_OK;
}

void nav_poisson_destroy(nav_poisson *ps) {
  if (!ps) return;
  const nav_kernel_ops *ops = ps->ops;
  for (int l = 0; l < ps->nlev; l++) {
    nav_level *lev = &ps->lev[l];
    if (l > 0) {
      ops->free(lev->x);
      ops->free(lev->b);
    }
    ops->free(lev->r);
    ops->free(lev->inv_diag);
    for (int d = 0; d < lev->box.dim; d++) nav_widths_free(lev->w[d]);
    nav_box_destroy(ops, &lev->box);
  }
  nav_real *v[6] = {ps->kz, ps->kp, ps->kq, ps->cz, ps->cp, ps->cq};
  for (int i = 0; i < 6; i++)
    if (v[i]) ops->free(v[i]);
  free(ps);
}

void nav_poisson_describe(const nav_poisson *ps, char *text, int size) {
  const nav_box *c = &ps->lev[ps->nlev - 1].box;
  if (!strcmp(ps->opt.solver, "mg"))
    snprintf(text, (size_t)size, "multigrid %s(%d,%d)-cycle, %d levels, coarsest %dx%dx%d solved by CG%s",
             !strcmp(ps->opt.cycle, "f") ? "F" : "V", ps->opt.pre_smooth, ps->opt.post_smooth, ps->nlev, c->n[0],
             c->n[1], c->n[2], ps->singular ? ", singular (zero-mean)" : "");
  else
    snprintf(text, (size_t)size, "Jacobi-preconditioned CG%s", ps->singular ? ", singular (zero-mean)" : "");
}

nav_err nav_poisson_solve(nav_poisson *ps, nav_real *x, nav_real *b, nav_poisson_stats *st) {
  const double t0 = nav_wtime();
  nav_level *l0 = &ps->lev[0];
  const nav_kernel_ops *ops = ps->ops;
  l0->x = x;
  l0->b = b;
  if (ps->singular) NAV_CALL(nav_level_remove_mean(ps, l0, b));
  double bb;
  NAV_CALL(ops->dot(&l0->box, b, b, &bb));
  const double bnorm = nav_level_norm(l0, bb);
  memset(st, 0, sizeof *st);
  if (!isfinite(bnorm)) { /* NaN/Inf input: nothing to solve; the caller reports the blow-up */
    st->relres = bnorm;
    st->solve_s = nav_wtime() - t0;
    return NAV_OK;
  }
  if (bnorm == 0) { /* the exact solution is 0 (up to the null space) */
    NAV_CALL(ops->set(&l0->box, x, 0));
    st->converged = 1;
    st->solve_s = nav_wtime() - t0;
    return NAV_OK;
  }
  if (!strcmp(ps->opt.solver, "pcg")) {
    NAV_CALL(nav_pcg_iterate(ps, l0, x, b, ps->kz, ps->kp, ps->kq, nav_precond_jacobi, ps->opt.tolerance,
                             ps->opt.max_iterations, &st->iterations, &st->relres));
  } else {
    const int fcycle = !strcmp(ps->opt.cycle, "f");
    double rr;
    NAV_CALL(nav_level_fill(ps, &l0->box, x));
    NAV_CALL(ops->residual(&l0->box, x, b, l0->r, &rr));
    double rnorm = nav_level_norm(l0, rr);
    while (rnorm > ps->opt.tolerance * bnorm && st->iterations < ps->opt.max_iterations) {
      NAV_CALL(nav_mg_cycle(ps, 0, fcycle));
      NAV_CALL(ops->residual(&l0->box, x, b, l0->r, &rr));
      rnorm = nav_level_norm(l0, rr);
      st->iterations++;
      NAV_CHECK(isfinite(rnorm), NAV_ERR_CONVERGENCE, "multigrid diverged (residual %g after %d cycles)", rnorm,
                st->iterations);
    }
    st->relres = rnorm / bnorm;
  }
  st->converged = st->relres <= ps->opt.tolerance;
  if (ps->singular) NAV_CALL(nav_level_remove_mean(ps, l0, x));
  NAV_CALL(nav_level_fill(ps, &l0->box, x));
  st->solve_s = nav_wtime() - t0;
  return NAV_OK;
}
