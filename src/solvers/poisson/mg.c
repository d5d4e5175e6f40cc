/* Geometric multigrid for the cell-centred Poisson operator.
 *
 * Hierarchy: each level merges pairs of cells in every direction, n -> (n + 1) / 2, while some
 * direction has more than 2 cells. A level with an odd count is coarsened only when it has more
 * than NAV_MG_ODD_MIN_CELLS cells (its last coarse cell holds one fine cell, which slows the
 * cycle: 0.14 instead of 0.07 per cycle at 100^2); smaller ones become the coarsest level.
 * Coarse widths are sums of fine widths and the operator is re-discretised on each level. The
 * coarsest level is solved accurately by Jacobi-preconditioned CG (relative 1e-10).
 * Cycle on level l (V; the F-cycle recurses with an F-cycle then a V-cycle):
 *   pre-smooth, r = b - L x, b_{l+1} = R r, x_{l+1} = 0, cycle on l+1, x += P x_{l+1}, post-smooth.
 * R: volume-weighted average of the children; P: linear interpolation (nav_point_poisson.h).
 * Smoother: red-black Gauss-Seidel over-relaxed by NAV_MG_OMEGA, red then black; as the
 * preconditioner of CG the post-smoothing runs black then red so the cycle is symmetric.
 * Measured choices (docs/performance.md): the linear (adjoint) restriction instead of the average
 * doubled the V(2,2) factor (0.22 vs 0.13 at 256^2); post-smoothing red-black instead of
 * black-red took it from 0.13 to 0.094 (2D) and 0.15 to 0.12 (3D); omega = 1.2 to 0.069 (2D, 256^2)
 * and 0.084 (3D, 64^3). */
#include <stdlib.h>
#include <string.h>

#include "core/nav_error.h"
#include "solvers/poisson/poisson_impl.h"

#define NAV_MG_COARSE_TOL 1e-10
#define NAV_MG_OMEGA 1.2            /* over-relaxation of the red-black smoother */
#define NAV_MG_ODD_MIN_CELLS 4096   /* coarsen a level with an odd count only above this size */

static int nav_mg_can_coarsen(const nav_box *b) {
  int big = 0, odd = 0;
  for (int d = 0; d < b->dim; d++) {
    big |= b->n[d] > 2;
    odd |= b->n[d] % 2;
  }
  return big && (!odd || (nav_idx)b->n[0] * b->n[1] * b->n[2] > NAV_MG_ODD_MIN_CELLS);
}

nav_err nav_mg_setup(nav_psolver *ps) {
  const nav_kernel_ops *ops = ps->ops;
  const int g0[3] = {0, 0, 0};
  while (ps->nlev < NAV_MG_MAX_LEVELS && nav_mg_can_coarsen(&ps->lev[ps->nlev - 1].box)) {
    const nav_level *f = &ps->lev[ps->nlev - 1];
    nav_level *c = &ps->lev[ps->nlev];
    const int dim = f->box.dim;
    int n[3] = {1, 1, 1};
    for (int d = 0; d < dim; d++) {
      n[d] = nav_coarse_count(f->box.n[d]);
      c->w[d] = nav_widths_alloc(n[d]);
      NAV_CHECK(c->w[d], NAV_ERR_MEMORY, "cannot allocate widths");
      nav_widths_coarsen(f->w[d], f->box.n[d], ps->bc[d][0] == NAV_SCALAR_PERIODIC, c->w[d]);
    }
    NAV_CALL(nav_box_create(ops, dim, n, g0, c->w, &c->box));
    c->volume = f->volume;
    NAV_CALL(nav_level_alloc(ps, c, 0));
    ps->nlev++;
  }
  const nav_level *cl = &ps->lev[ps->nlev - 1];
  const size_t bytes = (size_t)cl->box.ntot * sizeof(nav_real);
  nav_real **v[3] = {&ps->cz, &ps->cp, &ps->cq};
  for (int i = 0; i < 3; i++) {
    NAV_CALL(ops->alloc((void **)v[i], bytes));
    NAV_CALL(ops->set(&cl->box, *v[i], 0));
  }
  return NAV_OK;
}

/* One red-black Gauss-Seidel sweep; order 0: red then black, 1: black then red. */
static nav_err nav_mg_sweep(nav_psolver *ps, nav_level *lev, int order) {
  for (int h = 0; h < 2; h++) {
    NAV_CALL(ps->ops->relax_colour(&lev->box, lev->x, lev->b, lev->inv_diag, h ^ order, (nav_real)NAV_MG_OMEGA));
    NAV_CALL(nav_level_fill(ps, &lev->box, lev->x));
  }
  return NAV_OK;
}

static nav_err nav_mg_coarse_solve(nav_psolver *ps, nav_level *lev) {
  int it;
  double rel;
  if (ps->singular) NAV_CALL(nav_level_remove_mean(ps, lev, lev->b));
  const int n = lev->box.n[0] * lev->box.n[1] * lev->box.n[2];
  NAV_CALL(nav_pcg_iterate(ps, lev, lev->x, lev->b, lev->r, ps->cz, ps->cp, ps->cq, nav_precond_jacobi, NAV_MG_COARSE_TOL,
                           2 * n + 50, &it, &rel));
  return nav_level_fill(ps, &lev->box, lev->x);
}

nav_err nav_precond_mg(nav_psolver *ps, nav_level *lev, const nav_real *r, nav_real *z) {
  nav_real *x = lev->x, *b = lev->b;
  lev->x = z;
  lev->b = (nav_real *)r; /* read only: the cycle never writes the right-hand side of level 0 */
  nav_err e = ps->ops->set(&lev->box, z, 0);
  if (e == NAV_OK) e = nav_mg_cycle(ps, 0, 0);
  lev->x = x;
  lev->b = b;
  return e;
}

nav_err nav_mg_cycle(nav_psolver *ps, int l, int fcycle) {
  nav_level *lev = &ps->lev[l];
  const nav_kernel_ops *ops = ps->ops;
  if (l == ps->nlev - 1) return nav_mg_coarse_solve(ps, lev);
  nav_level *c = &ps->lev[l + 1];
  for (int s = 0; s < ps->opt.pre_smooth; s++) NAV_CALL(nav_mg_sweep(ps, lev, 0));
  NAV_CALL(ops->residual(&lev->box, lev->x, lev->b, lev->r, NULL));
  NAV_CALL(ops->restrict_residual(&lev->box, lev->r, &c->box, c->b));
  NAV_CALL(ops->set(&c->box, c->x, 0));
  NAV_CALL(nav_mg_cycle(ps, l + 1, fcycle));
  if (fcycle) NAV_CALL(nav_mg_cycle(ps, l + 1, 0));
  NAV_CALL(nav_level_fill(ps, &c->box, c->x));
  NAV_CALL(ops->prolong_add(&c->box, c->x, &lev->box, lev->x));
  NAV_CALL(nav_level_fill(ps, &lev->box, lev->x));
  for (int s = 0; s < ps->opt.post_smooth; s++) NAV_CALL(nav_mg_sweep(ps, lev, ps->kind == NAV_PSOLVER_MGPCG));
  return NAV_OK;
}
